"""The compile context: what the compilers of predicates, actions and effects resolve ahead of time -
roles to seats (0: the turn player, 1: the other, 2: ``self``, the player a rule or ability is
tested for, also a card ability's ``controller``; 3: the ``opponent`` of that player; with more than
two players, 1 is the next player in turn order and 4, 5, ... the ones after), constants to
integers, zone roles to zone ids - and the helpers built on zone roles (drawing, the characters that
may attack, the zones in play, the active character of a party).

With more than two players a role of seat ``non_turn`` is held by every player but the turn
player: it names a set of players (``holds_role``, a play kind's ``by``, a window's ``who``), and
naming one player by it is refused (R509) where a run reaches it."""
from __future__ import annotations

from ...core import model as m
from .state import SimulationError

BOTH = (0, 1)
CARD_ROLES = {"controller": 2, "opponent": 3}
AMBIGUOUS = "R509"


def all_seats(players: int) -> tuple:
    """The seats of every player, in turn order from the turn player."""
    return BOTH + tuple(range(4, players + 2))


class Cx:
    def __init__(self, game: m.Game, players: int = 2):
        self.game = game
        self.players = players
        self.all = all_seats(players)
        self.node: m.Node | None = None  # the node being compiled (for the location of errors)
        self.roles = {}
        for z in game.zones.values():
            role = z.get("role")
            if role is not None:
                self.roles.setdefault(role, z.id)

    @property
    def loc(self):
        return self.node.loc if self.node is not None else None

    def seat(self, role):
        if role is None:
            return None
        if role == "self":
            return 2
        r = self.game.roles.get(role)
        if r is None:
            if role in ("any", "both"):
                return 0
            if role in CARD_ROLES:  # a card ability's condition: its controller, and that player's opponent
                return CARD_ROLES[role]
            raise SimulationError("R503", f"the game has no role '{role}'", self.loc)
        if r.get("seat") == "turn":
            return 0
        if self.players > 2:
            raise SimulationError(AMBIGUOUS, f"'{role}' names one player, but with {self.players} players every player "
                                  "but the turn player holds it", self.loc,
                                  help="name the turn player's role, self, or any; with more than two players a "
                                  "non_turn role names a set (holds_role, by, who)")
        return 1

    def seats(self, player) -> tuple:
        """The seats of a player argument: every player for 'any' and 'both'."""
        if player in ("any", "both"):
            return self.all
        return (self.seat(player),)

    def role_seats(self, role) -> tuple:
        """The seats of the players who hold a role (a set: every player but the turn player for a
        non_turn role); an unknown role stands for the turn player, as ``seat`` is lenient there."""
        r = self.game.roles.get(role)
        if role in ("any", "both"):
            return self.all
        if r is None or r.get("seat") == "turn":
            return (0,)
        return self.all[1:]

    def int(self, value) -> int:
        if isinstance(value, str):
            v = self.game.constants.get(value)
            if isinstance(v, int):
                return v
            raise SimulationError("R503", f"'{value}' is not an integer constant of the game", self.loc)
        return int(value)

    # --- zones by role ---------------------------------------------------------------------------
    def zone(self, role: str) -> str:
        z = self.roles.get(role)
        if z is None:
            raise SimulationError("R503", f"no zone of the game has the role '{role}'", self.loc,
                                  help=f"declare 'role: {role}' on the zone that plays it")
        return z

    def zone_or_none(self, role: str) -> str | None:
        return self.roles.get(role)

    def zones_of(self, *roles: str) -> tuple:
        return tuple(self.roles[r] for r in roles if r in self.roles)

    def in_play(self) -> frozenset:
        return frozenset(self.zones_of("stage", "field", "parties"))

    def drawer(self):
        deck, hand = self.zone("deck"), self.zone("hand")
        return lambda st, pid, n: st.draw(pid, n, deck, hand)

    def attackers(self):
        """The characters of a player that may attack or block: the front positions of the stage, or
        the field."""
        stage = self.zone_or_none("stage")
        if stage is not None:
            front, kinds = self.game.zones[stage].get("front"), self.combatants(stage)

            def on_stage(st, pid):
                return [c for c in st.zones[pid][stage] if c.slot is not None and (front is None or c.slot < front)
                        and c.spec.type in kinds]
            return on_stage
        field = self.zone_or_none("field")
        if field is None:
            return lambda st, pid: []
        kinds = self.combatants(field)
        return lambda st, pid: [c for c in st.zones[pid][field] if c.spec.type in kinds]

    def combatants(self, zone) -> tuple:
        """The card types that attack and block from the zone: its 'combatants', else character and unit."""
        return self.game.zones[zone].get("combatants") or ("character", "unit")

    def active(self):
        """The active character (the top card) of a faction's party."""
        parties = self.zone_or_none("parties")

        def active(st, pid, party):
            if parties is None:
                return None
            for c in st.zones[pid][parties]:
                if c.spec.faction == party:
                    return c
            return None
        return active

"""Scenario files: the starting state of a turn, the cards with simple abilities, the players'
choices, and (optionally) the facts expected of the trace.

Validated by the same front end as rule files (loader -> pydantic shape -> checks against the
compiled game), with the same located diagnostics: abilities' conditions and effects go through
the rule files' resolver (``resolve``). ``build`` returns the immutable ``core.scenario.Scenario``
that the interpreter runs; it knows no YAML.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, PlainValidator, ValidationError, WithJsonSchema

from ..core import model as m
from ..core.diagnostics import Diagnostic, did_you_mean, one_of
from ..core.scenario import BUILTIN_EVENTS, STATS, Ability, Card, Choice, Scenario
from . import cardwords
from . import expect as expect_section
from .expect import ExpectSpec
from .resolve import Registry, Resolver
from .schema import Condition, Id, Model, Ref, Text, json_schema_of, term_schema
from .shape import map_errors
from .terms import Logic, Term, Use, lower_action, lower_condition, parse_effect
from .values import cites_of, text

AMBIGUOUS = "R509"  # one player named by a role several players hold
MOVING_EVENTS = ("entered", "left_stage")  # the built-in events of a card going to a zone (its 'to')
# An effect of a card ability (``core.vocab.EFFECTS``): its JSON Schema is generated from the same
# registry as the checks read, with literal arguments.
Effect = Annotated[Term, PlainValidator(parse_effect), WithJsonSchema(term_schema("Effect"))]


class AbilitySpec(Model):
    id: Id | None = None
    label: Text | None = None
    kind: Literal["auto", "activated"] = Field(description="auto: triggers on an event; activated: played in a window")
    event: Ref | None = Field(None, description="auto: the game event or built-in event that triggers it")
    subject: Literal["self", "any"] = Field("self", description="auto, card events: only when the event is about this card")
    every: int | None = Field(None, ge=1, description="auto: only on every n-th occurrence of the event (1 or more)")
    while_in: Ref | None = Field(None, description="the zone this card must be in for the ability to work (default: any)")
    to: Ref | None = Field(None, description="auto, events of a card moving (entered, left_stage): only when that card "
                           "goes to this zone")
    zone: Ref | None = Field(None, description="deprecated: write while_in (where this card must be) or to (where the "
                             "event's card goes)", json_schema_extra={"deprecated": True})
    if_: Condition | None = Field(None, alias="if")
    play: Ref | None = Field(None, description="activated: the play kind, for priority windows that allow it "
                             "(without one, it is played only by a player action such as a counter step)")
    cost: list[Effect] = Field(default_factory=list, description="effects paid when it is played (e.g. move self to the discard pile)")
    effect: list[Effect] = Field(default_factory=list)


class CardSpec(Model):
    id: Id
    name: str
    type: str = Field(description="the card type: an item of the game's list 'card_types' (its id, or its name in "
                      "either language)")
    stats: dict[str, int] = Field(default_factory=dict)
    traits: list[str] = Field(default_factory=list, description="traits and keywords: items of the game's list 'traits'")
    faction: str | None = Field(None, description="an item of the game's list 'factions'")
    triggers: list[str] = Field(default_factory=list, description="trigger icons: items of the game's list 'triggers'")
    state: Literal["stand", "rest", "reverse", "active", "sleep", "face_up", "face_down"] | None = None
    abilities: list[AbilitySpec] = Field(default_factory=list)


class PlayerSpec(Model):
    id: Id
    name: str
    zones: dict[str, list[Id | None]] = Field(
        default_factory=dict, description="zone -> card ids in order (top first); on the stage, an id's position is its "
        "slot, and null leaves a slot empty")
    values: dict[str, int] = Field(default_factory=dict, description="player value -> what the player starts with "
                                  "(e.g. life: 3), instead of the rule file's start")


class ChoiceSpec(Model):
    at: Ref | None = Field(None, description="the node id where the decision is made (or a rule process id, e.g. "
                           "level_up); without it, the choice answers the next player decision, in order")
    take: Id | None = Field(None, description="an option id, or yes/no for a 'may' action, or pass/play in a window")
    card: Id | None = Field(None, description="the card the decision uses (played, placed, attacking, blocking, ...)")
    cards: list[Id] | None = None
    ability: Id | None = Field(None, description="which pending ability to resolve, or which ability of the card to play")
    target: Id | None = Field(None, description="the card an ability played here aims at")
    blocks: dict[str, Id] | None = Field(None, description="blocker -> the attacking card it blocks (several blockers may "
                                        "block one attacker: they are dealt damage in the order written)")
    note: Text | None = None


class ScenarioMeta(Model):
    id: Id
    game: Id
    title: Text
    demonstrates: Text | None = None
    seed: int = 0
    first_turn: bool = False
    turn_player: Id
    turns: int = Field(1, ge=1, description="how many turns are run (1 or more)")
    policy: Literal["pass", "first", "random"] = "pass"
    max_steps: int = Field(20_000, ge=1)
    cite: Union[str, list[str], None] = None


class ScenarioFile(Model):
    scenario: ScenarioMeta
    players: list[PlayerSpec]
    cards: list[CardSpec] = Field(default_factory=list)
    choices: list[ChoiceSpec] = Field(default_factory=list)
    expect: ExpectSpec | None = None


for _m in (AbilitySpec, CardSpec, ChoiceSpec, ScenarioFile):
    _m.model_rebuild()


def json_schema() -> dict:
    return json_schema_of(ScenarioFile, "scenario", "tcgtiming scenario file")


def is_scenario(data) -> bool:
    return isinstance(data, dict) and "scenario" in data


def validate(doc) -> tuple[ScenarioFile | None, list[Diagnostic]]:
    try:
        return ScenarioFile.model_validate(doc.data, strict=True), []
    except ValidationError as exc:
        return None, map_errors(doc, exc, root=ScenarioFile)


class ScenarioChecks:
    """Meaning: card ids, zones, roles, events, node ids of choices, effects against the registry."""

    def __init__(self, sf: ScenarioFile, game: m.Game, doc):
        self.sf, self.game, self.doc = sf, game, doc
        self.diags: list[Diagnostic] = []
        # a card's ability names players relative to the card, and may wait for a built-in event
        reg = Registry.of_game(game).widen(roles=("controller", "opponent"), events=BUILTIN_EVENTS)
        self.res = Resolver(reg, self.fail)

    def fail(self, code, message, path, *, key=False, help=None):
        self.diags.append(self.doc.diag(code, message, path, key=key, help=help))

    def run(self) -> list[Diagnostic]:
        sf, game = self.sf, self.game
        if sf.scenario.game != game.id:
            self.fail("C302", f"scenario for game '{sf.scenario.game}' run with the rules of '{game.id}'", ("scenario", "game"))
        pids = [p.id for p in sf.players]
        fewest, most = game.players
        if not fewest <= len(pids) <= most:
            allowed = str(fewest) if fewest == most else f"{fewest} to {most}"
            self.fail("C301", f"{game.id} is played by {allowed} players; this scenario lists {len(pids)}", ("players",),
                      help="list the players in turn order (the game's 'players' says how many it allows)")
        for i, pid in enumerate(pids):
            if pid in pids[:i]:
                self.fail("C301", f"duplicate player id '{pid}'", ("players", i, "id"))
        if sf.scenario.turn_player not in pids:
            self.fail("C302", f"unknown player '{sf.scenario.turn_player}'", ("scenario", "turn_player"),
                      help=did_you_mean(sf.scenario.turn_player, pids))
        cards = {}
        for i, c in enumerate(sf.cards):
            if c.id in cards:
                self.fail("C301", f"duplicate card id '{c.id}'", ("cards", i, "id"))
            cards[c.id] = c
            cardwords.check_card(game, c, ("cards", i), self.fail)
            for k in c.stats:
                if k not in STATS:
                    self.fail("S201", f"unknown stat '{k}'", ("cards", i, "stats", k), key=True,
                              help=did_you_mean(k, STATS) or one_of(STATS))
            ab_ids = set()
            for j, ab in enumerate(c.abilities):
                self.ability(ab, ("cards", i, "abilities", j))
                if ab.id is not None and ab.id in ab_ids:
                    self.fail("C301", f"duplicate ability id '{ab.id}'", ("cards", i, "abilities", j, "id"))
                ab_ids.add(ab.id)
        placed: dict[str, tuple] = {}
        for i, p in enumerate(sf.players):
            for k in p.values:
                self.res.ref(k, frozenset(game.player_values or ()), ("players", i, "values", k), "player value")
            for zone, ids in p.zones.items():
                if zone not in game.zones:
                    self.fail("C302", f"unknown zone '{zone}'", ("players", i, "zones", zone), key=True,
                              help=did_you_mean(zone, game.zones) or one_of(game.zones))
                for j, cid in enumerate(ids):
                    path = ("players", i, "zones", zone, j)
                    if cid is None:
                        if game.zones.get(zone) is None or game.zones[zone].get("role") != "stage":
                            self.fail("S204", "an empty place (null) is allowed only among the slots of the stage", path,
                                      help="leave the card out, or put the card's id here")
                        continue
                    if cid not in cards:
                        self.fail("C302", f"unknown card '{cid}'", path, help=did_you_mean(cid, cards))
                    elif cid in placed:
                        self.fail("C301", f"card '{cid}' is placed twice (a card is in one zone only)", path)
                    placed[cid] = path
        for i, ch in enumerate(sf.choices):
            path = ("choices", i)
            for blocker, attacker in (ch.blocks or {}).items():
                for cid, is_key in ((blocker, True), (attacker, False)):
                    if cid not in cards:
                        self.fail("C302", f"unknown card '{cid}'", path + ("blocks", blocker), key=is_key,
                                  help=did_you_mean(cid, cards))
            if ch.at is None:  # answers the next decision in order: only its cards can be checked here
                for key in ("card", "target"):
                    cid = getattr(ch, key)
                    if cid is not None and cid not in cards:
                        self.fail("C302", f"unknown card '{cid}'", path + (key,), help=did_you_mean(cid, cards))
                continue
            node = game.nodes.get(ch.at)
            if node is None and ch.at in game.rule_processes:
                continue  # a choice made inside rule processing (e.g. which clock card levels up)
            box = game.containers.get(ch.at) if node is None else None
            if box is not None and box.kind in ("phase", "step"):  # any decision made in the phase or step
                for key in ("card", "target"):
                    cid = getattr(ch, key)
                    if cid is not None and cid not in cards:
                        self.fail("C302", f"unknown card '{cid}'", path + (key,), help=did_you_mean(cid, cards))
                continue
            if node is None:
                self.fail("C302", f"unknown node '{ch.at}'", path + ("at",),
                          help=did_you_mean(ch.at, [n for n in game.nodes if not n.endswith((".begin", ".end"))]))
                continue
            expects_refusal = sf.expect is not None and sf.expect.refused is not None
            if node.kind in ("closed", "auto", "trigger") and ch.take == "play" and expects_refusal:
                pass  # the run refuses it where the timing comes (R503), as the expected refusal says
            elif node.kind in ("closed", "auto", "trigger", "check", "goto", "exit", "begin", "end", "end_game",
                               "foreach", "loop", "call") and ch.take == "play":
                what = "a closed timing: no one may play" if node.kind == "closed" else f"a {node.kind} node, not a priority window"
                self.fail("R503", f"cannot play at '{ch.at}' ({node.label.en}): it is {what}", path + ("at",))
            for key in ("card", "target"):
                cid = getattr(ch, key)
                if cid is not None and cid not in cards:
                    self.fail("C302", f"unknown card '{cid}'", path + (key,), help=did_you_mean(cid, cards))
            for j, cid in enumerate(ch.cards or []):
                if cid not in cards:
                    self.fail("C302", f"unknown card '{cid}'", path + ("cards", j), help=did_you_mean(cid, cards))
            if node.kind == "player" and node.choices and ch.take is not None:
                ids = [c.id for c in node.choices]
                if ch.take not in ids:
                    self.fail("C302", f"node '{ch.at}' has no option '{ch.take}'", path + ("take",),
                              help=did_you_mean(ch.take, ids) or one_of(ids))
            if node.kind == "player" and not node.choices and node.may and ch.take not in (None, "yes", "no"):
                self.fail("S204", f"'{ch.take}' is not allowed here", path + ("take",), help="a 'may' action takes yes or no")
            if node.kind == "window" and ch.take not in (None, "pass", "play"):
                self.fail("S204", f"'{ch.take}' is not allowed in a priority window", path + ("take",),
                          help="take: play (with card:) or take: pass")
        if sf.expect is not None:
            expect_section.check(sf.expect, game, pids, cards, self.fail)
        return self.diags

    def ability(self, ab: AbilitySpec, path):
        game = self.game
        if ab.kind == "auto":
            if ab.event is None:
                self.fail("S202", "missing required key 'event' in an auto ability", path)
            else:
                self.res.event(ab.event, path + ("event",))
            if ab.play is not None:
                self.fail("S201", "'play' applies to activated abilities", path + ("play",), key=True)
        else:
            if ab.play is not None and ab.play not in game.plays:
                self.fail("C302", f"unknown play kind '{ab.play}'", path + ("play",),
                          help=did_you_mean(ab.play, game.plays) or (one_of(game.plays) if game.plays else
                               f"{game.id} has no priority windows: leave 'play' out; the ability is played by a "
                               "player action (such as a counter step)"))
        for key in ("while_in", "to", "zone"):
            z = getattr(ab, key)
            if z is not None and z not in game.zones:
                self.fail("C302", f"unknown zone '{z}'", path + (key,), help=did_you_mean(z, game.zones))
        if ab.zone is not None:
            both = ab.while_in is not None
            self.fail("S206" if not both else "S201", "'zone' is replaced by 'while_in' (the zone this card must be "
                      "in) and 'to' (the zone the event's card goes to)" + (": write only while_in" if both else
                      f"; read here as while_in: {ab.zone}"), path + ("zone",), key=True,
                      help=f"write while_in: {ab.zone}" + (f", or to: {ab.zone} for where the card goes"
                                                           if ab.event in MOVING_EVENTS else ""))
        if ab.to is not None and ab.event not in MOVING_EVENTS:
            self.fail("S201", f"'to' applies to the events of a card moving ({', '.join(MOVING_EVENTS)}), not to "
                      f"'{ab.event}'", path + ("to",), key=True,
                      help=f"for where this card must be, write while_in: {ab.to}")
        for key in ("cost", "effect"):
            for j, eff in enumerate(getattr(ab, key)):
                self.res.effect(eff, path + (key, j))
                self.one_player(eff, path + (key, j))
        if ab.if_ is not None:
            self.res.condition(ab.if_, path + ("if",))
            self.one_player(ab.if_, path + ("if",))

    def one_player(self, term, path) -> None:
        """With more than two players, a role of seat non_turn names several players: refused where
        a card ability names one player by it (holds_role's role names the set, and is allowed)."""
        if len(self.sf.players) <= 2:
            return
        if isinstance(term, Logic):
            for part in term.parts:
                self.one_player(part, path)
            return
        if not isinstance(term, Use):
            return
        for arg in term.args:
            role = self.game.roles.get(arg.value) if isinstance(arg.value, str) else None
            if role is None or role.get("seat") != "non_turn" or (term.name == "holds_role" and arg.name == "role"):
                continue
            self.fail(AMBIGUOUS, f"'{arg.value}' names one player, but with {len(self.sf.players)} players every "
                      "player but the turn player holds it", path + arg.at,
                      help="name the controller, the opponent or the turn player's role")


def build(sf: ScenarioFile, doc, game: m.Game) -> Scenario:
    """The scenario the engine runs (its checks passed): card words are the ids they stand for."""
    cards = {}
    word = lambda field, value: cardwords.normal(game, field, value)  # noqa: E731
    for c in sf.cards:
        abilities = tuple(
            Ability(ab.id or f"{c.id}.{k + 1}", (ab.label.en if ab.label and ab.label.en else (ab.id or f"{ab.kind} {k + 1}")),
                    ab.kind, ab.event, ab.subject, ab.every, ab.while_in or ab.zone,
                    lower_condition(ab.if_) if ab.if_ is not None else None, ab.play,
                    tuple(lower_action(a) for a in ab.cost), tuple(lower_action(a) for a in ab.effect),
                    text(ab.label) if ab.label and ab.label.ja and ab.label.en else None, ab.to)
            for k, ab in enumerate(c.abilities))
        cards[c.id] = Card(c.id, c.name, word("type", c.type), tuple(sorted(c.stats.items())), word("traits", c.traits),
                           word("faction", c.faction), word("triggers", c.triggers), c.state, abilities)
    choices = []
    for i, ch in enumerate(sf.choices):
        sp = doc.span(("choices", i))
        choices.append(Choice(ch.at, ch.take, ch.card, tuple(ch.cards or ()), ch.ability, ch.target,
                              m.Loc(doc.file, sp.line, sp.col), tuple((ch.blocks or {}).items())))
    meta = sf.scenario
    return Scenario(meta.id, meta.game, doc.file, text(meta.title), text(meta.demonstrates), meta.seed, meta.first_turn,
                    meta.turn_player, meta.turns, meta.policy, meta.max_steps,
                    tuple((p.id, p.name, tuple((z, tuple(ids)) for z, ids in p.zones.items())) for p in sf.players),
                    m.freeze_map(cards), tuple(choices), expect_section.build(sf.expect, doc), cites_of(meta.cite, ()),
                    tuple((p.id, tuple(p.values.items())) for p in sf.players if p.values))


__all__ = ["ScenarioFile", "ScenarioChecks", "validate", "build", "is_scenario", "json_schema"]

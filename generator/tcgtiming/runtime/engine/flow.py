"""The node kinds the compiled program hands to the machine (the rest - begin, end, automatic and
closed actions, triggers, calls, gotos, exits, branches and loops - are inline in the program):
player actions and their decisions, for-each, the end of the game; and the scripted and policy
decisions themselves."""
from __future__ import annotations

from ...core.text import cond_text
from .cards import LABEL
from .state import GameOver, SimulationError


DATA = ("take", "card", "cards", "ability", "target", "blocks")  # what a scripted choice may give
UNSCRIPTED = "unscripted"  # a player action with options and no choice: a decision once its options are known


class Taken:
    """A scripted choice as the run takes it: reads through to the choice, noting which of its data
    the run read (``unused_choice_data``)."""

    __slots__ = ("choice", "read")

    def __init__(self, choice):
        self.choice, self.read = choice, set()

    def __getattr__(self, name):
        self.read.add(name)
        return getattr(self.choice, name)


class Flow:
    """Decisions and the node kinds with one (a part of ``Machine``)."""

    # --- decisions --------------------------------------------------------------------------------
    # the run's scripted choices (set by the scenario's setup code, ``template``): ``choices``, node ->
    # the choices keyed to it, a deque taken in order (``None``: the choices answering decisions in
    # order); ``by_timing``: some are keyed by a phase or step; ``used_choices``: the ids of those taken;
    # ``all_choices``: the scenario's; ``taken``: each choice taken, with which of its data the run read (a
    # ``Taken`` watching the reads, or ``(choice, read)`` where the fast tier knows them when it takes it)

    def next_choice(self, node_id, decision: bool = False, forced: bool = False):
        """The next choice scripted for the node; for a player decision (an option, yes/no, priority in
        a window, which pending ability first) with none keyed to the node, the next unkeyed choice.
        A forced move (``forced``: the only pending ability, nothing to pay) takes only a choice keyed
        to the node, never one keyed to its step or phase, which waits for a decision made there."""
        lst = self.choices.get(node_id)
        if not lst and not decision and not self.by_timing:
            return None
        if not lst and not forced and self.by_timing:
            for t in self.timings_of(node_id):
                lst = self.choices.get(t)
                if lst:
                    break
        if not lst and decision:
            lst = self.choices.get(None)
        while lst:
            ch = lst.popleft()
            if id(ch) not in self.used_choices:
                self.used_choices.add(id(ch))
                taken = Taken(ch)
                self.taken.append(taken)
                return taken
        return None

    def timings_of(self, node_id):
        """The step and the phase a decision at the node is made in, innermost first: the node's own,
        else (a node of a procedure) those of the calls being run, the innermost call first."""
        key = (node_id, tuple(self.frames))
        cache = self.prog.__dict__.setdefault("_timings", {})  # the same for every run of the game
        hit = cache.get(key)
        if hit is None:
            nodes = self.prog.game.nodes
            node = nodes.get(node_id)
            if node is None:
                return ()
            calls = [node] + [self.prog.nodes[f] for f in reversed(self.frames)]
            hit = cache[key] = tuple(t for n in calls for t in (n.step, n.phase) if t is not None)
        return hit

    def taken_choices(self):
        """Each choice taken, in order, with the keys its decision read of it. ``taken`` holds a
        ``Taken`` where the machine reads through it later, else the pair (choice, keys read)."""
        for t in self.taken:
            yield (t.choice, t.read) if type(t) is Taken else t

    def unused_choice_data(self) -> tuple:
        """(node id, location, keys) of each choice taken with data the decision never read: a card,
        cards, an ability, a target or an answer given at a node that has no use for it."""
        out = []
        for ch, read in self.taken_choices():
            unread = tuple(k for k in DATA if getattr(ch, k) not in (None, ()) and k not in read)
            if unread:
                out.append((ch.at, ch.loc, unread))
        return tuple(out)

    @property
    def chosen(self):
        """The card chosen at the last decision (a later action that reads it uses that choice's card)."""
        by = self._chosen_by
        if by is not None and self._chosen is not None:
            by.read.add("card")
        return self._chosen

    @chosen.setter
    def chosen(self, card) -> None:
        self._chosen, self._chosen_by = card, None

    def asked_at(self, ch, node):
        """Where a refusal points: the scripted choice that asked for what is refused (``ch``, else the
        one that chose the card at hand), else the node."""
        if ch is not None:
            return ch.loc
        by = self._chosen_by
        return by.choice.loc if by is not None and self._chosen is not None else node.loc

    def where(self, card) -> str:
        """Where a card is and its state, in the game's words (its zone's name)."""
        zone = self.prog.game.zones.get(card.zone) if card.zone else None
        return f"in {zone.name.en if zone is not None else 'no zone'}, {card.state or 'no state'}"

    def card_for(self, ch):
        """The card a scripted choice names, else the card chosen at the last decision."""
        return self.cards.get(ch.card) if ch is not None and ch.card else self.chosen

    def choice_at(self, node, decision: bool = False, forced: bool = False):
        """The scripted choice for this visit of the node: at a player node, the one its decision
        took (so the node's own action uses it); elsewhere, the next one scripted for the node."""
        if node is None:
            return None
        if self.player_choice is not None and self.player_choice_node == node.id and node.kind == "player":
            return self.player_choice
        return self.next_choice(node.id, decision, forced)

    def decide(self, node, actor):
        if not node.choices and not node.may:
            # a player action with only 'do': its action takes a choice only when it needs one
            # (a discard when the hand is over the limit), so a repeated visit does not use it up
            self.player_choice_node, self.player_choice = node.id, None
            return None, None
        ch = self.next_choice(node.id, decision=True)
        self.player_choice_node, self.player_choice = node.id, ch
        if ch is not None:
            return ch, "scenario"
        if node.choices:  # options: a decision only if more than one is available (``unscripted``)
            return None, UNSCRIPTED
        return None, self.unscripted(node, actor)

    def unscripted(self, node, actor) -> str:
        """A decision no choice answers: an error with --strict, else the policy's (counted)."""
        if self.strict:
            raise SimulationError("R501", f"unscripted decision at '{node.id}' ({node.label.en}) for {self.who(actor)}",
                                  node.loc, help=f"add a choice: {{at: {node.id}, take: ...}}")
        self.policy_decisions += 1
        return f"policy:{self.policy}"

    def closed_play(self, ni: int) -> None:
        """A play scripted where no one may play (a closed timing, an automatic action, a trigger point):
        refused (R503) at the choice, when the run comes there."""
        node = self.prog.nodes[ni]
        ch = next((c for c in self.choices.get(node.id, ()) if c.take == "play" and id(c) not in self.used_choices), None)
        if ch is not None:
            self.used_choices.add(id(ch))
            what = "a closed timing: no one may play" if node.kind == "closed" else f"a {node.kind} node, not a priority window"
            raise SimulationError("R503", f"cannot play at '{node.id}' ({node.label.en}): it is {what}", ch.loc)

    def why_not(self, node, option_id) -> str | None:
        """Why an option is not available: the condition it needs, which does not hold now."""
        opt = next((c for c in node.choices if c.id == option_id), None)
        if opt is None or opt.when is None:
            return None
        return f"'{option_id}' needs {cond_text(opt.when)}, which does not hold now"

    def policy_pick(self, available):
        if self.policy == "first":
            return available[0]
        if self.policy == "random":
            return self.rng.choice(available)
        return available[-1]

    # --- node kinds -------------------------------------------------------------------------------
    def player(self, ni: int) -> int:
        """A player action: the decision, the action, the entry; the index of the option taken (-1: none)."""
        prog = self.prog
        node = prog.nodes[ni]
        self.at = self.node = ni
        if ni in prog.refused:
            raise prog.refused[ni]
        actor = self.seat[prog.actor_seat[ni]]
        act = prog.actions.get(ni)
        ch, by = self.decide(node, actor)
        out = self.out
        if node.choices or node.may:  # a decision: what it chose (a do-only action keeps the earlier choice)
            card = ch.choice.card if ch is not None else None  # kept for a later action: read only if it uses it
            self._chosen, self._chosen_by = (self.cards.get(card) if card else None), ch
        if node.choices:
            did = act(self) if act is not None else None  # e.g. choose the attacker first
            conds = prog.option_when[ni]
            available = [k for k, c in enumerate(node.choices) if conds[k] is None or conds[k](self)]
            if not available:
                raise SimulationError("R503", f"no option of '{node.id}' is available", node.loc)
            if ch is not None and ch.take is not None:
                k = next((k for k in available if node.choices[k].id == ch.take), None)
                if k is None:
                    raise SimulationError("R503", f"option '{ch.take}' of '{node.id}' is not available now "
                                          f"(available: {', '.join(node.choices[k].id for k in available)})", ch.loc,
                                          help=self.why_not(node, ch.take))
            else:
                if by is UNSCRIPTED:  # a single available option is forced: no decision, no policy
                    by = self.unscripted(node, actor) if len(available) > 1 else None
                j = None if self.explorer is None or by is None else \
                    self.explorer.pick(self, node.id, tuple(("take", node.choices[k].id) for k in available))
                k = self.policy_pick(available) if j is None else available[j]
            pick = node.choices[k].id
            self.decisions[node.id] = pick
            if out is not None:
                out((ni, ("choose", pick, did), actor, by))
            return k
        if node.may:
            j = None if ch is not None or self.explorer is None else \
                self.explorer.pick(self, node.id, (("take", "yes"), ("take", "no")))
            yes = (ch.take != "no") if ch is not None else self.policy != "pass" if j is None else j == 0
            self.decisions[node.id] = "yes" if yes else "no"
            if yes:
                did = act(self) if act is not None else LABEL
                if out is not None:
                    out((ni, ("does", did), actor, by))
            elif out is not None:
                out((ni, ("declines",), actor, by))
            return -1
        did = act(self) if act is not None else LABEL
        if out is not None:
            out((ni, did, actor, by if ch is not None or node.action else None))
        return -1

    def foreach(self, ni: int) -> bool:
        """The next item of a for-each (True), or every item done (False)."""
        node = self.prog.nodes[ni]
        self.node = ni
        items = self.prog.game.lists[node.over]
        i = self.loops.get(node.id, 0)
        if i < len(items):
            self.loops[node.id] = i + 1
            self.vars[node.var] = items[i].id
            if self.out is not None:
                self.out((ni, ("item", node.over, items[i].id, i + 1, len(items))))
            return True
        self.loops.pop(node.id, None)
        self.vars.pop(node.var, None)
        if self.out is not None:
            self.out((ni, ("items_done",)))
        return False

    def reset_loops(self, ids) -> None:
        """Entering a container afresh (or leaving loops by an exit): its for-each loops start over."""
        for nid in ids:
            self.loops.pop(nid, None)

    def end_game(self, ni: int):
        node = self.prog.nodes[ni]
        if node.result == "draw":
            self.result = "draw"
            self.losers = list(self.players)
        else:
            pids = [self.seat[i] for i in self.prog.cx.seats(node.player)]
            self.result = "lose"
            self.losers = pids if node.result == "lose" else [self.other(p) for p in pids] if len(self.players) == 2 \
                else [p for p in self.players if p not in pids]  # a win: every other player loses
        if self.out is not None:
            self.out((ni, ("end_game", self.result, tuple(self.losers))))
        raise GameOver

    def value_of(self, v) -> int:
        if isinstance(v, int):
            return v
        if isinstance(v, str) and v in self.prog.game.constants:
            return self.prog.cx.int(v)
        if isinstance(v, str) and self.attack is not None:
            return max(0, self.attack.attacker.stat(v))
        return 0

    def jumped_out(self, ni: int, target: int):
        node = self.prog.nodes[ni]
        raise SimulationError("R503", f"the procedure called at '{node.id}' jumps out of itself "
                              f"(to '{self.prog.ids[target]}')", node.loc)

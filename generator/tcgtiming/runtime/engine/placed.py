"""The work of common nodes written in place in the fast tier's code (a part of ``codegen.Fast``),
each where nothing else needs to see it happen:

- a card move or a draw from the top of a zone: list slices on the players' zone lists, the card's
  zone, its values reset, the ``move`` facts, when no card event (entered, left the stage) listens
  and the game has no interrupt-type rule; onto the stage, each card to its slot (its own if free,
  else the first free, the stage kept in slot order); off a zone that keeps states, its state cleared
  (as ``Machine.move_card`` does);
- resolving the only pending ability of a player, with no cost and no choice scripted for the node
  (the queue's head moved on as ``Queue.pop(0)`` does);
- rule processing's first scan (no rule applies: nothing to do, no call);
- a player action: with options, when its next scripted choice is keyed to it, names no card and
  takes an available option (every option's condition tested, in order, as the machine does); yes
  or no, when a choice keyed to it answers; only something to do, always.

Each returns the node's lines, or None when the node's compiled closure must run."""
from __future__ import annotations

from operator import attrgetter

from .abilities import ABILITY_ACTIONS, NOTHING_TO_DO
from .cards import CARD_ACTIONS, LABEL
from .state import SimulationError


def _registered(prog, name: str, table: dict) -> bool:
    """The action the node names is the engine's own (a program may be compiled with other actions)."""
    return name in table and prog.action_table.get(name) is table[name]


class Placed:
    # --- actions -------------------------------------------------------------------------------------
    def action(self, ni: int, n) -> list[str] | None:
        a, prog = n.action, self.prog
        cx = prog.cx
        try:
            if a.name == "move" and _registered(prog, "move", CARD_ACTIONS) and a.arg("which", "top") == "top":
                count = a.arg("count")
                n_ = cx.int(count) if count is not None else 99
                return self.moved(cx.seat(a.arg("player")), a.arg("from"), a.arg("to"), n_, "move")
            if a.name == "draw" and _registered(prog, "draw", CARD_ACTIONS):
                return self.moved(cx.seat(a.arg("player")), cx.zone("deck"), cx.zone("hand"), cx.int(a.arg("count")),
                                  "draw")
            if a.name == "resolve_pending" and _registered(prog, "resolve_pending", ABILITY_ACTIONS):
                return self.resolve_one(ni, n, cx.seat(a.arg("player")))
            if (a.name == "rule_processing" and _registered(prog, "rule_processing", ABILITY_ACTIONS)
                    and not prog.interrupt_rules):
                # no rule applies now (the first scan finds none): nothing to do, without the call
                scan, act = self.const("RS", prog.check_scan[0]), self.const("A", prog.actions[ni])
                if self.traced:
                    return [f"ev = {act}(st) if {scan}(st, 0) >= 0 else {self.const('E', NOTHING_TO_DO)}"]
                return [f"if {scan}(st, 0) >= 0: {act}(st)"]
        except (SimulationError, KeyError, TypeError, ValueError):
            return None  # the closure reports it, as it does on the closure tier
        return None

    def moved(self, seat: int, frm: str, to: str, count: int, what: str) -> list[str] | None:
        """Cards from the top of a zone to another zone (``ev``: the event of a move or a draw)."""
        zones = self.game.zones
        if frm not in zones or to not in zones or seat is None:
            return None
        if what == "draw" and self.prog.interrupt_rules:
            return None  # an empty deck asks the interrupt-type rules first
        T = self.traced
        lines = [f"p = st.seat[{seat}]", "Z = st.zones[p]", f"S = Z[{frm!r}]", f"cs = S[:{count}]"]
        if self.plain_moves and frm != to:  # what ``move_card`` does, nothing listening
            lines += ["if cs:", "    del S[:len(cs)]"]
            if to == self.stage:  # each card to its slot (its own if free, else the first free), in slot order
                lines += [f"    D = Z[{to!r}]", "    for c in cs:", "        tk = {x.slot for x in D}", "        sl = c.slot",
                          "        if sl is None or sl in tk:", "            sl = 0", "            while sl in tk:",
                          "                sl += 1", "            c.slot = sl", "        D.append(c)",
                          f"        if len(D) > 1 and D[-2].slot > sl: D.sort(key={self.const('SLOT', attrgetter('slot'))})"]
            else:
                lines += [f"    Z[{to!r}].extend(cs)", "    for c in cs:"]
            lines.append(f"        c.zone = {to!r}")
            if T:
                lines.append(f"        o(('move', c.id, {frm!r}, {to!r}))")
            if to != self.stage:
                lines += ["        c.mods = ()", "        c.damage = 0"]
            if frm in self.prog.stateful:  # a card off a zone that keeps states has none
                lines += ["        if c.state is not None:"] + (["            o(('state', c.id, c.state, None))"] if T else [])
                lines.append("            c.state = None")
        else:
            lines += ["for c in cs:", f"    st.move_card(c, {to!r})"]
        if not T:  # the event is only recorded
            return lines
        ids = "(cs[0].id,)" if count == 1 else "tuple([c.id for c in cs])"  # one card: no comprehension to run
        if what == "draw":
            lines.append(f"ev = ('draw', p, {ids if count != 1 else '(cs[0].id,) if cs else ()'})")
        else:
            lines += [f"ev = ('move', {ids}, {frm!r}, {to!r}) if cs else {self.const('E', ('nothing_to_move', frm))}"]
        return lines

    def resolve_one(self, ni: int, n, seat: int) -> list[str]:
        """The only pending ability, without a cost, no choice scripted for the node: resolved in place;
        anything else: the closure."""
        a = self.const("A", self.prog.actions[ni])
        chosen = f" and not st.choices.get({n.id!r})" if n.id in self.scripted else ""
        # the queue's only item taken (``Queue.pop(0)``: the head moves on; a long dead head is cut off)
        head = [f"p = st.seat[{seat}]", "q = st.pending[p]",
                f"if q.n == 1 and not (x := q.log[q.head]).ability.cost{chosen}:", "    q.n = 0",
                "    h = q.head = q.head + 1", "    if h > 64 and h * 2 > len(q.log): q.log, q.head = q.log[h:], 0"]
        if not self.traced:
            return head + ["    ab = x.ability", "    if ab.effect: st.resolve_effects(ab, x.card, x.controller, None, None)",
                           "elif q.n:", f"    {a}(st)"]
        return head + ["    st.context()", "    ab = x.ability",
                       "    ev = ('resolve', p, x.card.id, ab.id, st.resolve_effects(ab, x.card, x.controller, None, None) "
                       "if ab.effect else ())",
                       "elif not q.n:", f"    ev = {self.const('E', ('no_pending',))}",
                       "else:", f"    ev = {a}(st)"]

    # --- player actions ------------------------------------------------------------------------------
    def player(self, ni: int, n) -> list[str] | None:
        """A player action: with options, answered by the next choice scripted for it (an available
        option, no card); yes or no, answered by one; or only something to do: the decision in place.
        Anything else (no choice keyed to the node, a card named, an option not available): the
        machine's ``player``, before anything has changed."""
        if ni in self.prog.refused:  # its actor is ambiguous: the machine refuses it (R509)
            return None
        if n.choices:
            return self.options(ni, n) if n.action is None else None
        T, prog = self.traced, self.prog
        act = prog.actions.get(ni)
        did = f"{self.const('A', act)}(st)" if act is not None else self.const("E", LABEL)
        actor = f"st.seat[{prog.actor_seat[ni]}]"
        head = [f"st.at = st.node = {ni}"] + ([f"a = {actor}"] if T else [])
        if not n.may:  # only something to do: no decision (its action takes a choice when it needs one)
            lines = head + [f"st.player_choice_node, st.player_choice = {n.id!r}, None"]
            return lines + ([f"o(({ni}, {did}, a, None))"] if T else [f"{did}" if act is not None else "pass"])
        lines = [f"lst = st.choices.get({n.id!r})", f"if {self.untaken('lst[0]')}:"]
        lines += ["    " + x for x in head + self.taken(n)]
        lines += ["    c = ch.card", "    st._chosen, st._chosen_by = (st.cards.get(c) if c else None), t",
                  "    if ch.take != 'no':", f"        st.decisions[{n.id!r}] = 'yes'"]
        lines += [f"        o(({ni}, ('does', {did}), a, 'scenario'))" if T else
                  (f"        {did}" if act is not None else "        pass")]
        lines += ["    else:", f"        st.decisions[{n.id!r}] = 'no'"]
        if T:
            lines.append(f"        o(({ni}, {self.const('E', ('declines',))}, a, 'scenario'))")
        return lines + ["else:", f"    st.player({ni})"]

    def untaken(self, head: str) -> str:
        """The test that the list ``lst`` has a next choice not taken yet (``head``: its first item). Each
        choice taken comes off its list: one taken already may be there only when a choice is listed
        twice (``distinct`` False)."""
        if self.distinct:
            return "lst" if head == "lst[0]" else f"lst and {head}"
        return f"lst and id({head}) not in st.used_choices"

    def taken(self, n, pop: str = "ch = lst.popleft()") -> list[str]:
        """The next choice keyed to the node, taken (``ch``; ``t`` watches which of its data is read,
        its answer read already)."""
        # a Taken made without running its __init__ (its two slots set here)
        return [pop, "st.used_choices.add(id(ch))", "t = NEW(Taken)", "t.choice = ch", "t.read = {'take'}", "st.taken.append(t)",
                f"st.player_choice_node, st.player_choice = {n.id!r}, t"]

    def options(self, ni: int, n) -> list[str]:
        tests, closures = [], False
        for k, c in enumerate(n.choices):  # every option's condition, in order, as the machine tests them
            if c.when is None:
                tests.append("True")
                continue
            src = self.prog.source_of(c.when)
            if src is None:
                src, closures = f"{self.const('C', self.prog.option_when[ni][k])}(st)", True
            tests.append(src)
        take = self.const("K", {c.id: k for k, c in enumerate(n.choices)})
        jump_lines = []
        for i, c in enumerate(n.choices):
            head = "if k == 0:" if i == 0 else ("else:" if i == len(n.choices) - 1 else f"elif k == {i}:")
            jump_lines += [head] + ["    " + x for x in self.jump_lines(c.entry)]
        avail = f"({', '.join(tests)},)[k]" if any(t != "True" for t in tests) else None  # the option must be available
        if avail is not None and closures:  # a compiled test may read the chosen card: none is chosen (the choice names none)
            lines = [f"lst = st.choices.get({n.id!r})", "k = -1", f"if {self.untaken('lst[0]')}:",
                     "    ch = lst[0]", f"    k = -1 if ch.card else {take}.get(ch.take, -1)", "    st._chosen = None",
                     f"    if k >= 0 and not {avail}:", "        k = -1", "if k < 0:"]
        else:  # the next choice keyed to the node, naming an option and no card
            lines = [f"lst = st.choices.get({n.id!r})",
                     f"if not ({self.untaken('(ch := lst[0])')} and not ch.card and "
                     f"(k := {take}.get(ch.take, -1)) >= 0{f' and {avail}' if avail else ''}):"]
        lines += [f"    k = st.player({ni})", "else:"]
        lines += ["    " + x for x in [f"st.at = st.node = {ni}"] + self.taken(n, "lst.popleft()")]
        lines += ["    st._chosen, st._chosen_by = None, t", f"    st.decisions[{n.id!r}] = ch.take"]
        if self.traced:
            lines.append(f"    o(({ni}, ('choose', ch.take, None), st.seat[{self.prog.actor_seat[ni]}], 'scenario'))")
        return lines + jump_lines

    def jump_lines(self, x):
        return self.jump(self._b, x)

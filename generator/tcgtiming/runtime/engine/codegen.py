"""The fast tier of the program's code: the graph's code (``source``) with the work of the common
nodes written in place as well, generated once per game and per set of events the scenario's cards
listen to (a Jinja-like compile: Python source, exec'd once, cached on the program).

What is written in place, each only where its conditions hold (otherwise the node's compiled
closure is called, as in ``source``, so every run records the same entries either way):

- a procedure that calls no other (the check timing): its code in place at each call, a loop on a
  block counter of its own, its first block before the loop;
- an event nothing listens to: nothing at all (no test at run time); an event one card listens to:
  its firing in place (``firers.in_place``: the listener's shape - every n-th, zone, condition - is
  part of the cache key); an event several cards listen to: the scenario's own firing function;
- rule processing, in a game without interrupt-type rules: the first scan in place, the closure
  called only when a rule applies;
- what a branch or loop tested (traced): the witnesses' values as expressions (``witness``), a case
  of one predicate not tested again;
- a card move or a draw from the top of a zone: list slices on the players' zone lists, the card's
  zone, its values reset, the ``move`` facts - when no card event (entered, left the stage) listens
  and the game has no interrupt-type rule; a move onto or off the stage calls ``move_card`` per card;
- resolving the only pending ability of a player, with no cost and no choice scripted for the node;
- a player action: with options, when its next scripted choice is keyed to it, names no card and
  takes an available option (every option's condition tested, in order, as the machine does); yes
  or no, when a choice keyed to it answers; only something to do, always;
- a priority window: its loop as a function of its own (``wingen``), one per shape of window.

Two variants per key, traced and untraced; the untraced one has no record at all. The key is the
scenario's (found once per scenario, kept on its ``Setup``). A function reads the seats, pending
queues and zones it uses more than once through local names (a run never replaces them). ``CLOSURES``
forces the closure tier (``source``): used by the test that compares the two tiers' records."""
from __future__ import annotations

import ast
import re

from . import firers as firing
from .abilities import ABILITY_ACTIONS, NOTHING_TO_DO
from .cards import CARD_ACTIONS, LABEL
from .flow import Taken
from .source import Gen
from .state import GameOver, SimulationError
from .wingen import window_functions, window_lines
from .witness import tested_source

CLOSURES = False  # True: every run uses the closure tier (the comparison test sets it)


def turn_for(prog, st, traced: bool):
    """The function that runs one turn of the machine's scenario (``F(st, None)``); sets the
    machine's firing functions. Called before the run; what it finds is the scenario's (cached on
    its ``Setup``)."""
    st.firers = firing.firers(prog, st)
    made = prog.setup(st.sc).__dict__.setdefault("_turns", {})
    fn = made.get(traced)
    if fn is None:
        fn = made[traced] = _turn(prog, st, traced)
    return fn


def _turn(prog, st, traced: bool):
    events = frozenset(st.listen)
    nodes = prog.game.nodes
    # the nodes where the scenario scripts a play that no one may make there (refused when the run comes)
    stray = frozenset(nid for nid, chs in st.choices.items() if nid in nodes
                      and nodes[nid].kind in ("auto", "closed", "trigger") and any(c.take == "play" for c in chs))
    # the automatic actions with a choice scripted (the others never find one: no test at run time)
    scripted = frozenset(nid for nid in st.choices if nid in nodes and nodes[nid].kind in ("auto", "closed"))
    shapes = firing.shapes(prog, st)
    cache = prog.__dict__.setdefault("_fast_turns", {})
    key = (traced, events, stray, scripted, shapes)
    fn = cache.get(key)
    if fn is None:
        gen = Fast(prog, traced, events, stray, scripted, shapes)
        src = gen.source()
        code = compile(src, f"<tcgtiming fast program of {prog.game.id}{' (traced)' if traced else ''}>", "exec")
        exec(code, gen.ns)
        fn = cache[key] = gen.ns[gen.fn["turn"]]
        prog.__dict__.setdefault("fast_sources", {})[key] = src
    return fn


def _registered(prog, name: str, table: dict) -> bool:
    """The action the node names is the engine's own (a program may be compiled with other actions)."""
    return name in table and prog.action_table.get(name) is table[name]


class Fast(Gen):
    def __init__(self, prog, traced: bool, events: frozenset, stray: frozenset = frozenset(),
                 scripted: frozenset = frozenset(), shapes: frozenset = frozenset()):
        self.events, self.stray, self.scripted = events, stray, scripted
        self.shapes = {s[0]: s for s in shapes}  # the events with one listener: their firing in place
        super().__init__(prog, traced)
        self.ns.update(Taken=Taken, GameOver=GameOver, **firing.names(prog))
        cx = prog.cx
        self.stage = cx.zone_or_none("stage")
        # a card moved in place: nothing listens to a card's move, no interrupt-type rule reads it
        self.plain_moves = not ({"entered", "left_stage"} & events) and not prog.interrupt_rules

    def source(self) -> str:
        src = super().source()
        return src + window_functions(self)  # the windows' loops (``wingen``), each written once

    def function(self, cid: str) -> list[str]:
        lines = super().function(cid)
        body = [x for x in lines[1:] if x.strip() != "L = st.listen"]
        if any(re.search(r"\bL\b", x) for x in body):  # code of ``source`` that reads the listener index
            return lines
        # read once per call of the function: the procedure frames, each firing function it calls
        head, fired = [lines[0]], {}
        for ev in sorted(set(re.findall(r"FI\[('[^']*'|\"[^\"]*\")\]", "\n".join(body)))):
            if ast.literal_eval(ev) in self.shapes:
                continue  # written in place
            fired[ev] = f"X{len(fired)}"
            head.append(f"    {fired[ev]} = st.firers[{ev}]")
        if any("st.frames." in x for x in body):
            head.append("    FR = st.frames")
        out = []
        for x in body:
            ev = re.fullmatch(r"( *)FI\[('[^']*'|\"[^\"]*\")\]\(st, None\)", x)
            if ev and ast.literal_eval(ev.group(2)) in self.shapes:  # the firing in place
                out += [ev.group(1) + y for y in firing.in_place(self.shapes[ast.literal_eval(ev.group(2))], self.traced)]
                continue
            x = x.replace("st.frames.append(", "FR.append(").replace("st.frames.pop()", "FR.pop()")
            for ev, name in fired.items():
                x = x.replace(f"FI[{ev}]", name)
            out.append(x)
        # the run state's containers that a run never replaces, read often: local names
        for attr, name in (("seat", "SE"), ("pending", "PE"), ("zones", "ZO")):
            if sum(x.count(f"st.{attr}[") for x in out) > 1:
                head.append(f"    {name} = st.{attr}")
                out = [x.replace(f"st.{attr}[", f"{name}[") for x in out]
        return head + out

    def node(self, b: int, nid: str) -> list[str]:
        prog = self.prog
        ni = prog.index[nid]
        n = self.game.nodes[nid]
        k = n.kind
        # a play scripted where no one may play is refused when the run comes there (as on the closure tier)
        refuse = [f"st.closed_play({ni})"] if nid in self.stray else []
        if k == "trigger":
            return refuse + self.trigger(ni, n)
        if k in ("check", "call"):
            callee = self.game.nodes[self.succ(nid, "call")].container
            body = self.inline(ni, callee)
            out, lines = [], super().node(b, nid)
            call = f"r = {self.fn[callee]}(st, None)"
            while lines:
                line = lines.pop(0)
                if line == "if 'check_timing' in L: st.fire('check_timing')":
                    if "check_timing" in self.events:
                        out.append("FI['check_timing'](st, None)")
                elif line == call and body is not None:  # the procedure in place: no call, no jump out to test
                    out += body
                elif line == "if r is not None:" and body is not None:
                    lines.pop(0)
                else:
                    out.append(line)
            return out
        if k in ("auto", "closed") and n.action is not None and getattr(prog.actions.get(ni), "const", None) is None:
            body = self.action(ni, n)
            if body is not None:
                return refuse + self.wrap(ni, k, body)
        if k == "player":
            fast = self.player(ni, n)
            if fast is not None:
                return fast
        if k == "window":  # the window's loop in place (``wingen``)
            fast = window_lines(self, ni, n)
            if fast is not None:
                return fast
        refusal = f"if st.choices.get({nid!r}): st.closed_play({ni})"
        return [x for x in super().node(b, nid) if x != refusal or nid in self.stray]

    def inline(self, ni: int, cid: str) -> list[str] | None:
        """A called procedure written in place (a loop on its own block counter) when it calls no
        other procedure and has no child containers; else None (it is called)."""
        g = self.game
        if self.inlined is not None or any(isinstance(u, tuple) or g.nodes[u].kind in ("check", "call")
                                           for u in self.units[cid]):
            return None
        saved = (self.cid, self.block_of, self.block_first, getattr(self, "_b", 0), self.pcv, self.inlined)
        self.pcv, self.inlined = "pc1", ni
        try:
            blocks = self.blocks_of(cid)
            body: list[str] = []
            for b, us in enumerate(blocks):
                body += self.block(b, us, len(blocks))
        finally:
            self.cid, self.block_of, self.block_first, self._b, self.pcv, self.inlined = saved
        if blocks and self._first(blocks[0][0]) not in self.leaders:  # its first block runs once: before the loop
            first = body.index("if pc1 == 1:") if len(blocks) > 1 else len(body)
            head, body = [x[4:] for x in body[1:first]], body[first:]
            if not body:
                return [x for x in head if x != "break"]
            return head + ["while True:"] + ["    " + x for x in body] + ["    raise AssertionError(pc1)"]
        return ["pc1 = 0", "while True:"] + ["    " + x for x in body] + ["    raise AssertionError(pc1)"]

    def tested(self, ni: int, node, k: int | None = None) -> str:
        """What a branch or loop tested, written in place (the witnesses' values as expressions)."""
        return tested_source(self.prog, node, k, self.const)

    def wrap(self, ni: int, kind: str, body: list[str]) -> list[str]:
        """An action's code (which leaves its event in ``ev``) and the node's entry."""
        if not self.traced:
            return body
        ev = "('closed', ev)" if kind == "closed" else "ev"
        actor = f", st.seat[{self.prog.actor_seat[ni]}]" if ni in self.prog.actor_seat else ""
        return [f"st.at = {ni}"] + body + [f"o(({ni}, {ev}{actor}))"]

    def trigger(self, ni: int, n) -> list[str]:
        """A trigger point: nothing when no ability listens to its event."""
        T = self.traced
        if n.event in self.events:
            if T:  # the entry names the abilities made pending: the machine's own trigger
                return [f"st.at = {ni}", f"o(({ni}, st.trigger({n.event!r})))"]
            return [f"FI[{n.event!r}](st, None)"]
        if T:
            return [f"st.at = {ni}", f"o(({ni}, {self.const('E', ('trigger', n.event, ()))}))"]
        return []

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
        if self.plain_moves and self.stage not in (frm, to) and frm not in self.prog.stateful:
            lines += ["if cs:", "    del S[:len(cs)]", f"    Z[{to!r}].extend(cs)", "    for c in cs:",
                      f"        c.zone = {to!r}"]
            if T:
                lines.append(f"        o(('move', c.id, {frm!r}, {to!r}))")
            lines += ["        c.mods = []", "        c.damage = 0"]
        else:
            lines += ["for c in cs:", f"    st.move_card(c, {to!r})"]
        if not T:  # the event is only recorded
            return lines
        if what == "draw":
            lines.append("ev = ('draw', p, tuple([c.id for c in cs]))")
        else:
            lines += [f"ev = ('move', tuple([c.id for c in cs]), {frm!r}, {to!r}) if cs else "
                      f"{self.const('E', ('nothing_to_move', frm))}"]
        return lines

    def resolve_one(self, ni: int, n, seat: int) -> list[str]:
        """The only pending ability, without a cost, no choice scripted for the node: resolved in place;
        anything else: the closure."""
        a = self.const("A", self.prog.actions[ni])
        chosen = f" and not st.choices.get({n.id!r})" if n.id in self.scripted else ""
        head = [f"p = st.seat[{seat}]", "q = st.pending[p]",
                f"if q.n == 1 and not q.log[q.head].ability.cost{chosen}:"]
        if not self.traced:
            return head + ["    x = q.pop(0)", "    ab = x.ability",
                           "    if ab.effect: st.resolve_effects(ab, x.card, x.controller, None, None)",
                           "elif q.n:", f"    {a}(st)"]
        return head + ["    x = q.pop(0)", "    st.context()", "    ab = x.ability",
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
        lines = [f"lst = st.choices.get({n.id!r})", "if lst and id(lst[0]) not in st.used_choices:"]
        lines += ["    " + x for x in head + self.taken(n)]
        lines += ["    c = ch.card", "    st._chosen, st._chosen_by = (st.cards.get(c) if c else None), t",
                  "    t.read.add('take')", "    if ch.take != 'no':", f"        st.decisions[{n.id!r}] = 'yes'"]
        lines += [f"        o(({ni}, ('does', {did}), a, 'scenario'))" if T else
                  (f"        {did}" if act is not None else "        pass")]
        lines += ["    else:", f"        st.decisions[{n.id!r}] = 'no'"]
        if T:
            lines.append(f"        o(({ni}, {self.const('E', ('declines',))}, a, 'scenario'))")
        return lines + ["else:", f"    st.player({ni})"]

    def taken(self, n) -> list[str]:
        """The next choice keyed to the node, taken (``ch``; ``t`` watches which of its data is read)."""
        return ["ch = lst.popleft()", "st.used_choices.add(id(ch))", "t = Taken(ch)", "st.taken.append(t)",
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
        lines = [f"lst = st.choices.get({n.id!r})", "k = -1",
                 "if lst and id(lst[0]) not in st.used_choices:", "    ch = lst[0]",
                 f"    k = {take}.get(ch.take, -1) if ch.take is not None and not ch.card else -1"]
        if any(t != "True" for t in tests):  # the option taken must be available (else the machine says why)
            if closures:  # a compiled test may read the chosen card: none is chosen (the choice names none)
                lines.append("    st._chosen = None")
            lines += [f"    if k >= 0 and not ({', '.join(tests)},)[k]:", "        k = -1"]
        lines += ["if k < 0:", f"    k = st.player({ni})", "else:"]
        lines += ["    " + x for x in [f"st.at = st.node = {ni}"] + self.taken(n)]
        lines += ["    t.read.add('take')", "    st._chosen, st._chosen_by = None, t", f"    st.decisions[{n.id!r}] = ch.take"]
        if self.traced:
            lines.append(f"    o(({ni}, ('choose', ch.take, None), st.seat[{self.prog.actor_seat[ni]}], 'scenario'))")
        return lines + jump_lines

    def jump_lines(self, x):
        return self.jump(self._b, x)

    def block(self, b: int, us: list, nblocks: int) -> list[str]:
        self._b = b  # the block being written (a player action's jumps are relative to it)
        return super().block(b, us, nblocks)

"""The fast tier of the program's code: the graph's code (``source``) with the work of the common
nodes written in place as well, generated once per game and per set of events the scenario's cards
listen to (a Jinja-like compile: Python source, exec'd once, cached on the program).

What is written in place, each only where its conditions hold (otherwise the node's compiled
closure is called, as in ``source``, so every run records the same entries either way):

- the blocks of each function laid out as straight code (``layout``): a block one jump reaches is
  written at that jump, the block counter stays only for blocks several jumps reach; a block that
  only reads hands its steps to the blocks it jumps to (one budget test where there were two);
- a child container entered only at its begin: called with no entry node, and what it returns
  looked up only when a jump may leave it;
- a procedure that calls no other (the check timing): its code in place at each call; its frame
  pushed only around code that calls out (``calls_out``);
- an event nothing listens to: nothing at all (no test at run time); an event one card listens to:
  its firing in place (``firers.in_place``: the listener's shape - every n-th, zone, condition - is
  part of the cache key); an event several cards listen to: the scenario's own firing function;
- rule processing, in a game without interrupt-type rules: the first scan in place, the closure
  called only when a rule applies;
- what a branch or loop tested (traced): the witnesses' values as expressions (``witness``), a case
  of one predicate not tested again; an event of ids and numbers as a literal (a record of
  constants is a constant of the code);
- card moves, draws, the only pending ability, a player action answered by its scripted choice:
  ``placed``;
- a priority window: its loop as a function of its own (``wingen``), one per shape of window;
- a scripted choice: taken off its list, without the test that it was taken already when no choice
  is listed twice (``distinct``: each choice taken comes off its list).

Two variants per key, traced and untraced; the untraced one has no record at all. The key is the
scenario's (found once per scenario, kept on its ``Setup``). A function reads the seats, pending
queues (the turn player's and the next's), event counts and zones it uses more than once through
local names (a run never replaces them; seats change between turns only). ``CLOSURES`` forces the
closure tier (``source``): used by the test that compares the two tiers' records."""
from __future__ import annotations

import ast
import re

from . import firers as firing
from . import layout
from .flow import Taken
from .placed import Placed
from .source import Gen
from .state import GameOver
from .wingen import window_functions, window_lines
from .witness import tested_source

CALL_OUT = re.compile(r"\b(st(?:\.\w+)+|[A-Z]+\d+|FI\[[^\]]*\])\(")  # a call in a line of code
QUIET = {"st.out_of_steps", "st.context"}  # calls that read no frame
CLOSURES = False  # True: every run uses the closure tier (the comparison test sets it)


def turn_for(prog, st, traced: bool):
    """The function that runs one turn of the machine's scenario (``F(st, None)``). Called before the
    run; what it finds is the scenario's (cached on its ``Setup``, which the run's start code read the
    firing functions from)."""
    turns = st.setup.turns
    fn = turns[traced]
    if fn is None:
        fn = turns[traced] = _turn(prog, st, traced)
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
    # no choice listed twice: the next choice of a list was never taken before (a run takes each one
    # off its list; only a choice listed again would come up taken already)
    distinct = len({id(ch) for ch in st.all_choices}) == len(st.all_choices)
    cache = prog.__dict__.setdefault("_fast_turns", {})
    key = (traced, events, stray, scripted, shapes, distinct)
    fn = cache.get(key)
    if fn is None:
        gen = Fast(prog, traced, events, stray, scripted, shapes, distinct)
        src = gen.source()
        code = compile(src, f"<tcgtiming fast program of {prog.game.id}{' (traced)' if traced else ''}>", "exec")
        exec(code, gen.ns)
        fn = cache[key] = gen.ns[gen.fn["turn"]]
        prog.__dict__.setdefault("fast_sources", {})[key] = src
    return fn


def literal(value) -> bool:
    """A value Python writes and reads back as itself (numbers, None, tuples of them, strings of word
    characters: an id, never text from a file that the code's later rewriting could touch)."""
    if isinstance(value, tuple):
        return all(literal(v) for v in value)
    return value is None or type(value) in (int, bool) or (type(value) is str and re.fullmatch(r"[\w-]*", value) is not None)


class Fast(Placed, Gen):
    def __init__(self, prog, traced: bool, events: frozenset, stray: frozenset = frozenset(),
                 scripted: frozenset = frozenset(), shapes: frozenset = frozenset(), distinct: bool = False):
        self.events, self.stray, self.scripted, self.distinct = events, stray, scripted, distinct
        self.shapes = {s[0]: s for s in shapes}  # the events with one listener: their firing in place
        super().__init__(prog, traced)
        self.ns.update(Taken=Taken, NEW=object.__new__, GameOver=GameOver, **firing.names(prog))
        cx = prog.cx
        self.stage = cx.zone_or_none("stage")
        # a card moved in place: nothing listens to a card's move, no interrupt-type rule reads it
        self.plain_moves = not ({"entered", "left_stage"} & events) and not prog.interrupt_rules
        g = self.game  # the nodes a jump from another container lands on (entered there, not by a marker)
        self.entered = {x for (cid, u), trs in self.transfers.items() for _, x in trs
                        if x is not None and not isinstance(u, tuple) and g.nodes[x].container != cid}
        self.static, self.escaping = self._children()

    def source(self) -> str:
        src = super().source()
        return src + window_functions(self)  # the windows' loops (``wingen``), each written once

    def function(self, cid: str) -> list[str]:
        lines = self.body(cid)
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
        if any("EC[" in x for x in out):
            head.append("    EC = st.event_counts")
        # the pending abilities of the turn player and the next: their queues (seats change between turns only)
        for i in (0, 1):
            if sum(x.count(f"PE[SE[{i}]]") for x in out) > 1:
                head.append(f"    Q{i} = PE[SE[{i}]]")
                out = [x.replace(f"PE[SE[{i}]]", f"Q{i}") for x in out]
        return head + out

    def unit(self, b: int, nid: str) -> list[str]:
        prog = self.prog
        ni = prog.index[nid]
        n = self.game.nodes[nid]
        k = n.kind
        # a play scripted where no one may play is refused when the run comes there (as on the closure tier)
        refuse = [f"st.closed_play({ni})"] if nid in self.stray else []
        if k == "trigger":
            return refuse + self.trigger(ni, n)
        if k in ("check", "call"):
            return self.call(b, ni, nid)
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

    def call(self, b: int, ni: int, nid: str) -> list[str]:
        """A call of a procedure: written in place when it can be (``inline``). Its frame (the call
        being run, read by decisions, windows and conditions) is pushed only around code that calls
        out of the function: each such node of the procedure, the call's own work (the event it fires)."""
        callee = self.game.nodes[self.succ(nid, "call")].container
        self.frame_all = False
        body = self.inline(ni, callee)
        out, lines = [], super().node(b, nid)
        call = f"r = {self.fn[callee]}(st, None)"
        while lines:
            line = lines.pop(0)
            if line == "if 'check_timing' in L: st.fire('check_timing')":
                if "check_timing" in self.events:
                    out.append("FI['check_timing'](st, None)")
            elif line == call and body is not None:  # the procedure in place: no call, no jump out to test
                out.append(call)
            elif line == "if r is not None:" and body is not None:
                lines.pop(0)
            else:
                out.append(line)
        if body is None:
            return out
        push, pop = f"st.frames.append({ni})", "st.frames.pop()"
        at, end = out.index(call), out.index(pop)
        pre, post = out[1:at], out[end + 1:]
        if self.frame_all:  # a node that jumps calls out: the frame around the whole procedure
            return [push] + pre + [x for x in body if x.strip() not in (push, pop)] + [pop] + post
        return ([push] + pre + [pop] if self.calls_out(pre) else pre) + body + post

    def calls_out(self, lines: list[str]) -> bool:
        """Code that calls a function that may read the run's frames (not a firing in place without a
        condition, the budget's test, the trace's context)."""
        for x in lines:
            for m in CALL_OUT.finditer(x):
                name = m.group(1)
                ev = re.fullmatch(r"FI\[(.*)\]", name)
                if ev is not None and ast.literal_eval(ev.group(1)) in self.shapes:
                    if self.shapes[ast.literal_eval(ev.group(1))][4]:
                        return True  # its condition is tested
                elif name not in QUIET:
                    return True
        return False

    def node(self, b: int, nid: str) -> list[str]:
        lines = self.unit(b, nid)
        if self.inlined is None or not self.calls_out(lines):
            return lines
        if any(x.strip() in ("break", "return None", "continue") or layout.JUMP.fullmatch(x.strip()) for x in lines):
            self.frame_all = True  # it jumps: its frame is the whole procedure's
            return lines
        return [f"st.frames.append({self.inlined})"] + lines + ["st.frames.pop()"]

    def inline(self, ni: int, cid: str) -> list[str] | None:
        """A called procedure written in place (``layout.procedure``) when it calls no other
        procedure and has no child containers; else None (it is called)."""
        g = self.game
        if self.inlined is not None or any(isinstance(u, tuple) or g.nodes[u].kind in ("check", "call")
                                           for u in self.units[cid]):
            return None
        saved = (self.cid, self.block_of, self.block_first, getattr(self, "_b", 0), self.pcv, self.inlined)
        self.pcv, self.inlined = "pc1", ni
        try:
            blocks = self.blocks_of(cid)
            return layout.procedure([self.block(b, us, len(blocks)) for b, us in enumerate(blocks)], "pc1")
        finally:
            self.cid, self.block_of, self.block_first, self._b, self.pcv, self.inlined = saved

    def _inside(self, container: str, c: str) -> bool:
        while container is not None and container != c:
            container = self.game.containers[container].parent
        return container == c

    def _children(self) -> tuple[set, set]:
        """The child containers entered only at their begin, from the unit before them (``static``: their
        block is written at that unit's jump, called with no entry node); the containers a jump leaves
        (``escaping``: their function may return the node it jumps to)."""
        g, static, escaping = self.game, set(), set()
        for ch, c in g.containers.items():
            if c.parent is None:
                continue
            units = self.units[c.parent]
            before = units[units.index(("child", ch)) - 1] if ("child", ch) in units else None
            ok = before is not None
            for (cid, u), trs in self.transfers.items():
                inner = self._inside(cid, ch)
                for kind, x in trs:
                    if x is None:
                        continue
                    lands = self._inside(g.nodes[x].container, ch)
                    if inner and not lands:
                        escaping.add(ch)
                    if lands and not inner and not (cid == c.parent and u == before and kind == "fall" and x == c.begin):
                        ok = False
            if ok:
                static.add(ch)
        return static, escaping

    def child(self, ch: str) -> list[str]:
        """A child container entered only at its begin: called with no entry node; the node it returns
        (a jump out of it) looked up only when it may jump out."""
        if ch not in self.static:
            return super().child(ch)
        call = [f"{self.fn[ch]}(st, None)"]
        if ch in self.escaping:
            self.dynamic = True
            call = [f"r = {self.fn[ch]}(st, None)", "if r is not None:", f"    t = {self.dname}.get(r)", "    if t is None:",
                    "        return r", "    pc, e = t", "    continue"]
        c = self.game.containers[ch]
        if c.skip_if is None:
            return call
        out = [f"if {self.test(c.skip_if, self.prog.condition(c.skip_if))}:"]  # skipped when its condition holds
        out.append(f"    o(({self.prog.index[c.begin]}, {self.const('E', ('skipped',))}))" if self.traced else "    pass")
        return out + ["else:"] + ["    " + x for x in call]

    def body(self, cid: str) -> list[str]:
        """The container's function (``Gen.function``) with its blocks laid out (``layout``)."""
        prog, units = self.prog, self.units[cid]
        blocks = self.blocks_of(cid)
        d, fixed = {}, set()  # where a node of this container's subtree is entered: (block, entry node of the child)
        for u in units:
            if isinstance(u, tuple):
                c = self.game.containers[u[1]]
                if u[1] not in self.static:  # entered inside, or by a jump: behind the counter
                    fixed.add(self.block_of[u[1]])
                for nid in c.nodes:
                    if nid in self.leaders or nid == c.begin:
                        d[prog.index[nid]] = (self.block_of[u[1]], None if nid == c.begin else prog.index[nid])
            elif u in self.leaders or u == units[0]:
                d[prog.index[u]] = (self.block_of[u], None)
                if u in self.entered and self.block_of[u]:  # a jump from another container lands here
                    fixed.add(self.block_of[u])
        self.dname, self.dynamic = self.const("D", d), False
        lay = layout.Layout([self.block(b, us, len(blocks)) for b, us in enumerate(blocks)], "pc", fixed)
        body = lay.dispatch(lay.roots)
        head = [f"def {self.fn[cid]}(st, e):"] + (["    o = st.out"] if self.traced else []) + ["    L = st.listen"]
        if lay.roots == [0] and not fixed:  # one block behind the counter, entered at its head
            if not lay.looped and not self.dynamic:
                return head + ["    " + x for x in body] + [""]
            return head + ["    while True:"] + ["        " + x for x in body] + [""]
        head += ["    if e is None:", "        pc = 0", "    else:", f"        pc, e = {self.dname}[e]", "    while True:"]
        return head + ["        " + x for x in body] + [""]

    def const(self, prefix: str, value) -> str:
        """An event as a literal (a record of constants is one constant of the code: nothing to build)."""
        if prefix == "E" and literal(value):
            return repr(value)
        return super().const(prefix, value)

    def event(self, value: tuple, extra: str | None = None) -> str:
        if extra is None or not literal(value):
            return super().event(value, extra)
        return "(" + "".join(f"{v!r}, " for v in value) + f"{extra})"

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

    def block(self, b: int, us: list, nblocks: int) -> list[str]:
        """The block's lines (``layout``: not indented, its jumps in this container as markers)."""
        self._b = b  # the block being written (a player action's jumps are relative to it)
        lines = [x[4:] for x in super().block(b, us, nblocks)[1:]]
        if lines and lines[-1] == f"{self.pcv} = {b + 1}":  # falls through to the next block
            lines[-1] = layout.jump(b + 1)
        return lines

    def jump(self, b: int, x: str | None) -> list[str]:
        lines = super().jump(b, x)
        if x is not None and self.game.nodes[x].container == self.cid:
            return [layout.jump(self.block_of[x])]
        return lines

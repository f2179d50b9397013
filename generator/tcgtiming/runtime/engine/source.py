"""The graph of a game as Python code, compiled once per game (as Jinja compiles a template).

Each container (the turn, a phase, a step, a procedure) becomes one function ``F<k>(st, e)``. Its
own nodes and its child containers (steps of a phase, phases of the turn) are cut into basic blocks
(a block starts where a jump lands); the function runs them in a loop on a block counter ``pc``, so
a jump is ``pc = <block>`` (plus ``continue`` when it goes back). A child container is called as a
function; one that jumps out of itself returns the node it jumps to, which its parent runs if the
node is its own (``D<k>`` maps nodes to blocks) or returns further up. A call of a procedure is a
Python call. ``e`` is the node a function is entered at (None: its begin). End of the game: an
exception.

Nodes whose work is small are inline (begin, end, automatic and closed actions, triggers, calls,
gotos, exits, branches, loops); player actions, windows and for-each call the machine. Every block
first takes its nodes from the step budget. The traced variant records an entry for every node
(``o((node, event[, actor]))``, ``o`` the machine's record stream); the other records nothing."""
from __future__ import annotations

from .state import GameOver

SEQUENTIAL = ("next", "back", "jump", "exit")


class Gen:
    def __init__(self, prog, traced: bool):
        self.prog, self.traced = prog, traced
        self.game = g = prog.game
        self.fn = {cid: f"F{k}" for k, cid in enumerate(g.containers)}
        self.ns: dict = {"GameOver": GameOver}
        self.ret = {e.via: e.dst for e in g.edges if e.kind == "return"}
        self.units: dict[str, list] = {}
        self.transfers: dict[tuple, list] = {}
        self.leaders: set[str] = set()
        for cid in g.containers:
            self.units[cid] = self._units(cid)
        for cid, units in self.units.items():
            for u, nxt in zip(units, units[1:] + [None]):
                for kind, x in self._transfers(u):
                    self.transfers.setdefault((cid, u), []).append((kind, x))
                    if x is None:
                        continue
                    if kind == "fall" and nxt is not None and self._first(nxt) == x:
                        continue
                    self.leaders.add(x)

    # --- structure ---------------------------------------------------------------------------------
    def _child_of(self, cid: str, container: str) -> str | None:
        c = container
        while c is not None:
            parent = self.game.containers[c].parent
            if parent == cid:
                return c
            c = parent
        return None

    def _units(self, cid: str) -> list:
        """The container's own nodes (node ids) and child containers (('child', id)), in time order."""
        g, out, seen = self.game, [], set()
        for nid in g.time_order(cid):
            node = g.nodes[nid]
            if node.container == cid:
                out.append(nid)
                continue
            ch = self._child_of(cid, node.container)
            if ch is not None and ch not in seen:
                seen.add(ch)
                out.append(("child", ch))
        return out

    def _first(self, u) -> str:
        return self.game.containers[u[1]].begin if isinstance(u, tuple) else u

    def succ(self, nid: str, kind: str = "next") -> str | None:
        kinds = SEQUENTIAL if kind == "next" else (kind,)
        return next((e.dst for e in self.game.successors(nid) if e.kind in kinds), None)

    def _transfers(self, u) -> list:
        if isinstance(u, tuple):
            return [("fall", self.succ(self.game.containers[u[1]].end))]
        n = self.game.nodes[u]
        k = n.kind
        if k in ("begin", "auto", "closed", "trigger", "window") or (k == "player" and not n.choices):
            return [("fall", self.succ(u))]
        if k in ("check", "call"):
            return [("fall", self.ret.get(u))]
        if k in ("goto", "exit"):
            return [("jump", n.target)]
        if k == "branch":
            return [("jump", c.entry) for c in n.choices] + [("jump", n.otherwise)]
        if k in ("loop", "foreach"):
            return [("jump", self.succ(u, "loop")), ("jump", self.succ(u, "exit"))]
        if k == "player":
            return [("jump", c.entry) for c in n.choices]
        return []  # end, end_game

    # --- code ----------------------------------------------------------------------------------------
    def tester(self, ni: int, node, loop: bool = False) -> str:
        """The name of the function that records what a branch or a loop tested (``witness``)."""
        name = f"W{ni}"
        if name not in self.ns:
            from .witness import branch_tester, loop_tester
            self.ns[name] = (loop_tester if loop else branch_tester)(self.prog, node)
        return name

    def tested(self, ni: int, node, k: int | None = None) -> str:
        """What a branch tried up to case k, or (k None) what a loop's condition tested, as source."""
        return f"{self.tester(ni, node)}(st, {k})" if k is not None else f"{self.tester(ni, node, loop=True)}(st)"

    def event(self, value: tuple, extra: str | None = None) -> str:
        """An entry's event as code: a constant, with a value worked out at run time appended."""
        return self.const("E", value) if extra is None else f"({self.const('E', value)} + ({extra},))"

    def const(self, prefix: str, value) -> str:
        name = f"{prefix}{len(self.ns)}"
        self.ns[name] = value
        return name

    def source(self) -> str:
        return "\n".join(line for cid in self.game.containers for line in self.function(cid)) + "\n"

    pcv = "pc"  # the block counter of the code being written (another name in a procedure written in place)
    inlined: int | None = None  # the call node whose procedure is being written in place

    def blocks_of(self, cid: str) -> list[list]:
        """The container's units cut into basic blocks (sets ``block_of`` and ``block_first``)."""
        units = self.units[cid]
        blocks: list[list] = []
        falls_to = None  # where the previous unit falls through to
        for u in units:
            first = self._first(u)
            if (not blocks or isinstance(u, tuple) or isinstance(blocks[-1][-1], tuple) or falls_to != first
                    or first in self.leaders):
                blocks.append([u])
            else:
                blocks[-1].append(u)
            tr = self.transfers.get((cid, u), [])
            falls_to = tr[0][1] if len(tr) == 1 and tr[0][0] == "fall" else None
        self.cid, self.block_of = cid, {}
        self.block_first = [self._first(us[0]) for us in blocks]
        for b, us in enumerate(blocks):
            for u in us:
                self.block_of[u[1] if isinstance(u, tuple) else u] = b
        return blocks

    def function(self, cid: str) -> list[str]:
        prog, units = self.prog, self.units[cid]
        blocks = self.blocks_of(cid)
        # where a node of this container's subtree is entered: (block, entry node of the child or None)
        d = {}
        for u in units:
            if isinstance(u, tuple):
                c = self.game.containers[u[1]]
                for nid in c.nodes:
                    if nid in self.leaders or nid == c.begin:
                        d[prog.index[nid]] = (self.block_of[u[1]], None if nid == c.begin else prog.index[nid])
            elif u in self.leaders or u == units[0]:
                d[prog.index[u]] = (self.block_of[u], None)
        self.dname = self.const("D", d)
        body: list[str] = []
        self.back = False  # a jump goes back to an earlier block (or into a child): the blocks run in a loop
        for b, us in enumerate(blocks):
            body += self.block(b, us, len(blocks))
        head = [f"def {self.fn[cid]}(st, e):"]
        if self.traced:
            head.append("    o = st.out")
        head.append("    L = st.listen")
        if len(blocks) == 1 and not self.back:
            return head + body[1:] + [""]  # one block, no way back: no loop
        head += ["    if e is None:", "        pc = 0", "    else:", f"        pc, e = {self.dname}[e]", "    while True:"]
        return head + ["        " + x for x in body] + ["        raise AssertionError(pc)", ""]

    def block(self, b: int, us: list, nblocks: int) -> list[str]:
        own = sum(1 for u in us if not isinstance(u, tuple))
        out = [f"if {self.pcv} == {b}:"]
        if own:
            out += [f"    st.left -= {own}", "    if st.left < 0:", "        st.out_of_steps()"]
        for i, u in enumerate(us):
            lines = self.child(u[1]) if isinstance(u, tuple) else self.node(b, u)
            tr = self.transfers.get((self.cid, u), [])
            if len(tr) == 1 and tr[0][0] == "fall":
                x = tr[0][1]
                if x is None:
                    lines.append(f"st.no_edge({self.prog.index[self._first(u)]})")
                elif i == len(us) - 1:
                    if b + 1 < nblocks and x == self.block_first[b + 1]:
                        lines.append(f"{self.pcv} = {b + 1}")
                    else:
                        lines += self.jump(b, x)
            out += ["    " + x for x in lines]
        return out

    def jump(self, b: int, x: str | None) -> list[str]:
        if x is None:
            return ["st.no_edge(-1)"]
        g, prog = self.game, self.prog
        node = g.nodes[x]
        if node.container == self.cid:
            tb = self.block_of[x]
            if tb <= b and self.inlined is None:
                self.back = True
            return [f"{self.pcv} = {tb}"] + (["continue"] if tb <= b else [])
        if self.inlined is not None:  # a procedure written in place that jumps out of itself
            return [f"st.jumped_out({self.inlined}, {prog.index[x]})"]
        ch = self._child_of(self.cid, node.container)
        if ch is not None:
            tb = self.block_of[ch]
            lines = [f"pc = {tb}"]
            if x != g.containers[ch].begin:
                lines.append(f"e = {prog.index[x]}")
            if tb <= b:
                self.back = True
            return lines + (["continue"] if tb <= b else [])
        return [f"return {prog.index[x]}"]

    def child(self, ch: str) -> list[str]:
        self.back = True
        call = [f"r = {self.fn[ch]}(st, e)", "if r is not None:", f"    t = {self.dname}.get(r)",
                "    if t is None:", "        return r", "    pc, e = t", "    continue"]
        c = self.game.containers[ch]
        if c.skip_if is None:
            return call + ["e = None"]
        # skipped when its condition holds as it would begin (not when a jump lands inside it)
        test = self.test(c.skip_if, self.prog.condition(c.skip_if))
        out = [f"if e is None and {test}:"]
        out.append(f"    o(({self.prog.index[c.begin]}, {self.const('E', ('skipped',))}))" if self.traced else "    pass")
        return out + ["else:"] + ["    " + x for x in call] + ["e = None"]

    def test(self, cond, fn) -> str:
        """A condition in the code: its expression when it has one, else a call of its compiled test."""
        if cond is None:
            return "True"
        src = self.prog.source_of(cond)
        return src if src is not None else f"{self.const('C', fn)}(st)"

    def node(self, b: int, nid: str) -> list[str]:
        prog, g, T = self.prog, self.game, self.traced
        ni = prog.index[nid]
        n = g.nodes[nid]
        k = n.kind
        out: list[str] = []
        if k == "begin":
            c = g.containers[n.container]
            fe = tuple(x for x in c.nodes if g.nodes[x].kind == "foreach")
            if fe:
                out.append(f"if st.loops: st.reset_loops({fe!r})")
            if T:
                out.append(f"o(({ni}, {self.const('E', ('begin',))}))")
        elif k == "end":
            if T:
                out.append(f"o(({ni}, {self.const('E', ('end',))}))")
            out.append("return None" if self.inlined is None else "break")
        elif k in ("auto", "closed"):
            # a play scripted where no one may play is refused when the run comes there
            out.append(f"if st.choices.get({nid!r}): st.closed_play({ni})")
            act = prog.actions.get(ni)
            fixed = getattr(act, "const", None)  # an action that does nothing but say so
            a = self.const("A", act) if act is not None and fixed is None else None
            if fixed is not None and T:
                out.append(f"o(({ni}, {self.const('E', ('closed', fixed) if k == 'closed' else fixed)}))")
            elif fixed is not None:
                pass
            elif T:
                out.append(f"st.at = {ni}")
                ev = f"{a}(st)" if a else self.const("E", ("label",))
                if k == "closed":
                    ev = f"('closed', {ev})"
                actor = f", st.seat[{prog.actor_seat[ni]}]" if ni in prog.actor_seat else ""
                out.append(f"o(({ni}, {ev}{actor}))")
            elif a:
                out.append(f"{a}(st)")
        elif k == "trigger":
            out.append(f"if st.choices.get({nid!r}): st.closed_play({ni})")
            if T:
                out += [f"st.at = {ni}", f"o(({ni}, st.trigger({n.event!r})))"]
            else:
                out.append(f"if {n.event!r} in L: st.fire({n.event!r})")
        elif k in ("check", "call"):
            callee = g.nodes[self.succ(nid, "call")].container
            out.append(f"st.frames.append({ni})")
            args = dict(n.call_args)
            if "amount" in args:
                out.append(f"st.damage_left = st.value_of({args['amount']!r})")
            if n.callee == "check_timing" or k == "check":
                out.append("if 'check_timing' in L: st.fire('check_timing')")
            if T and "amount" in args:  # the amount as a number, worked out now (the damage it deals)
                out += [f"st.at = {ni}", f"o(({ni}, {self.event(('call', tuple(n.call_args)), 'st.damage_left')}))"]
            elif T:
                out += [f"st.at = {ni}", f"o(({ni}, {self.const('E', ('call', tuple(n.call_args)))}))"]
            out += [f"r = {self.fn[callee]}(st, None)", "st.frames.pop()", "if r is not None:",
                    f"    st.jumped_out({ni}, r)"]
        elif k in ("goto", "exit"):
            if k == "exit":
                fe = tuple(x for x in n.loops if g.nodes[x].kind == "foreach")
                if fe:
                    out.append(f"st.reset_loops({fe!r})")
            if T:
                ev = ("exit", n.leaves) if k == "exit" else ("label",)
                out.append(f"o(({ni}, {self.const('E', ev)}))")
            out += self.jump(b, n.target)
        elif k == "end_game":
            out.append(f"st.end_game({ni})")
        elif k == "branch":
            for i, c in enumerate(n.choices):
                cond = self.test(c.when, prog.case_when[ni][i])
                out.append(f"{'if' if i == 0 else 'elif'} {cond}:")
                if T:
                    out.append(f"    o(({ni}, {self.event(('case', c.id), self.tested(ni, n, i))}))")
                out += ["    " + x for x in self.jump(b, c.entry)]
            arm = ["else:"] if n.choices else ["if True:"]
            if T:
                arm.append(f"    o(({ni}, {self.event(('otherwise',), self.tested(ni, n, len(n.choices)))}))")
            out += arm + ["    " + x for x in self.jump(b, n.otherwise)]
        elif k == "loop":
            out.append(f"if {self.test(n.condition, prog.loop_when[ni])}:")
            lt = self.tested(ni, n) if T and n.condition is not None else None
            if T:
                out.append(f"    o(({ni}, {self.event(('loop', True), lt)}))")
            out += ["    " + x for x in self.jump(b, self.succ(nid, "loop"))] + ["else:"]
            if T:
                out.append(f"    o(({ni}, {self.event(('loop', False), lt)}))")
            out += ["    " + x for x in self.jump(b, self.succ(nid, "exit"))]
        elif k == "foreach":
            out.append(f"if st.foreach({ni}):")
            out += ["    " + x for x in self.jump(b, self.succ(nid, "loop"))] + ["else:"]
            out += ["    " + x for x in self.jump(b, self.succ(nid, "exit"))]
        elif k == "player":
            out.append(f"k = st.player({ni})")
            for i, c in enumerate(n.choices):
                head = "if k == 0:" if i == 0 else ("else:" if i == len(n.choices) - 1 else f"elif k == {i}:")
                out += [head] + ["    " + x for x in self.jump(b, c.entry)]
        elif k == "window":
            out.append(f"st.window({ni})")
        return out


def build(prog, traced: bool):
    gen = Gen(prog, traced)
    src = gen.source()
    code = compile(src, f"<tcgtiming program of {prog.game.id}{' (traced)' if traced else ''}>", "exec")
    exec(code, gen.ns)
    prog.sources[traced] = src
    return gen.ns[gen.fn["turn"]]


def rule_scan(prog, rules):
    """Rule processing as code: ``scan(st, k)`` is the first (rule, player) pair from the k-th on, in
    the order rules are applied (each rule for the turn player, then the others), whose condition
    holds now, or -1. A condition with an expression is written in place (``self`` being the pair's
    player); another is called through ``Machine.rule_applies``."""
    seats = prog.cx.all  # the turn player, then each other player in turn order
    pairs, lines, ns = [], ["def scan(st, k):", "    s = st.seat", f"    {', '.join(f'p{j}' for j in seats)} = "
                            f"{', '.join(f's[{j}]' for j in seats)}"], {}
    for rp in rules:
        for j in seats:
            k = len(pairs)
            pairs.append((rp, j))
            src = prog.source_of(rp.when) if rp.when is not None else None
            if rp.when is None:
                continue
            if src is not None:
                test = src.replace("st.seat[2]", f"p{j}")
            else:
                ns[f"RP{k}"] = rp
                test = f"st.rule_applies(RP{k}, p{j})"
            lines.append(f"    if k <= {k} and {test}:")
            lines.append(f"        return {k}")
    lines.append("    return -1")
    exec(compile("\n".join(lines) + "\n", f"<tcgtiming rules of {prog.game.id}>", "exec"), ns)
    return ns["scan"], tuple(pairs)

"""The basic blocks of a function of the fast tier laid out as straight code (``codegen``).

The blocks come with a jump written as a marker line (``#J <block>``, always the last statement of
its arm). A block that one marker alone reaches (not the entry, not entered from another function)
is written in place of that marker, so a branch's arms are its targets' code; the others stay
behind the block counter (``if pc == k:``), and when only one is left the counter goes: a jump to it
is ``continue``.

The step budget keeps its exact count: a block whose code before its jumps only reads (a branch on
an expression, nothing recorded, nothing called) takes no steps at its head; its steps go to each
target written in place, added to that block's own (one decrement and one test instead of two,
with nothing but reads in between). Such a block whose targets all stay behind the counter, each of
which tests the budget before anything else, takes its steps without the test (the next test
comes before anything can be seen). Every way back to a block still passes a test: a loop cannot
run on unchecked."""
from __future__ import annotations

import re

JUMP = re.compile(r"( *)#J (\d+)$")
CALL = re.compile(r"(\.?\w+)\(")
PURE_CALLS = {".get", "len"}  # calls in a condition that only read


def jump(b: int) -> str:
    return f"#J {b}"


def charge(n: int, checked: bool = True) -> list[str]:
    return [f"st.left -= {n}"] + (["if st.left < 0:", "    st.out_of_steps()"] if checked else [])


def split_charge(lines: list[str]) -> tuple[int, list[str]]:
    """A block's own steps (its head's decrement) and the rest of its lines."""
    m = re.fullmatch(r"st\.left -= (\d+)", lines[0]) if lines else None
    if m and lines[1:3] == charge(1)[1:]:
        return int(m.group(1)), lines[3:]
    return 0, lines


def pure_line(line: str) -> bool:
    """A line that only reads the run state or jumps: a test of an expression, ``else``, a marker."""
    x = line.strip()
    if x in ("", "pass", "else:") or JUMP.fullmatch(x):
        return True
    m = re.fullmatch(r"(?:if|elif) (.*):", x)
    if m is None or "o(" in m.group(1) or ":=" in m.group(1) or re.search(r"[\])]\s*\(", m.group(1)):
        return False  # a record, an assignment, a call of what a subscript or a call gives
    return all(c in PURE_CALLS for c in CALL.findall(m.group(1)))


def pure(lines: list[str]) -> bool:
    return all(pure_line(x) for x in split_charge(lines)[1])


class Layout:
    """``blocks``: each block's lines (its steps first, then its code, jumps as markers); ``fixed``:
    the blocks entered otherwise than by a marker (from another function, a child container)."""

    def __init__(self, blocks: list[list[str]], pcv: str, fixed=frozenset()):
        self.blocks, self.pcv = blocks, pcv
        self.targets = [[int(m.group(2)) for x in bl for m in [JUMP.fullmatch(x)] if m] for bl in blocks]
        preds: dict[int, list[int]] = {}
        for b, ts in enumerate(self.targets):
            for t in ts:
                preds.setdefault(t, []).append(b)
        self.entered = 0 in preds  # the entry block is also reached by a jump
        self.nested = {t for t, ps in preds.items() if len(ps) == 1 and ps[0] != t and t != 0 and t not in fixed}
        self.pure = [pure(bl) for bl in blocks]
        self.roots = [b for b in range(len(blocks)) if b not in self.nested]
        self.looped = False  # a jump to a block behind the counter goes back

    def defers(self, b: int) -> bool:
        """The block's steps go to its targets (each written in place)."""
        ts = self.targets[b]
        return self.pure[b] and bool(ts) and all(t in self.nested for t in ts)

    def checks_first(self, b: int) -> bool:
        """Every way through the block tests the budget before anything but reads: a block that acts
        takes its steps (tested) at its head; one that hands its steps on hands them to blocks that act."""
        acts = [not self.pure[t] for t in self.targets[b]]
        return (not self.pure[b] and split_charge(self.blocks[b])[0] > 0) or (self.defers(b) and all(acts))

    def unchecked(self, b: int) -> bool:
        """The block only reads and jumps to blocks behind the counter that each test first."""
        ts = self.targets[b]
        return (self.pure[b] and bool(ts) and all(t not in self.nested for t in ts)
                and all(self.checks_first(t) for t in ts))

    def render(self, b: int, root: int, extra: int = 0, single: int | None = None) -> list[str]:
        n, body = split_charge(self.blocks[b])
        n += extra
        defer = n > 0 and self.defers(b)
        out = [] if defer or not n else charge(n, checked=not self.unchecked(b))
        for x in body:
            m = JUMP.fullmatch(x)
            if m is None:
                out.append(x)
                continue
            ind, t = m.group(1), int(m.group(2))
            if t in self.nested:
                out += [ind + y for y in self.render(t, root, n if defer else 0, single)]
            elif t == single:
                self.looped = True
                out.append(ind + "continue")
            else:
                out.append(f"{ind}{self.pcv} = {t}")
                if t <= root:
                    self.looped = True
                    out.append(ind + "continue")
        return out

    def dispatch(self, roots: list[int]) -> list[str]:
        """The roots behind the counter: ``if pc == k:`` each, or the only one as it is."""
        if len(roots) == 1:
            return self.render(roots[0], roots[0], single=roots[0])
        out = []
        for r in roots:
            out += [f"if {self.pcv} == {r}:"] + ["    " + x for x in self.render(r, r)]
        return out + [f"raise AssertionError({self.pcv})"]


def procedure(blocks: list[list[str]], pcv: str) -> list[str]:
    """A procedure written in place: its entry block before a loop over the others when no jump
    goes back to it (the loop left by ``break``)."""
    lay = Layout(blocks, pcv)
    rest = lay.roots[1:]
    if not lay.entered and rest:  # the entry block's code may not leave the loop before it is entered
        head = lay.render(0, -1)
        lay.looped = False
    if lay.entered or (rest and any(x.strip() == "break" for x in head)):
        return [f"{pcv} = 0", "while True:"] + ["    " + x for x in lay.dispatch(lay.roots)]
    single = rest[0] if len(rest) == 1 else None
    head = lay.render(0, -1, single=single)
    if single is not None:  # the loop starts at the only block left: no counter to set
        head = [x[:len(x) - 8] + "pass" if x.strip() == "continue" else x for x in head]
    if not rest:
        return [x for x in head if x.strip() != "break"]
    head, loop = [x for x in head if x != "pass"], lay.dispatch(rest)
    return peeled(head, loop) or head + ["while True:"] + ["    " + x for x in loop]


def peeled(head: list[str], loop: list[str]) -> list[str] | None:
    """A loop whose only block is a branch that only reads, every case going round again but the
    last (``else``: the way out), after a head that only takes its steps: the cases tested once
    before the loop, so the common way (straight out) takes the head's steps with the way out's and
    runs no loop. The tests only read: testing them again in the loop changes nothing."""
    m = re.fullmatch(r"st\.left -= (\d+)", head[0]) if len(head) == 1 else None
    tops = [i for i, x in enumerate(loop) if not x.startswith(" ")]
    if m is None or not tops or loop[-1] != "    break" or loop[tops[-1]] != "else:":
        return None
    tests = [re.fullmatch(r"(?:if|elif) (.*):", loop[i]) for i in tops[:-1]]
    way_out = loop[tops[-1] + 1:-1]
    n, body = split_charge([x[4:] for x in way_out])
    if (None in tests or not tests or loop[tops[0]][:3] != "if " or not n or layout_jumps(body)
            or not all(pure_line(loop[i]) for i in tops)):
        return None
    out = ["if " + " or ".join(f"({t.group(1)})" for t in tests) + ":", "    " + head[0], "    while True:"]
    return out + ["        " + x for x in loop] + ["else:"] + ["    " + x for x in charge(n + int(m.group(1))) + body]


def layout_jumps(lines: list[str]) -> bool:
    """Lines that leave or go round a loop."""
    return any(x.strip() in ("break", "continue") for x in lines)

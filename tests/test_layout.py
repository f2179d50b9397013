"""The fast tier's block layout (``runtime.engine.layout``): blocks written in place of their only
jump, a block that only reads handing its steps to its targets. Run against the plain layout (every
block behind the counter, its steps taken at its head) on small graphs with a loop: at every point
where the code does something, the budget left is the same, and the budget runs out at the same
point, for every budget."""
from __future__ import annotations

import sys

import pytest

from tcgtiming.runtime.engine import layout


class Out(Exception):
    pass


class St:
    def __init__(self, left: int, x: int):
        self.left, self.x, self.log = left, x, []

    def out_of_steps(self):
        raise Out


def plain(blocks, pcv="pc1"):
    """Every block behind the counter, its steps at its head (the closure tier's layout)."""
    out = [f"{pcv} = 0", "while True:"]
    for b, lines in enumerate(blocks):
        out.append(f"    if {pcv} == {b}:")
        for x in lines:
            m = layout.JUMP.fullmatch(x)
            if m is None:
                out.append("        " + x)
                continue
            ind, t = m.group(1), int(m.group(2))
            out += [f"        {ind}{pcv} = {t}"] + ([f"        {ind}continue"] if t <= b else [])
    return out + [f"    raise AssertionError({pcv})"]


class Hang(Exception):
    pass


def run(lines, left, x):
    src = "def f(st):\n" + "".join("    " + y + "\n" for y in lines) + "    st.log.append(('end', st.left))\n"
    ns = {}
    exec(compile(src, "<layout test>", "exec"), ns)
    st = St(left, x)
    count = [0]

    def lines_run(frame, event, arg):  # a loop the budget does not stop: an error, not a hang
        if frame.f_code.co_filename == "<layout test>":
            count[0] += 1
            if count[0] > 1_000_000:
                raise Hang
        return lines_run

    sys.settrace(lines_run)
    try:
        ns["f"](st)
    except Out:
        st.log.append(("out",))  # where it ran out (the budget left then is read by nothing)
    finally:
        sys.settrace(None)
    return st.log


# a loop: a head that only reads, a branch that only reads, a body that acts, an end
LOOP = [
    layout.charge(1) + [layout.jump(1)],
    layout.charge(2) + ["if st.x > 0:", "    " + layout.jump(2), "else:", "    " + layout.jump(3)],
    layout.charge(3) + ["st.x -= 1", "st.log.append(('act', st.left))", layout.jump(1)],
    layout.charge(1) + ["break"],
]
# the same with an action before the branch (nothing to hand on) and two ways into the end
MIXED = [
    layout.charge(2) + ["st.log.append(('head', st.left))", layout.jump(1)],
    layout.charge(1) + ["if st.x > 2:", "    " + layout.jump(2), "elif st.x > 0:", "    " + layout.jump(3),
                        "else:", "    " + layout.jump(4)],
    layout.charge(2) + ["st.x -= 2", "st.log.append(('two', st.left))", layout.jump(1)],
    layout.charge(1) + ["st.x -= 1", layout.jump(4)],
    layout.charge(2) + ["st.log.append(('last', st.left))", "break"],
]

# a loop of blocks that only read (x > 1: it never ends): only the budget stops it
PURE = [
    layout.charge(1) + [layout.jump(1)],
    layout.charge(1) + ["if st.x > 0:", "    " + layout.jump(2), "else:", "    " + layout.jump(3)],
    layout.charge(1) + ["if st.x > 1:", "    " + layout.jump(1), "else:", "    " + layout.jump(4)],
    layout.charge(1) + ["st.log.append(('three', st.left))", layout.jump(4)],
    layout.charge(1) + ["break"],
]


@pytest.mark.parametrize("blocks", [LOOP, MIXED, PURE], ids=["loop", "mixed", "pure"])
def test_the_layout_keeps_every_step_and_every_test_of_the_budget(blocks):
    laid = layout.procedure(blocks, "pc1")
    assert laid != plain(blocks)
    for x in range(5):
        full = run(plain(blocks), 10_000, x)
        taken = 10_000 - full[-1][1] if full[-1][0] == "end" else 100
        for left in range(taken + 2):  # each budget up to one more than the run takes
            assert run(laid, left, x) == run(plain(blocks), left, x), (x, left)


def test_a_block_that_only_reads_hands_its_steps_to_its_targets():
    laid = layout.procedure(LOOP, "pc1")
    assert "pc1" not in "\n".join(laid)  # one block left behind the loop: no counter
    # the loop's cases tested once before it: straight out, the head's step, the branch's two and the end's
    assert laid[:3] == ["if (st.x > 0):", "    st.left -= 1", "    while True:"]  # the head's step: tested next
    assert laid[laid.index("else:"):] == ["else:", "    st.left -= 4", "    if st.left < 0:", "        st.out_of_steps()"]
    # in the loop the branch (2 steps) has no test of its own: each case takes its steps with the case's block
    assert laid[3:7] == ["        if st.x > 0:", "            st.left -= 5", "            if st.left < 0:",
                         "                st.out_of_steps()"]
    assert layout.pure(MIXED[1]) and not layout.pure(MIXED[0])
    assert not layout.pure_line("if C3(st):") and layout.pure_line("if (st.decisions.get('a') == 'b'):")
    assert not layout.pure_line("if FI['x'](st, None):") and layout.pure_line("if (len(ZO[SE[1]]['hand']) > 0):")

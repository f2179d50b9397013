"""Issue 10's bar on shipped scenarios (>= 20x faster than the interpreter before) against the semantic
floor: for each scenario with a floor (shipped_aquarian.py, shipped_gundam.py), the interpreter before
(benchmarks/legacy.py), the engine with and without its event trace, and the floor with and without
the engine's records, timed side by side in one process.

Each of the five is run in batches of about ``--seconds`` of CPU time; one round times each once, in
turn (interleaved), and the figure is the median of ``--rounds`` rounds of CPU time per run
(``time.process_time``). The floor runs with the cyclic garbage collector off, as ``simulate`` runs
the engine. Before timing, each floor is checked against the engine (records and final state).

    PYTHONPATH=generator .venv/bin/python benchmarks/anchor/shipped_bench.py [--seconds 0.2] [--rounds 7]
"""
from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections import deque
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT / "generator"), str(ROOT / "benchmarks"), str(HERE)]

import shipped_aquarian  # noqa: E402
import shipped_floor  # noqa: E402
import shipped_gundam  # noqa: E402
from legacy import simulate as legacy_simulate  # noqa: E402
from tcgtiming.frontend.pipeline import compile_file  # noqa: E402
from tcgtiming.runtime.engine import program_for, simulate  # noqa: E402

FLOORS = [(shipped_aquarian, "aquarian", n) for n in shipped_aquarian.SCENARIOS] + [
    (shipped_gundam, "gundam", n) for n in shipped_gundam.SCENARIOS]
KINDS = ("legacy", "engine traced", "engine untraced", "floor traced", "floor untraced")
TARGET = 20


def batch(fn, n):
    """CPU seconds per call of ``fn``, over ``n`` calls."""
    t0 = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - t0) / n


def calls_for(fn, seconds):
    """How many calls of ``fn`` take about ``seconds`` of CPU time."""
    n = 1
    while True:
        t = batch(fn, n) * n
        if t > seconds / 4:
            return max(1, int(n * seconds / t))
        n *= 2


def without_gc(fn):
    def run():
        gc.disable()
        try:
            fn()
        finally:
            gc.enable()
    return run


def ids_only(plan):
    """The floor's set-up with zones of card ids and no card objects (what card objects cost): the
    same loops as ``shipped_floor.cards_of``, and the same state besides."""
    zones, cards = {}, {}
    for pid, layout in plan.layout:
        pz = zones[pid] = {}
        for z, row in layout:
            here = pz[z] = []
            for spec, _, _ in row:
                here.append(spec.id)
    return shipped_floor.rest(shipped_floor.head(plan, None), plan, zones, cards)


def choices(n, taken):
    """``n`` choices taken from a deque: as the engine's window takes them (used, kept with what was
    read: the pair, as a pass is kept), or just taken (``taken`` False)."""
    items, read = [shipped_floor.Choice({"at": "x"}) for _ in range(n)], frozenset({"take"})

    def engine_way():
        lst, used, keep = deque(items), set(), [].append
        for _ in range(n):
            ch = lst.popleft()
            used.add(id(ch))
            keep((ch, read))

    def plain():
        lst = deque(items)
        for _ in range(n):
            lst.popleft()
    return engine_way if taken else plain


def budget(n, kept):
    """``n`` updates of the step budget (``kept``), or the same loop without them."""
    st = shipped_floor.Run()

    def updates():
        st.left = n
        for _ in range(n):
            st.left -= 1
            if st.left < 0:
                raise shipped_floor.OutOfSteps

    def loop():
        for _ in range(n):
            pass
    return updates if kept else loop


def check(mod, game, sc, prog, name):
    """The floor makes the engine's records and ends in its state (the test's check, done again here)."""
    plan = mod.plan(name)
    engine = simulate(game, sc, program=prog)
    st, records = mod.run_t(plan)
    plain = shipped_floor.plain
    assert [plain(r) for r in records] == [plain(r) for r in engine.records], name
    for run in (st, mod.run_u(plan)):
        assert shipped_floor.fingerprint(run, plan, prog.ids) == engine.fingerprint, name
        assert run.left == engine.machine.left, name
    return len(engine.records), sc.max_steps - engine.machine.left


def measure(seconds, rounds, costs=False):
    rows = []
    for mod, game_id, name in FLOORS:
        path = ROOT / "rules" / game_id / "scenarios" / f"{name}.yaml"
        res = compile_file(path, str(path.relative_to(ROOT)))
        game, sc = res.game, res.scenario
        prog = program_for(game)
        n_records, steps = check(mod, game, sc, prog, name)
        plan = mod.plan(name)
        fns = {"legacy": lambda: legacy_simulate(game, sc, strict=True),
               "engine traced": lambda: simulate(game, sc, strict=True, program=prog),
               "engine untraced": lambda: simulate(game, sc, strict=True, program=prog, trace=False),
               "floor traced": without_gc(lambda: mod.run_t(plan)),
               "floor untraced": without_gc(lambda: mod.run_u(plan))}
        if costs:  # the parts of the floor's work, to tell what each obligation costs
            fns.update({"set-up": without_gc(lambda: shipped_floor.start(plan)),
                        "set-up, ids": without_gc(lambda: ids_only(plan)),
                        "choices taken": choices(len(sc.choices), True),
                        "choices plain": choices(len(sc.choices), False),
                        "budget kept": budget(steps, True), "budget loop": budget(steps, False)})
        calls = {k: calls_for(fn, seconds) for k, fn in fns.items()}
        samples = {k: [] for k in fns}
        for _ in range(rounds):
            for k, fn in fns.items():
                samples[k].append(batch(fn, calls[k]))
        rows.append((f"{game_id}/{name}", n_records, steps, {k: statistics.median(v) for k, v in samples.items()}))
    return rows


def report(rows, seconds, rounds) -> str:
    lines = [f"date {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, Python {platform.python_version()}, "
             f"nproc {os.cpu_count()}; CPU time (time.process_time), median of {rounds} interleaved rounds, "
             f"batches of about {seconds} s each", "",
             "| scenario | records | steps | " + " | ".join(KINDS) + " |", "|---|---:|---:|" + "---:|" * len(KINDS)]
    for name, n, steps, r in rows:
        lines.append(f"| {name} | {n} | {steps} | " + " | ".join(f"{r[k] * 1e6:.1f} us" for k in KINDS) + " |")
    lines += ["", "speed-up over the interpreter before (legacy / each), and the engine against the floor:", "",
              "| scenario | engine traced | engine untraced | floor traced | floor untraced | "
              "engine/floor traced | engine/floor untraced |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, _, _, r in rows:
        up = {k: r["legacy"] / r[k] for k in KINDS[1:]}
        lines.append(f"| {name} | " + " | ".join(f"{up[k]:.1f}x" for k in KINDS[1:]) + " | "
                     f"{r['engine traced'] / r['floor traced']:.2f}x | "
                     f"{r['engine untraced'] / r['floor untraced']:.2f}x |")
    lines += ["", f"the {TARGET}x bar: the most CPU time a run may take, against the floor's", ""]
    for name, _, _, r in rows:
        bar = r["legacy"] / TARGET
        lines.append(f"  {name}: bar {bar * 1e6:.1f} us; floor traced {r['floor traced'] * 1e6:.1f} us "
                     f"({r['floor traced'] / bar:.2f} of it), untraced {r['floor untraced'] * 1e6:.1f} us "
                     f"({r['floor untraced'] / bar:.2f} of it)")
    if "set-up" not in rows[0][3]:
        return "\n".join(lines)
    lines += ["", "what the floor's obligations cost (untraced; the choices' and the budget's costs measured on their "
              "own: the scenario's number of choices, and one budget update per step, an upper bound):", "",
              "| scenario | floor untraced | set-up | of it card objects | choices taken as the engine takes them | "
              "budget | floor without all these | the 20x bar |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, _, _, r in rows:
        cards, taken = r["set-up"] - r["set-up, ids"], r["choices taken"] - r["choices plain"]
        steps = r["budget kept"] - r["budget loop"]
        bare = r["floor untraced"] - cards - taken - steps
        cells = (r["floor untraced"], r["set-up"], cards, taken, steps, bare, r["legacy"] / TARGET)
        lines.append(f"| {name} | " + " | ".join(f"{x * 1e6:.1f} us" for x in cells) + " |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.2)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--costs", action="store_true", help="also time the parts of the floor's work")
    args = ap.parse_args()
    print(report(measure(args.seconds, args.rounds, args.costs), args.seconds, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One Weiß Schwarz turn in sismic, transitions, hand-written Python and tcgtiming, side by side.

The peers are the anchors in ../shared/bench/anchors/ (read their README). tcgtiming runs the same
turn from YAML: the rule file benchmarks/anchor/game.yaml (the anchors' model in the rule
language) and a scenario generated from each anchor Scenario (benchmarks/anchor/model.py), in
three ways: (d0) the interpreter as it was before the compiled engine (benchmarks/legacy.py, read from the history), (d) the
engine with its event trace recorded (every entry's facts kept, narration left for output time),
(e) the engine without a trace (the exploration path). (f) and (f') are the semantic floor
(benchmarks/anchor/floor.py, floor_trace.py): the same turn written by hand like (c), but keeping the engine's state
(card objects in zones, pending queues, event counts, the step budget, scripted decisions), without
a trace and with the engine's records: what any faithful compile could reach with this state model.

1. verify: every anchor scenario x 3 consecutive turns per engine; each trace must equal the
   hand-written one (exit 1 otherwise). tcgtiming's trace is projected onto the anchors' names;
   (e) records nothing, so its final state's fingerprint must equal that of (d)'s run; (f')'s records
   must equal (d)'s record for record, and (f)'s final state (fingerprint, budget left, policy
   decisions) that of (e)'s run.
2. speed: runs of about --seconds each, engines interleaved, --rounds rounds, median turns/s
   (wall and CPU) and entries/s; ratios to (c) hand-written.
3. memory: tracemalloc peak above the built engine over --mem-turns turns, per engine.

    .venv/bin/python benchmarks/anchor_turn.py [--seconds 2] [--rounds 3] [--mem-turns 1000] [--json out.json]
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TCGTIMING_SHARED", ROOT.parent / "shared"))
ANCHORS = SHARED / "bench" / "anchors"
sys.path.insert(0, str(ROOT / "generator"))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "benchmarks" / "anchor"))
sys.path.insert(0, str(ANCHORS))

import floor  # noqa: E402
import floor_trace  # noqa: E402
from model import GAME, project, scenario_yaml  # noqa: E402
from tcgtiming.frontend.pipeline import compile_document, compile_file  # noqa: E402
from tcgtiming.runtime.engine import program_for, simulate  # noqa: E402
from tcgtiming.frontend.loader import load_bytes  # noqa: E402

_GAME = None


def game():
    global _GAME
    if _GAME is None:
        res = compile_file(GAME)
        assert res.game is not None, res.diagnostics
        _GAME = res.game
    return _GAME


def load_scenario(sc):
    res = compile_document(load_bytes(scenario_yaml(sc).encode(), "anchor-scenario.yaml"), rules=str(GAME))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res.scenario


class LegacyEngine:
    """(d0): the interpreter before the compiled engine, read from the history by benchmarks/legacy.py."""

    name = "tcgtiming interpreter (before)"

    def __init__(self, sc):
        from legacy import simulate as legacy_simulate
        self.simulate = legacy_simulate
        self.game = game()
        self.scenario = load_scenario(sc)
        self.names = {nid: project(n) for nid, n in self.game.nodes.items()}

    def run_turn(self):
        return self.simulate(self.game, self.scenario).entries

    def trace(self):
        names = self.names
        return [names[e.node] for e in self.run_turn() if names[e.node] is not None]


class TracedEngine:
    """(d): the engine, every entry recorded (its facts; narration is rendered at output time)."""

    name = "tcgtiming engine, event trace"

    def __init__(self, sc):
        self.game = game()
        self.prog = program_for(self.game)
        self.scenario = load_scenario(sc)
        self.names = [project(n) for n in self.prog.nodes]

    def run_turn(self):
        return simulate(self.game, self.scenario, program=self.prog).records

    def trace(self):
        names = self.names
        return [names[r[0]] for r in self.run_turn() if type(r[0]) is int and names[r[0]] is not None]


class FastEngine(TracedEngine):
    """(e): the engine without a trace: its final state must be the traced run's."""

    name = "tcgtiming engine, no trace"

    def run_turn(self):
        return simulate(self.game, self.scenario, program=self.prog, trace=False)

    def trace(self):
        fast = self.run_turn().fingerprint
        traced = simulate(self.game, self.scenario, program=self.prog)
        assert fast == traced.fingerprint, "the run without a trace ends in another state"
        names = self.names
        return [names[r[0]] for r in traced.records if type(r[0]) is int and names[r[0]] is not None]


class FloorTraced:
    """(f'): the floor recording the engine's records; verified record for record against (d)."""

    name = "floor, the engine's records"
    run = staticmethod(floor_trace.run_traced)

    def __init__(self, sc):
        self.sc = sc
        self.plan = floor.Plan(sc)

    def run_turn(self):
        return self.run(self.plan)

    def trace(self):
        eng = TracedEngine(self.sc)  # verification only: the runs measured import nothing from tcgtiming
        assert tuple(eng.prog.ids) == floor.NODES, "the floor's node numbering is not the program's"
        want = simulate(eng.game, eng.scenario, program=eng.prog)
        got = floor_trace.run_traced(self.plan)
        mine, theirs = [floor_trace.plain(r) for r in got.records], [floor_trace.plain(r) for r in want.records]
        if mine != theirs:
            i = next((i for i, (x, y) in enumerate(zip(mine, theirs)) if x != y), min(len(mine), len(theirs)))
            raise AssertionError(f"the floor's record {i} differs: {mine[i:i + 2]} != {theirs[i:i + 2]}")
        same_state(got, want)
        return [eng.names[r[0]] for r in got.records if type(r[0]) is int and eng.names[r[0]] is not None]


def same_state(floor_run, run):
    """The floor's run ends in the engine run's state: fingerprint (in the engine's layout), budget left,
    policy decisions; else an error naming the parts that differ."""
    mine, theirs = floor.fingerprint(floor_run), run.fingerprint
    parts = [i for i in range(max(len(mine), len(theirs))) if i >= len(mine) or i >= len(theirs) or mine[i] != theirs[i]]
    if parts:
        raise AssertionError(f"the floor ends in another state: fingerprint parts {parts} differ (the engine's "
                             f"fingerprint has {len(theirs)} parts; floor.fingerprint follows Machine.fingerprint)")
    counts = (floor_run.left, floor_run.policy), (run.machine.left, run.policy_decisions)
    assert counts[0] == counts[1], f"the floor's budget left and policy decisions {counts[0]} are not the engine's {counts[1]}"


class Floor(FloorTraced):
    """(f): the floor without a trace; its final state must be that of (e)'s run."""

    name = "floor, no trace"
    run = staticmethod(floor.run)

    def trace(self):
        eng = FastEngine(self.sc)
        want = simulate(eng.game, eng.scenario, program=eng.prog, trace=False)
        got = floor.run(self.plan)
        same_state(got, want)
        assert floor.budget_is_exact(self.sc), "the floor's budget does not stop the run at its last step"
        return super().trace()


def engines():
    from scenario import DEFAULT, VERIFY  # the anchors' scenarios
    from ws_turn_handwritten import HandwrittenEngine

    found = []
    try:
        from ws_turn_sismic import SismicEngine

        def sismic_fast(sc):
            e = SismicEngine(sc, ignore_contract=True)
            e.name = "sismic(ignore_contract)"
            return e

        found += [("a", "sismic Interpreter, YAML statechart", SismicEngine),
                  ("a'", "sismic, ignore_contract=True", sismic_fast)]
    except ImportError as exc:
        print(f"note: sismic not installed ({exc}); run 'make bench' to install the peers", file=sys.stderr)
    try:
        from ws_turn_transitions import TransitionsEngine

        found.append(("b", "transitions Machine, trigger per step", TransitionsEngine))
    except ImportError as exc:
        print(f"note: transitions not installed ({exc})", file=sys.stderr)
    found += [("c", "hand-written Python functions", HandwrittenEngine),
              ("f", "floor: by hand with tcgtiming's state, no trace", Floor),
              ("f'", "floor: by hand with tcgtiming's state, the engine's records", FloorTraced),
              ("d", "tcgtiming engine, event trace recorded", TracedEngine),
              ("e", "tcgtiming engine, no trace", FastEngine),
              ("d0", "tcgtiming interpreter before the compiled engine", LegacyEngine)]
    return found, DEFAULT, VERIFY


def _trace(engine):
    return engine.trace() if hasattr(engine, "trace") else engine.run_turn()


def verify(found, scenarios, ref_factory) -> bool:
    ok = True
    for sc in scenarios:
        for key, _, factory in found:
            ref, eng = ref_factory(sc), factory(sc)
            for turn in range(3):
                want, got = ref.run_turn(), _trace(eng)
                if got != want:
                    ok = False
                    i = next((i for i, (x, y) in enumerate(zip(got, want)) if x != y), min(len(got), len(want)))
                    print(f"MISMATCH ({key}) {sc} turn {turn}: entry {i}: got {got[i:i + 3]} want {want[i:i + 3]}")
        print(f"  verify {sc}: {'identical' if ok else 'DIFFER'}")
    return ok


def run_n(engine, n):
    run = engine.run_turn
    gc.collect()
    c0, t0 = time.process_time(), time.perf_counter()
    for _ in range(n):
        run()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return n, n * len(_trace(engine)), wall, cpu


def calibrate(engine, seconds):
    n = 1
    while True:
        _, _, wall, _ = run_n(engine, n)
        if wall > 0.2:
            return max(1, int(n * seconds / wall))
        n *= 2


def memory(factory, sc, turns):
    gc.collect()
    tracemalloc.start()
    eng = factory(sc)
    eng.run_turn()
    gc.collect()
    built, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    for _ in range(turns):
        eng.run_turn()
    _, peak = tracemalloc.get_traced_memory()
    gc.collect()
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"build": built, "peak": peak - built, "retained": current - built}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mem-turns", type=int, default=1000)
    ap.add_argument("--json")
    args = ap.parse_args()
    if not ANCHORS.is_dir():
        print(f"the anchors are not at {ANCHORS} (set TCGTIMING_SHARED)", file=sys.stderr)
        return 2
    found, default, scenarios = engines()
    ref = next(f for k, _, f in found if k == "c")
    print(f"date {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, Python {platform.python_version()}, "
          f"nproc {os.cpu_count()}, scenario {default}")
    print("verify (every anchor scenario, 3 consecutive turns per engine, traces compared with (c)):")
    if not verify(found, scenarios, ref):
        print("VERIFY FAILED")
        return 1
    built = {k: f(default) for k, _, f in found}
    sizes = {k: calibrate(e, args.seconds) for k, e in built.items()}
    samples = {k: [] for k in built}
    for r in range(args.rounds):
        for k, e in built.items():
            samples[k].append(run_n(e, sizes[k]))
    builds = {}
    for k, _, f in found:
        ts = []
        for _ in range(5):
            t0 = time.perf_counter()
            f(default)
            ts.append(time.perf_counter() - t0)
        builds[k] = statistics.median(ts)
    mem = {k: memory(f, default, args.mem_turns) for k, _, f in found}
    speed = {}
    for k, rows in samples.items():
        speed[k] = {
            "entries_per_turn": rows[0][1] // rows[0][0],
            "turns_per_s": statistics.median(n / w for n, _, w, _ in rows),
            "turns_per_s_cpu": statistics.median(n / c for n, _, _, c in rows if c > 0),
            "entries_per_s": statistics.median(e / w for _, e, w, _ in rows),
        }
    c = speed["c"]
    print()
    print(f"| impl | what | entries/turn | turns/s | entries/s | time/turn | speed vs (c), wall | vs (c), CPU | "
          f"build once | peak per {args.mem_turns} turns | retained | built engine |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k, what, _ in found:
        s = speed[k]
        rel = s["turns_per_s"] / c["turns_per_s"]
        rel_cpu = s["turns_per_s_cpu"] / c["turns_per_s_cpu"]
        print(f"| ({k}) | {what} | {s['entries_per_turn']} | {s['turns_per_s']:,.0f} | {s['entries_per_s']:,.0f} | "
              f"{1e6 / s['turns_per_s']:,.1f} us | {rel:.3f}x | {rel_cpu:.3f}x | {builds[k] * 1e3:,.2f} ms | "
              f"{mem[k]['peak'] / 1024:,.1f} KiB | {mem[k]['retained'] / 1024:,.1f} KiB | {mem[k]['build'] / 1024:,.1f} KiB |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"speed": speed, "build_s": builds, "memory": mem}, fh, indent=2)
    d, e = (speed[k]["turns_per_s"] / c["turns_per_s"] for k in ("d", "e"))
    print(f"\ntcgtiming with its event trace runs at {d:.3f}x the hand-written speed (target: at least 0.2x), "
          f"without a trace at {e:.3f}x (target: at least 0.5x); {speed['d']['turns_per_s'] / speed['d0']['turns_per_s']:.0f}x "
          f"and {speed['e']['turns_per_s'] / speed['d0']['turns_per_s']:.0f}x the interpreter before")
    f, ft = (speed[k]["turns_per_s"] / c["turns_per_s"] for k in ("f", "f'"))
    print(f"the floor (hand-written with tcgtiming's state) runs at {f:.3f}x (c) without a trace and {ft:.3f}x with "
          f"the engine's records; the engine at {e / f:.3f}x the floor without a trace, {d / ft:.3f}x with its trace")
    return 0


if __name__ == "__main__":
    sys.exit(main())

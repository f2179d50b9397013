"""How the engine's time and memory grow: K pending abilities at one check timing, a cut-in chain of
L plays in one priority window (both 100 ... 3,200, with the exponent of the fitted power law
time ~ n^b), and long runs of many turns, streamed (JSON Lines, thrown away as written) and kept.

The scenarios are made here on the fixture game tests/fixtures/mini (its check timing resolves
pending abilities one at a time; its free timing is a priority window with a stack):
  K: the turn player has K cards (in the discard pile, out of the way of the turn's actions) whose auto
     ability triggers at the start of the turn (draw 0);
  L: the players alternate L quick cards in the free timing, each answering the one before;
  turns: tests/fixtures/mini/scenarios/lanes.yaml, unscripted (the pass policy), for N turns.

    .venv/bin/python benchmarks/growth.py [--sizes 100,200,400,800,1600,3200] [--turns 1000,10000] [--json out.json]
"""
from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import os
import platform
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generator"))

from tcgtiming.frontend.pipeline import compile_file  # noqa: E402
from tcgtiming.runtime.engine import program_for, simulate  # noqa: E402
from tcgtiming.runtime.trace import Stream  # noqa: E402

MINI = ROOT / "tests" / "fixtures" / "mini" / "game.yaml"
LANES = ROOT / "tests" / "fixtures" / "mini" / "scenarios" / "lanes.yaml"
HEAD = "scenario: {{id: {id}, game: mini, title: {{ja: 成長, en: growth}}, turn_player: p1, seed: 1, max_steps: 100000000}}\n"


def load(text: str, folder: Path, name: str):
    p = folder / f"{name}.yaml"
    p.write_text(text, encoding="utf-8")
    res = compile_file(p, rules=str(MINI))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res.game, res.scenario


def pending_scenario(k: int, folder: Path):
    ids = [f"t{i}" for i in range(k)]
    cards = [f"  - {{id: {c}, name: Ticker, type: character, abilities: "
             "[{id: tick, kind: auto, event: turn_start, effect: [{draw: {who: controller, count: 0}}]}]}" for c in ids]
    return load(HEAD.format(id=f"k{k}") + "players:\n"
                f"  - {{id: p1, name: Alice, zones: {{discard: [{', '.join(ids)}]}}}}\n"
                "  - {id: p2, name: Bob, zones: {}}\ncards:\n" + "\n".join(cards) + "\n", folder, f"k{k}")


def chain_scenario(n: int, folder: Path):
    cards, hands, choices = [], ([], []), ["  - {at: main.play, take: pass}"]
    for i in range(n):
        cid = f"q{i}"
        hands[i % 2].append(cid)
        cards.append(f"  - {{id: {cid}, name: Quick, type: event, abilities: [{{id: q, kind: activated, play: quick, "
                     "cost: [{move: {who: controller, from: hand, to: discard, which: self}}], effect: [negate]}]}")
        choices.append(f"  - {{at: battle.free.1, take: play, card: {cid}}}")
    choices += ["  - {at: battle.free.1, take: pass}"] * 4
    return load(HEAD.format(id=f"l{n}") + "players:\n"
                f"  - {{id: p1, name: Alice, zones: {{hand: [{', '.join(hands[0])}]}}}}\n"
                f"  - {{id: p2, name: Bob, zones: {{hand: [{', '.join(hands[1])}]}}}}\n"
                "cards:\n" + "\n".join(cards) + "\nchoices:\n" + "\n".join(choices) + "\n", folder, f"l{n}")


def best_time(fn, repeat: int = 3) -> float:
    out = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.process_time()
        fn()
        out.append(time.process_time() - t0)
    return min(out)


def exponent(points) -> float:
    """The least-squares slope of log(time) against log(n)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def growth(kind: str, make, sizes, folder) -> dict:
    rows = []
    for n in sizes:
        game, sc = make(n, folder)
        prog = program_for(game)
        simulate(game, sc, program=prog)  # compiled, and the scenario's set-up worked out, before timing
        traced = best_time(lambda: simulate(game, sc, program=prog))
        fast = best_time(lambda: simulate(game, sc, program=prog, trace=False))
        entries = len(simulate(game, sc, program=prog).entries)
        rows.append({"n": n, "entries": entries, "traced_s": traced, "fast_s": fast})
    return {"kind": kind, "rows": rows, "exponent_traced": exponent([(r["n"], r["traced_s"]) for r in rows]),
            "exponent_fast": exponent([(r["n"], r["fast_s"]) for r in rows])}


def long_runs(turns_list) -> list[dict]:
    """Each number of turns run three times: streamed and timed, streamed under tracemalloc (its
    peak), and (up to 2,000 turns) with the trace kept (its peak, per entry)."""
    res = compile_file(LANES, rules=str(MINI))
    game = res.game
    prog = program_for(game)
    out = []
    for turns in turns_list:
        sc = dataclasses.replace(res.scenario, turns=turns, choices=(), max_steps=10 ** 9)
        simulate(game, dataclasses.replace(sc, turns=2))  # warm: compiled, caches filled
        with open(os.devnull, "w", encoding="utf-8") as devnull:
            t0 = time.process_time()
            stream = Stream(prog, sc, devnull.write)
            run = simulate(game, sc, sink=stream)
            cpu = time.process_time() - t0
            t0 = time.process_time()
            simulate(game, sc, trace=False)
            fast = time.process_time() - t0
            gc.collect()
            gc.freeze()
            tracemalloc.start()
            simulate(game, sc, sink=Stream(prog, sc, devnull.write))
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            gc.unfreeze()
        row = {"turns": turns, "entries": stream.seq, "stream_cpu_s": cpu, "fast_cpu_s": fast,
               "stream_peak_bytes": peak, "result": run.result}
        if turns <= 2000:  # a trace kept in memory: its peak per entry
            gc.collect()
            tracemalloc.start()
            kept = simulate(game, sc)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            row.update(kept_peak_bytes=peak, kept_records=len(kept.records))
            del kept
        out.append(row)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,200,400,800,1600,3200")
    ap.add_argument("--turns", default="1000,10000")
    ap.add_argument("--json")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"date {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, Python {platform.python_version()}, "
          f"nproc {os.cpu_count()}; CPU time, best of 3")
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for kind, make, what in (("K", pending_scenario, "pending abilities at one check timing"),
                                 ("L", chain_scenario, "plays in one cut-in chain")):
            g = growth(kind, make, sizes, folder)
            report[kind] = g
            print(f"\n{kind} = {what}\n\n| {kind} | entries | with the event trace | without a trace |\n|---:|---:|---:|---:|")
            for r in g["rows"]:
                print(f"| {r['n']:,} | {r['entries']:,} | {r['traced_s'] * 1e3:,.1f} ms | {r['fast_s'] * 1e3:,.1f} ms |")
            print(f"| fitted exponent b (time ~ {kind}^b) | | {g['exponent_traced']:.2f} | {g['exponent_fast']:.2f} |")
    runs = long_runs([int(x) for x in args.turns.split(",")])
    report["turns"] = runs
    print("\nlong runs (tests/fixtures/mini lanes, unscripted), JSON Lines streamed to /dev/null:\n")
    print("| turns | entries | CPU, streamed | CPU, no trace | peak memory, streamed | peak, trace kept | per entry, kept |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        kept = (f"{r['kept_peak_bytes'] / 2 ** 20:,.1f} MiB | {r['kept_peak_bytes'] / r['entries']:,.0f} B"
                if "kept_peak_bytes" in r else "- | -")
        print(f"| {r['turns']:,} | {r['entries']:,} | {r['stream_cpu_s']:.2f} s | {r['fast_cpu_s']:.2f} s | "
              f"{r['stream_peak_bytes'] / 1024:,.0f} KiB | {kept} |")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

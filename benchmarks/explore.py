"""Does the order matter, and at what cost? ``tcgtiming explore`` on k independent simultaneous
abilities (k = 4 ... 12): one player has k cards whose auto abilities trigger at the start of the
turn and change nothing (every order ends the same), every other decision of the turn is scripted.

An exploration that merges runs reaching the same state needs one run per edge of the graph of
distinct states (the subsets of abilities still pending: 2^k states, at most k*2^(k-1) runs);
brute force needs one run per order (k!: 40,320 at k = 8, 479 million at k = 12), run here for
k <= 8 only. Both must find the same single outcome and the same number of combinations (k!).
The fixture game is tests/fixtures/mini (its check timing resolves one pending ability at a time).

    .venv/bin/python benchmarks/explore.py [--ks 4,...,12] [--brute-max 8] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generator"))

from tcgtiming.frontend.pipeline import compile_file  # noqa: E402
from tcgtiming.runtime.explore import explore  # noqa: E402

MINI = ROOT / "tests" / "fixtures" / "mini" / "game.yaml"


def scenario(k: int, folder: Path):
    ids = [f"t{i}" for i in range(k)]
    cards = [f"  - {{id: {c}, name: Ticker, type: character, abilities: [{{id: tick, kind: auto, event: turn_start, "
             "effect: [{draw: {who: controller, count: 0}}]}]}" for c in ids]
    text = (f"scenario: {{id: k{k}, game: mini, title: {{ja: 独立した能力, en: independent abilities}}, turn_player: p1, "
            "seed: 1}\nplayers:\n" f"  - {{id: p1, name: Alice, zones: {{discard: [{', '.join(ids)}]}}}}\n"
            "  - {id: p2, name: Bob, zones: {}}\ncards:\n" + "\n".join(cards) + "\nchoices:\n"
            "  - {at: main.play, take: pass}\n  - {at: battle.free.1, take: pass}\n  - {at: battle.free.1, take: pass}\n")
    p = folder / f"k{k}.yaml"
    p.write_text(text, encoding="utf-8")
    res = compile_file(str(p), rules=str(MINI))
    assert res.scenario is not None, [(d.code, d.message) for d in res.diagnostics]
    return res.game, res.scenario


def timed(fn):
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ks", default="4,5,6,7,8,9,10,11,12")
    ap.add_argument("--brute-max", type=int, default=8)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    rows = []
    print(f"date {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python {platform.python_version()}, "
          f"{platform.machine()}, nproc {os.cpu_count()}; CPU time (process_time)")
    print("| k | orders (k!) | distinct states | runs, merged | time, merged | runs, brute force | time, brute force "
          "| outcomes | runs per state |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for k in (int(x) for x in args.ks.split(",")):
            game, sc = scenario(k, Path(tmp))
            merged, t = timed(lambda: explore(game, sc, limit=10_000_000))
            assert merged.complete and [r.combinations for r in merged.outcomes] == [math.factorial(k)]
            row = {"k": k, "orders": math.factorial(k), "states": merged.states, "runs": merged.runs, "seconds": t}
            if k <= args.brute_max:
                brute, tb = timed(lambda: explore(game, sc, merge=False, limit=10_000_000))
                assert brute.complete and {r.outcome for r in brute.outcomes} == {r.outcome for r in merged.outcomes}
                assert [r.combinations for r in brute.outcomes] == [math.factorial(k)]
                row.update(brute_runs=brute.runs, brute_seconds=tb)
            rows.append(row)
            b = (f"{row['brute_runs']:,} | {row['brute_seconds']:.3f} s" if "brute_runs" in row else "not run | -")
            print(f"| {k} | {row['orders']:,} | {row['states']:,} | {row['runs']:,} | {t:.3f} s | {b} | "
                  f"{len(merged.outcomes)} | {row['runs'] / max(1, row['states']):.2f} |", flush=True)
    if len(rows) >= 2:
        a, z = rows[0], rows[-1]
        growth = math.log(z["runs"] / a["runs"]) / (z["k"] - a["k"])
        print(f"\nruns grow by x{math.exp(growth):.2f} per ability (2^k would be x2.00, k! grows by x(k+1))")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

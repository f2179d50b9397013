"""Start-up: what every command pays before it does any work, against bare Python, side by side.

Each case is a whole process, as a user starts it. The cases run interleaved (one of each per
round) so that the machine's load hits them alike; the table gives the median and the best of
the rounds and the ratio of the medians to ``python -c pass`` on the same interpreter. The bar
of the issue: ``tcgtiming --version`` at most 2x bare Python. Exits 1 when it misses the bar.
Not a test: run it by hand (``make bench`` runs it).

    .venv/bin/python benchmarks/startup.py [--rounds 21]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BAR = 2.0  # --version at most this many times bare Python


def _tcgtiming() -> list[str]:
    """The installed console script next to this interpreter (what a user runs), else -m."""
    script = Path(sys.executable).with_name("tcgtiming")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tcgtiming"]


def cases() -> list[tuple[str, list[str]]]:
    t = _tcgtiming()
    return [
        ("python -c pass (bare Python)", [sys.executable, "-c", "pass"]),
        ("python -c 'import argparse'", [sys.executable, "-c", "import argparse"]),
        ("tcgtiming --version", t + ["--version"]),
        ("tcgtiming --help", t + ["--help"]),
        ("tcgtiming codes", t + ["codes"]),
        ("tcgtiming validate rules/ws/game.yaml", t + ["validate", "rules/ws/game.yaml"]),
        ("tcgtiming validate rules (28 files)", t + ["validate", "rules"]),
    ]


def once(argv: list[str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(argv)}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=21)
    args = ap.parse_args(argv)
    todo = cases()
    for _, cmd in todo:  # warm the page cache and the .pyc files
        once(cmd)
    times: dict[str, list[float]] = {name: [] for name, _ in todo}
    for _ in range(args.rounds):
        for name, cmd in todo:
            times[name].append(once(cmd))
    bare = statistics.median(times[todo[0][0]])
    cpu = os.cpu_count()
    print(f"{time.strftime('%Y-%m-%d')}, Python {sys.version.split()[0]}, {cpu} cores, "
          f"{args.rounds} interleaved rounds, wall clock per process\n")
    print("| command | median | best | vs bare Python (median) |")
    print("|---|---:|---:|---:|")
    for name, _ in todo:
        med, best = statistics.median(times[name]), min(times[name])
        print(f"| `{name}` | {med * 1000:.1f} ms | {best * 1000:.1f} ms | {med / bare:.2f}x |")
    ratio = statistics.median(times["tcgtiming --version"]) / bare
    ok = ratio <= BAR
    print(f"\n--version: {ratio:.2f}x bare Python (bar: at most {BAR}x): {'met' if ok else 'MISSED'}")
    if shutil.which("hyperfine") is None:
        print("(hyperfine is not installed; these are this script's own timings)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

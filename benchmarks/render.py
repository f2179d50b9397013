"""Chart rendering speed: our `render` against bare graphviz on the same DOT files, side by side.

Renders every chart of the shipped games (overview, phases, procedures), both languages, as SVG:

  * bare dot        `dot -Tsvg FILE.dot -o FILE.svg` on the DOT files `render --format dot` writes,
                    with the same number of parallel workers (one per core), biggest file first
  * render          `render.write_charts` on the compiled games: building the charts, writing the
                    DOT text, running dot in parallel, moving the files into place. This is our
                    overhead over graphviz itself, and the bar: under 20%
  * render + compile   the whole command in process: `tcgtiming render rules --lang ja --lang en
                    --no-cache` (the front end compiles the four rule files first: ~0.1 s of CPU)
  * warm cache      the same command with the render cache filled (the second `make site`)
  * new process     the command as a fresh process (Python start-up and imports on top), 1 run

Wall time on a shared machine is noisy, so the table also shows CPU time (this process and its
children: dot + Python), which is what the overhead really is. Rounds alternate between bare and
ours; the bar uses the best of the rounds (as timeit does: noise only ever adds time) and the
table shows the medians too. Exit 1 when the render overhead misses the bar (wall or CPU).
Not a test: run it by hand.

    .venv/bin/python benchmarks/render.py [--rounds 7]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generator"))

from tcgtiming.present import charts as render  # noqa: E402
from tcgtiming.cli.main import main as cli  # noqa: E402
from tcgtiming.frontend.pipeline import compile_file  # noqa: E402

BAR = 0.20
GAMES = ("ws", "versus", "gundam", "aquarian")


def cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measure(fn) -> tuple[float, float]:
    c0, t0 = cpu(), time.perf_counter()
    fn()
    return time.perf_counter() - t0, cpu() - c0


def run_cli(args: list[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli(args)
    if code != 0:
        raise SystemExit(f"render failed ({code}): {args}")


def bare_dot(files: list[Path], out: Path, workers: int) -> None:
    order = sorted(files, key=lambda f: -f.stat().st_size)

    def one(f: Path) -> None:
        subprocess.run(["dot", "-Tsvg", str(f), "-o", str(out / (f.stem + ".svg"))], check=True)

    out.mkdir(parents=True, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(one, order))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    workers = os.cpu_count() or 1
    rules = str(ROOT / "rules")
    common = [rules, "--lang", "ja", "--lang", "en", "--format", "svg"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        os.environ["TCGTIMING_CACHE_DIR"] = str(tmp / "cache")
        run_cli(["render", rules, "--lang", "ja", "--lang", "en", "--format", "dot", "--out", str(tmp / "dot")])
        files = sorted((tmp / "dot").rglob("*.dot"))
        run_cli(["render", *common, "--no-cache", "--out", str(tmp / "warmup")])
        games = [compile_file(ROOT / "rules" / g / "game.yaml").game for g in GAMES]
        runs: dict[str, list[tuple[float, float]]] = {"bare": [], "render": [], "cli": [], "cached": []}
        for r in range(args.rounds):
            steps = [
                ("bare", lambda: bare_dot(files, tmp / f"bare{r}", workers)),
                ("render", lambda: render.write_charts(games, tmp / f"render{r}", ("ja", "en"), ("svg",))),
                ("cli", lambda: run_cli(["render", *common, "--no-cache", "--out", str(tmp / f"cli{r}")])),
            ]
            for name, fn in (steps if r % 2 == 0 else steps[::-1]):  # alternate who goes first
                runs[name].append(measure(fn))
        run_cli(["render", *common, "--out", str(tmp / "fill")])
        for r in range(args.rounds):
            runs["cached"].append(measure(lambda: run_cli(["render", *common, "--out", str(tmp / f"c{r}")])))
        exe = Path(sys.executable).parent / "tcgtiming"
        proc = []
        for r in range(3):
            t0 = time.perf_counter()
            subprocess.run([str(exe) if exe.exists() else "tcgtiming", "render", *common, "--no-cache",
                            "--out", str(tmp / f"proc{r}")], check=True, capture_output=True)
            proc.append(time.perf_counter() - t0)
    best = {k: (min(w for w, _ in v), min(c for _, c in v)) for k, v in runs.items()}
    med = {k: statistics.median(w for w, _ in v) for k, v in runs.items()}
    bw, bc = best["bare"]

    def row(label: str, key: str) -> str:
        w, c = best[key]
        return (f"| {label} | {w:.2f} s | {w / bw - 1:+.0%} | {c:.2f} s | {c / bc - 1:+.0%} | "
                f"{med[key]:.2f} s | {med[key] / med['bare'] - 1:+.0%} |")

    print(f"## Rendering every chart: {len(files)} SVG files (4 games, every chart, 2 languages), {workers} "
          f"parallel workers, {render.graphviz_version()}, best and median of {args.rounds} rounds\n")
    print("| run | wall (best) | vs bare | CPU (dot + Python, best) | vs bare | wall (median) | vs bare |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(f"| bare `dot -Tsvg` on the same DOT files | {bw:.2f} s | — | {bc:.2f} s | — | {med['bare']:.2f} s | — |")
    print(row("**render**: charts + DOT + dot + files (`render.write_charts`)", "render"))
    print(row("render + compile: `tcgtiming render rules …` in process, no cache", "cli"))
    print(row("the same, warm render cache", "cached"))
    pw = min(proc)
    print(f"| the same as a new process (+ Python start-up, imports), no cache | {pw:.2f} s | {pw / bw - 1:+.0%} "
          f"| | | {statistics.median(proc):.2f} s | {statistics.median(proc) / med['bare'] - 1:+.0%} |")
    rw, rc = best["render"]
    ok = rw / bw - 1 < BAR and rc / bc - 1 < BAR
    print(f"\nbar: render overhead over bare dot under {BAR:.0%} (best of {args.rounds}, wall and CPU): "
          f"{'met' if ok else 'MISSED'} (wall {rw / bw - 1:+.1%}, CPU {rc / bc - 1:+.1%})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

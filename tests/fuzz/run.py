"""The long fuzz run (``make fuzz``): seeded, for minutes, and it counts.

    python tests/fuzz/run.py [--seed N] [--minutes M] [--out DIR]

Three parts share the time (40 / 30 / 30 %):

  cli        command lines near valid ones (tests/fuzz/mutate.py), each run as its own process in a
             fresh copy of a workspace with hostile files (a FIFO, a link loop, a deep trace); a
             traceback or an exit code outside {0, 1, 2} counts as a traceback, a run over 60 s as
             a hang, a diagnostic printed without its line as unlocated
  rules      mutated rule files of the four games and the fixture game, through the front end; the
             valid ones drawn (DOT, Mermaid, tables of every chart, and one chart by graphviz), and
             every output checked to keep rule text as text (else it counts as unescaped)
  scenarios  mutated scenarios of every game, through the front end; the valid ones simulated (any
             policy, strict or not) and written in the three trace formats

In process, an input over 30 s is a hang (an alarm interrupts it) and so is running out of memory
(the address space is capped at 3 GiB). It prints the counts per part and in all, and writes every
failing input to DIR (default build/fuzz) to be replayed. Exit 1 when anything failed.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutate import MINI, ROOT, SCENARIOS, Chooser, located_output, mutate_argv, mutate_text, unlocated, workspace  # noqa: E402

sys.path.insert(0, str(ROOT / "generator"))
GAMES = [MINI] + sorted((ROOT / "rules").glob("*/game.yaml"))
CLI_TIMEOUT = 60
IN_PROCESS_TIMEOUT = 30


@dataclass
class Counts:
    inputs: int = 0
    tracebacks: int = 0
    hangs: int = 0
    unlocated: int = 0
    unescaped: int = 0  # rule text that became DOT, Mermaid or Markdown syntax, or a control character in an output
    valid: int = 0
    failures: list = field(default_factory=list)

    def fail(self, kind: str, what: dict) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        self.failures.append({"kind": kind, **what})


class Hang(Exception):
    pass


def _alarm(_sig, _frame):
    raise Hang


# --- the command line, one process an input ------------------------------------------------------------


def _cli_one(argv: list[str], base: Path, env: dict) -> dict:
    folder = Path(tempfile.mkdtemp(dir=base))
    ws = workspace(folder / "a" / "b" / "ws")
    try:
        p = subprocess.run([sys.executable, "-m", "tcgtiming", *argv], cwd=ws, env=env, capture_output=True,
                           text=True, errors="replace", timeout=CLI_TIMEOUT, stdin=subprocess.DEVNULL)
        return {"code": p.returncode, "out": p.stdout + p.stderr}
    except subprocess.TimeoutExpired:
        return {"code": None, "out": ""}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def fuzz_cli(rng: random.Random, until: float, base: Path) -> Counts:
    counts = Counts()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "generator"), "TCGTIMING_CACHE_DIR": str(base / "cache"),
           "HOME": str(base)}
    workers = max(1, min(4, os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        while time.time() < until:
            batch = [mutate_argv(Chooser(rng)) for _ in range(workers * 2)]
            for argv, r in zip(batch, pool.map(lambda a: _cli_one(a, base, env), batch)):
                counts.inputs += 1
                if r["code"] is None:
                    counts.fail("hangs", {"argv": argv})
                elif r["code"] not in (0, 1, 2) or "Traceback" in r["out"]:
                    counts.fail("tracebacks", {"argv": argv, "code": r["code"], "out": r["out"][-3000:]})
                elif located_output(r["out"]):
                    counts.fail("unlocated", {"argv": argv, "lines": located_output(r["out"])})
    return counts


# --- files, in process ---------------------------------------------------------------------------------


def _in_process(counts: Counts, what: dict, work) -> None:
    counts.inputs += 1
    signal.setitimer(signal.ITIMER_REAL, IN_PROCESS_TIMEOUT)
    try:
        work()
    except (Hang, MemoryError):
        counts.fail("hangs", what)
    except Exception:  # noqa: BLE001 - any exception is a traceback a user would see
        counts.fail("tracebacks", {**what, "traceback": traceback.format_exc()[-3000:]})
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def escaped(kind: str, out: str) -> bool:
    """Whether an output keeps rule text as text: no control character; in DOT every value quoted but
    the writer's HTML-like labels; in Mermaid (after its front matter) every '"' paired on its line;
    in a Markdown table no '<' at all."""
    from tcgtiming.core.text import UNSAFE_CHARS

    if UNSAFE_CHARS.search(out.replace("\r", "")):
        return False
    if kind == "dot":
        unquoted = [re.findall(r"(\w+)=<", re.sub(r'"(?:[^"\\]|\\.)*"', '""', ln)) for ln in out.splitlines()]
        return all(k == "label" for ks in unquoted for k in ks)
    if kind == "mermaid":
        return all(ln.count('"') % 2 == 0 for ln in out.split("---\n", 2)[-1].splitlines())
    if kind == "markdown":
        return "<" not in out
    return True


def _front_end(counts: Counts, text: str, name: str, rules: str | None = None):
    """The front end's result for a mutant; its unlocated diagnostics counted; None unless valid."""
    from tcgtiming.frontend.loader import load_bytes
    from tcgtiming.frontend.pipeline import compile_document

    res = compile_document(load_bytes(text.encode("utf-8", "surrogatepass"), name), rules)
    if res.game is None and not res.errors:
        raise AssertionError("no model, but no error")
    bad = unlocated(res.diagnostics, name, text)
    if bad:
        counts.fail("unlocated", {"file": name, "text": text, "diagnostics": [str(d) for d in bad]})
    if res.errors:
        return None
    counts.valid += 1
    return res


def fuzz_rules(rng: random.Random, until: float, base: Path) -> Counts:
    from tcgtiming.present import charts, tables

    counts = Counts()
    texts = {g: g.read_text(encoding="utf-8") for g in GAMES}
    drawn = 0
    while time.time() < until:
        game = rng.choice(GAMES)
        text = mutate_text(Chooser(rng), texts[game], rounds=4)
        name = str(game.relative_to(ROOT))

        def work():
            nonlocal drawn
            res = _front_end(counts, text, name)
            if res is None:
                return
            ids = charts.chart_ids(res.game)
            made = []
            for cid in ids:
                for lang in ("ja", "en"):
                    ch = charts.build_chart(res.game, cid, lang)
                    made += [("dot", charts.to_dot(ch)), ("mermaid", charts.to_mermaid(ch))]
            for lang in ("ja", "en"):
                made += [("markdown", tables.table_markdown(res.game, lang)), ("html", tables.table_html(res.game, lang)),
                         ("text", tables.table_text(res.game, lang))]
            wrong = [kind for kind, out in made if not escaped(kind, out)]
            if wrong:
                counts.fail("unescaped", {"file": name, "text": text, "outputs": sorted(set(wrong))})
            if drawn < 40:  # graphviz is slow: a sample of charts, through the cache
                drawn += 1
                charts.run_dot(charts.to_dot(charts.build_chart(res.game, rng.choice(ids), "ja")), "svg", base / "cache")

        _in_process(counts, {"game": name, "text": text}, work)
    return counts


def fuzz_scenarios(rng: random.Random, until: float, base: Path) -> Counts:
    from tcgtiming.runtime.engine import SimulationError, simulate, verify
    from tcgtiming.runtime.trace import as_jsonl, as_markdown, as_text

    counts = Counts()
    texts = {s: s.read_text(encoding="utf-8") for s in SCENARIOS}
    while time.time() < until:
        path = rng.choice(SCENARIOS)
        text = mutate_text(Chooser(rng), texts[path], rounds=3)
        policy, strict = rng.choice([None, "pass", "first", "random"]), rng.random() < 0.3
        name = str(path)

        def work():
            res = _front_end(counts, text, name, str(ROOT / "rules"))
            if res is None or res.scenario is None:
                return
            try:
                run = simulate(res.game, res.scenario, strict=strict, policy=policy)
            except SimulationError:
                return
            verify(run, res.scenario)
            names = {pid: n for pid, n, _ in res.scenario.players}
            for lang in ("ja", "en"):
                as_text(run, names, lang), as_markdown(run, names, lang, title="t")
            as_jsonl(run)

        _in_process(counts, {"scenario": name, "policy": policy, "strict": strict, "text": text}, work)
    return counts


# --- the run -------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--out", default=str(ROOT / "build" / "fuzz"))
    args = ap.parse_args(argv)
    cap = 3 * 1024 ** 3
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    signal.signal(signal.SIGALRM, _alarm)
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    start = time.time()
    total = args.minutes * 60
    parts = [("cli", fuzz_cli, 0.4), ("rules", fuzz_rules, 0.3), ("scenarios", fuzz_scenarios, 0.3)]
    results = {}
    with tempfile.TemporaryDirectory(prefix="tcgtiming-fuzz-") as tmp:
        base = Path(tmp)
        for i, (name, fn, share) in enumerate(parts):  # each part its share, even after another overran
            results[name] = fn(random.Random(args.seed * 10 + i), time.time() + total * share, base)
            sys.stdout.write(f"{name:>10}: {_line(results[name])}\n")
            sys.stdout.flush()
    all_ = Counts(**{k: sum(getattr(c, k) for c in results.values())
                     for k in ("inputs", "tracebacks", "hangs", "unlocated", "unescaped", "valid")})
    sys.stdout.write(f"{'all':>10}: {_line(all_)}\n")
    sys.stdout.write(f"seed {args.seed}, {time.time() - start:.0f} s, {os.cpu_count()} cores, "
                     f"python {sys.version.split()[0]}\n")
    for name, c in results.items():
        for i, f in enumerate(c.failures):
            (out / f"{name}-{i + 1}-{f['kind']}.json").write_text(json.dumps(f, ensure_ascii=False, indent=1),
                                                                  encoding="utf-8")
    failed = sum(len(c.failures) for c in results.values())
    if failed:
        sys.stdout.write(f"{failed} failing inputs written to {out}/\n")
    return 1 if failed else 0


def _line(c: Counts) -> str:
    return (f"{c.inputs} inputs ({c.valid} valid files), {c.tracebacks} tracebacks, {c.hangs} hangs, "
            f"{c.unlocated} unlocated diagnostics, {c.unescaped} unescaped outputs")


if __name__ == "__main__":
    sys.exit(main())

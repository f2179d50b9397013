"""Front-end speed: how long validation takes on the shipped rule files and on hostile input.

The issue's bar: every hostile input gets its diagnostic within a second. This measures each case
side by side in one run (median of N runs, wall clock) and prints a Markdown table; it exits 1 if a
case misses the bar or does not produce the expected code. Not a test: run it by hand or in CI
when you want the figures.

    .venv/bin/python benchmarks/frontend.py [--runs 5]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generator"))

from tcgtiming.frontend.pipeline import compile_file  # noqa: E402


def hostile_cases(folder: Path) -> list[tuple[str, Path, str]]:
    def write(name, data: bytes):
        p = folder / name
        p.write_bytes(data)
        return p

    bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, n in enumerate("bcdefghi"):
        bomb.append(f"{n}: &{n} [" + ",".join([f"*{'abcdefghi'[i]}"] * 9) + "]")
    big = folder / "big.yaml"
    with open(big, "wb") as fh:
        fh.write(b"a: b\n" * (50 * 1024 * 1024 // 5))
    near = b"".join(b"k%d: %s\n" % (i, b"x" * 50) for i in range(17_000))  # just under 1 MiB
    dups = b"k: " + b"x" * 60 + b"\n"
    return [
        ("malformed YAML", write("malformed.yaml", b"game:\n  id: x\n  name: {ja: a, en: b\nturn: 1\n"), "Y101"),
        ("tab in indentation", write("tab.yaml", b"game:\n\tid: x\n"), "Y102"),
        ("duplicate keys", write("dup.yaml", b"game:\n  id: a\n  id: b\n"), "Y103"),
        ("YAML 1.1 'no'", write("no.yaml", b"game:\n  id: x\nmay: no\n"), "Y104"),
        ("YAML 1.1 '1:30'", write("sexa.yaml", b"game:\n  id: x\nt: 1:30\n"), "Y104"),
        ("billion laughs", write("bomb.yaml", "\n".join(bomb).encode()), "Y105"),
        ("nesting 100,000 deep", write("deep.yaml", b"a: " + b"[" * 100_000 + b"]" * 100_000), "Y106"),
        ("50 MB file", big, "Y107"),
        ("1 MiB of YAML (at the size limit)", write("near.yaml", near), "S200"),
        ("16,000 duplicate keys", write("dups.yaml", dups * 16_000), "Y103"),
        ("Shift_JIS bytes", write("sjis.yaml", "game:\n  name: 日本\n".encode("shift_jis")), "Y108"),
        ("binary bytes", write("bin.yaml", os.urandom(4096) + b"\x00"), "Y108"),
        ("empty file", write("empty.yaml", b""), "Y109"),
    ]


def median_time(path: Path, runs: int) -> tuple[float, list]:
    times, res = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        res = compile_file(path)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), res.diagnostics


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    ok = True
    print(f"## Front end ({args.runs} runs each, median wall time)\n")
    print("| input | bytes | time | diagnostics | codes | bar |")
    print("|---|---:|---:|---:|---|---|")
    rule_files = sorted((ROOT / "rules").glob("*/game.yaml")) + [ROOT / "tests/fixtures/mini/game.yaml"]
    for p in rule_files:
        t, diags = median_time(p, args.runs)
        print(f"| {p.relative_to(ROOT)} | {p.stat().st_size:,} | {t * 1000:.1f} ms | {len(diags)} | "
              f"{diags[0].code if diags else '—'} | valid |")
    with tempfile.TemporaryDirectory() as tmp:
        for name, path, want in hostile_cases(Path(tmp)):
            t, diags = median_time(path, args.runs)
            codes = sorted({d.code for d in diags})
            code = ", ".join(codes) or "—"
            good = t < 1.0 and want in codes
            ok &= good
            print(f"| {name} | {path.stat().st_size:,} | {t * 1000:.1f} ms | {len(diags)} | {code} | "
                  f"{'< 1 s, ' + want if good else 'MISSED (want ' + want + ' < 1 s)'} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

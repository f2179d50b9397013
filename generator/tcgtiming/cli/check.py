"""tcgtiming check: run ruling files like a test runner - one line per ruling, each failure
explained (expected vs found, located in the ruling file, the trace entries around it), a summary
line, exit 1 on any failure; ``--junit FILE`` for CI systems."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from ..core.diagnostics import Diagnostic
from ..frontend.pipeline import compile_file
from ..present.report import Style, format_text, use_color
from .common import print_diags, write_atomic


def ruling_files(paths: list[str]) -> list[str]:
    """Ruling files: each file given, and every rulings/*.yaml below each folder given."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(str(f) for f in Path(p).rglob("*.yaml") if f.parent.name == "rulings")
        else:
            out.append(p)
    return out


def run(args) -> int:
    from ..runtime.expect import diagnostics
    from ..runtime.narrate import Narrator
    from ..runtime.rulings import around, check_ruling

    paths = args.paths or ["rules"]
    for p in paths:
        if not os.path.exists(p):
            sys.stderr.write(format_text(Diagnostic("U401", f"no such file or directory: {p}", p, 0, 0), None) + "\n")
            return 2
    files = ruling_files(paths)
    if not files:
        sys.stderr.write(format_text(Diagnostic("U401", f"no ruling file (rulings/*.yaml) under {', '.join(paths)}",
                                                paths[0], 0, 0), None) + "\n")
        return 2
    style = Style(use_color(sys.stdout))
    verdicts, invalid, texts = [], 0, {}
    for f in files:
        res = compile_file(f, rules=args.rules)
        if res.errors or res.ruling is None:
            sys.stdout.write(f"INVALID {f}\n")
            print_diags([res], "text", [f])
            invalid += 1
            continue
        r = res.ruling
        v = check_ruling(r, res.game)
        verdicts.append(v)
        mark = "ok  " if v.passed else "FAIL"
        sys.stdout.write(f"{mark} {f}  {r.id}: {r.question.get(args.lang)}\n")
        if not v.passed:
            lines = []
            for d, fl in zip(diagnostics(v.failures, res.game, r.scenario, args.lang), v.failures):
                lines.append(format_text(d, _line(d), style))
                if fl.entry is not None and v.run is not None:
                    n = Narrator(res.game, r.scenario, args.lang)
                    for e in around(v.run, fl.entry.seq):
                        here = ">" if e.seq == fl.entry.seq else " "
                        lines.append(f"   {here} #{e.seq} {e.node}: {n.entry(e)}")
            texts[r.id] = "\n".join(lines)
            sys.stdout.write(texts[r.id] + "\n\n")
    passed = sum(1 for v in verdicts if v.passed)
    failed = len(verdicts) - passed
    sys.stdout.write(f"{passed} passed, {failed} failed" + (f", {invalid} invalid" if invalid else "") + "\n")
    if args.junit:
        from ..present.junit import junit

        write_atomic(args.junit, junit(verdicts, args.lang, lambda v: texts.get(v.ruling.id, "")))
    return 1 if failed or invalid else 0


def _line(d: Diagnostic) -> str | None:
    from ..core.text import editor_lines

    try:
        with open(d.file, encoding="utf-8") as fh:
            lines = editor_lines(fh.read())
        return lines[d.line - 1] if 0 < d.line <= len(lines) else None
    except OSError:
        return None

"""tcgtiming simulate: run the turns a scenario describes and print the narrated trace."""
from __future__ import annotations

import os
import sys

from ..core.diagnostics import Diagnostic
from ..frontend.pipeline import compile_file
from ..present.report import Style, format_text, use_color
from ..runtime.engine import SimulationError, simulate, verify
from ..runtime.trace import as_jsonl, as_markdown, as_text
from .common import print_diags, write_atomic


def run(args) -> int:
    for path in args.scenarios:
        if not os.path.isfile(path):
            sys.stderr.write(format_text(Diagnostic("U401", f"no such file: {path}", path, 0, 0), None) + "\n")
            return 2
    if args.rules and not os.path.exists(args.rules):
        sys.stderr.write(format_text(Diagnostic("U401", f"no such file or directory: {args.rules}", args.rules, 0, 0), None) + "\n")
        return 2
    if len(args.scenarios) > 1 and not args.out_dir:
        sys.stderr.write("tcgtiming simulate: several scenarios need --out-dir\n")
        return 2
    status = 0
    for path in args.scenarios:
        res = compile_file(path, rules=args.rules)
        if res.errors or res.scenario is None:
            print_diags([res], "text", [path])
            status = 1
            continue
        sc = res.scenario
        try:
            run = simulate(res.game, sc, strict=args.strict, policy=args.policy)
        except SimulationError as exc:
            loc = exc.loc
            d = Diagnostic(exc.code, exc.message, loc.file if loc else sc.file, loc.line if loc else 0,
                           loc.col if loc else 0, help=exc.help)
            line = None
            if loc is not None:
                try:
                    with open(loc.file, encoding="utf-8") as fh:
                        lines = fh.read().splitlines()
                    line = lines[loc.line - 1] if 0 < loc.line <= len(lines) else None
                except OSError:
                    pass
            sys.stdout.write(format_text(d, line, Style(use_color(sys.stdout))) + "\n")
            status = 1
            continue
        names = {pid: name for pid, name, _ in sc.players}
        failed = verify(run, sc)
        for msg in failed:
            sys.stderr.write(format_text(Diagnostic("R505", msg, sc.file, 0, 0), None) + "\n")
        for at, loc in run.unused_choices:
            what = f"scripted choice at '{at}'" if at else "scripted choice (answering decisions in order)"
            sys.stderr.write(format_text(Diagnostic("R504", f"{what} was never used",
                                                    loc.file, loc.line, loc.col), None) + "\n")
        if failed:
            status = 1
        if args.out_dir:
            base = os.path.join(args.out_dir, sc.game, os.path.splitext(os.path.basename(path))[0])
            write_atomic(base + ".txt", as_text(run, names, args.lang, brief=args.brief))
            write_atomic(base + ".jsonl", as_jsonl(run))
            write_atomic(base + ".md", as_markdown(run, names, args.lang, title=sc.title.get(args.lang), brief=args.brief))
            sys.stderr.write(f"wrote {base}.txt/.jsonl/.md ({len(run.entries)} entries)\n")
            continue
        if args.format == "json":
            text = as_jsonl(run)
        elif args.format == "markdown":
            text = as_markdown(run, names, args.lang, title=sc.title.get(args.lang), brief=args.brief)
        else:
            text = as_text(run, names, args.lang, colour=not args.out and use_color(sys.stdout), brief=args.brief)
        if args.out:
            write_atomic(args.out, text)
            sys.stderr.write(f"wrote {args.out} ({len(run.entries)} entries)\n")
        else:
            sys.stdout.write(text)
    return status

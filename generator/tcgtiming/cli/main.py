"""The command line: ``tcgtiming validate | compile | schema | codes``.

Exit codes: 0 success (valid input), 1 invalid input (diagnostics printed), 2 usage error.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from .. import __version__
from ..core.diagnostics import CODES, Diagnostic
from ..frontend.pipeline import compile_file, find_rule_files
from ..core.model import as_data
from ..present.report import Style, as_json, format_text, summary, use_color


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: exit 2 with a short message (argparse's default)
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _inputs(paths: list[str]) -> tuple[list[str], list[Diagnostic]]:
    files, problems = [], []
    for p in paths:
        if not os.path.exists(p):
            problems.append(Diagnostic("U401", f"no such file or directory: {p}", p, 0, 0))
            continue
        found = find_rule_files(p)
        if not found:
            problems.append(Diagnostic("U401", f"no .yaml file under {p}", p, 0, 0))
        files += found
    return files, problems


def _print_diags(results, fmt: str, files: list[str]) -> None:
    diags = [d for r in results for d in r.diagnostics]
    if fmt == "json":
        sys.stdout.write(as_json(diags, files) + "\n")
        return
    style = Style(use_color(sys.stdout))
    for r in results:
        for d in r.diagnostics:
            line = r.doc.line_text(d.line) if r.doc is not None and r.doc.text else None
            sys.stdout.write(format_text(d, line, style) + "\n\n")
    sys.stdout.write(summary(diags, len(files)) + "\n")


def cmd_validate(args) -> int:
    files, problems = _inputs(args.paths)
    if problems:
        for d in problems:
            sys.stderr.write(format_text(d, None) + "\n")
        return 2
    results = [compile_file(f) for f in files]
    _print_diags(results, args.format, files)
    bad = any(r.errors for r in results) or (args.strict and any(r.warnings for r in results))
    return 1 if bad else 0


def cmd_compile(args) -> int:
    files, problems = _inputs([args.rules])
    if problems:
        for d in problems:
            sys.stderr.write(format_text(d, None) + "\n")
        return 2
    results = [compile_file(f) for f in files]
    if any(r.errors for r in results):
        _print_diags(results, "text", files)
        return 1
    games = {r.game.id: as_data(r.game) for r in results}
    text = json.dumps(games if len(games) != 1 else next(iter(games.values())), ensure_ascii=False, indent=2,
                      sort_keys=False) + "\n"
    if args.out:
        _write_atomic(args.out, text)
        sys.stderr.write(f"wrote {args.out}\n")
    else:
        sys.stdout.write(text)
    return 0


def cmd_simulate(args) -> int:
    from ..runtime.engine import SimulationError, simulate, verify
    from ..runtime.trace import as_jsonl, as_markdown, as_text

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
            _print_diags([res], "text", [path])
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
            _write_atomic(base + ".txt", as_text(run, names, args.lang, brief=args.brief))
            _write_atomic(base + ".jsonl", as_jsonl(run))
            _write_atomic(base + ".md", as_markdown(run, names, args.lang, title=sc.title.get(args.lang), brief=args.brief))
            sys.stderr.write(f"wrote {base}.txt/.jsonl/.md ({len(run.entries)} entries)\n")
            continue
        if args.format == "json":
            text = as_jsonl(run)
        elif args.format == "markdown":
            text = as_markdown(run, names, args.lang, title=sc.title.get(args.lang), brief=args.brief)
        else:
            text = as_text(run, names, args.lang, colour=not args.out and use_color(sys.stdout), brief=args.brief)
        if args.out:
            _write_atomic(args.out, text)
            sys.stderr.write(f"wrote {args.out} ({len(run.entries)} entries)\n")
        else:
            sys.stdout.write(text)
    return status


def cmd_schema(args) -> int:
    from ..frontend.schema import json_schema

    if args.kind == "scenario":
        from ..frontend.scenario import json_schema as scenario_schema

        data = scenario_schema()
    else:
        data = json_schema()
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    if args.check:
        try:
            with open(args.check, encoding="utf-8") as fh:
                current = fh.read()
        except OSError as exc:
            sys.stderr.write(f"cannot read {args.check}: {exc.strerror}\n")
            return 1
        return _report_current(current == text, f"{args.check} is current",
                               f"{args.check} is stale: run 'tcgtiming schema --out {args.check}'")
    if args.out:
        _write_atomic(args.out, text)
        sys.stderr.write(f"wrote {args.out}\n")
    else:
        sys.stdout.write(text)
    return 0


def cmd_codes(args) -> int:
    if args.format == "json":
        sys.stdout.write(json.dumps([{"code": c.code, "name": c.name, "severity": c.severity, "summary": c.summary}
                                     for c in CODES.values()], indent=2) + "\n")
    else:
        for c in CODES.values():
            sys.stdout.write(f"{c.code}  {c.severity:<7}  {c.name:<18}  {c.summary}\n")
    return 0


def cmd_reference(args) -> int:
    from ..present.reference import BLOCKS, refresh

    if not args.file:
        for name, make in BLOCKS.items():
            sys.stdout.write(f"## {name}\n\n{make(Path.cwd())}\n\n")
        return 0
    try:
        with open(args.file, encoding="utf-8") as fh:
            current = fh.read()
    except OSError as exc:
        sys.stderr.write(f"cannot read {args.file}: {exc.strerror}\n")
        return 2
    fresh = refresh(current, Path(args.file).resolve().parent)
    if args.check:
        return _report_current(fresh == current, f"{args.file}: generated reference tables are current",
                               f"{args.file}: generated reference tables are stale: run "
                               f"'tcgtiming reference --update {args.file}'")
    if fresh != current:
        _write_atomic(args.file, fresh)
        sys.stderr.write(f"updated {args.file}\n")
    return 0


def _report_current(ok: bool, current: str, stale: str) -> int:
    """The check mode of generated files (ruff-style): exit 1, saying how to refresh them, when stale."""
    if not ok:
        sys.stderr.write(stale + "\n")
        return 1
    sys.stdout.write(current + "\n")
    return 0


def _write_atomic(path: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tcgtiming", description="The timing of trading card game turns: validate, compile, "
                "simulate and chart rule definitions of a turn's phases, steps, check timings and priority windows.")
    p.add_argument("--version", action="version", version=f"tcgtiming {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    v = sub.add_parser("validate", help="check rule files and report every problem",
                       description="Check rule files (or every .yaml under a directory) and report every problem "
                       "as file:line:col: error[CODE]: message. Exit 0 when valid, 1 when invalid, 2 on usage errors.")
    v.add_argument("paths", nargs="+", metavar="PATH", help="rule files or directories")
    v.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for editors and CI")
    v.add_argument("--strict", action="store_true", help="treat warnings as errors")
    v.set_defaults(func=cmd_validate)

    c = sub.add_parser("compile", help="compile a rule file and print the model as JSON",
                       description="Compile a rule file into the timing graph (nodes with stable ids and explicit "
                       "edges) and print it as JSON. Exit 1 (with diagnostics) when the file is invalid.")
    c.add_argument("rules", metavar="RULES", help="a rule file or a directory of rule files")
    c.add_argument("--out", metavar="FILE", help="write to FILE (atomically) instead of standard output")
    c.set_defaults(func=cmd_compile)

    s = sub.add_parser("schema", help="print the JSON Schema of rule files or scenario files",
                       description="Print the JSON Schema of rule files or scenario files (for editors: "
                       "'# yaml-language-server: $schema=...'), write it, or check that a copy is current.")
    s.add_argument("--kind", choices=("rules", "scenario"), default="rules", help="which file kind (default: rules)")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--out", metavar="FILE", help="write the schema to FILE")
    g.add_argument("--check", metavar="FILE", help="exit 1 when FILE differs from the current schema")
    s.set_defaults(func=cmd_schema)

    # --- render command (charts) ---
    from ..present.charts import add_parser as add_render_parser
    add_render_parser(sub)
    from ..present.site import add_parser as add_site_parser
    add_site_parser(sub)
    # --- simulate command (interpreter) ---
    sm = sub.add_parser("simulate", help="run a turn from a scenario and print the narrated trace",
                        description="Run the turn(s) a scenario describes on the compiled rules of its game and print "
                        "the trace: every node visited, who acts, pending abilities, the stack, who holds priority, "
                        "and the rule it follows. Exit 1 with located diagnostics when the scenario or the rules are "
                        "invalid, when a scripted choice cannot be carried out, or (with --strict) when a decision is "
                        "not scripted.")
    sm.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="a scenario file (several with --out-dir)")
    sm.add_argument("--rules", metavar="DIR", help="the rules folder (or the game's rule file); default: the game.yaml "
                    "above the scenario's folder, or rules/<game>/game.yaml")
    sm.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                    help="text (colour-coded when on a terminal), json (JSON Lines), markdown")
    sm.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the narration (text, markdown)")
    sm.add_argument("--strict", action="store_true", help="an unscripted decision is an error instead of a policy's pick")
    sm.add_argument("--policy", choices=("pass", "first", "random"), help="override the scenario's policy for unscripted decisions")
    sm.add_argument("--brief", action="store_true",
                    help="text and markdown: fold procedure runs in which nothing happens into their call (json keeps every entry)")
    out = sm.add_mutually_exclusive_group()
    out.add_argument("--out", metavar="FILE", help="write the trace to FILE (atomically) instead of standard output")
    out.add_argument("--out-dir", metavar="DIR", help="write DIR/<game>/<scenario>.txt, .jsonl and .md for each scenario")
    sm.set_defaults(func=cmd_simulate)

    k = sub.add_parser("codes", help="list every diagnostic code",
                       description="List every diagnostic code with its severity and meaning.")
    k.add_argument("--format", choices=("text", "json"), default="text")
    k.set_defaults(func=cmd_codes)
    r = sub.add_parser("reference", help="print or refresh the generated reference tables",
                       description="Print the tables of diagnostic codes, predicates and actions, or refresh the "
                       "generated blocks of a Markdown file (<!-- BEGIN GENERATED: name --> ... <!-- END GENERATED: "
                       "name -->). With --check, exit 1 when they are stale.")
    r.add_argument("file", nargs="?", metavar="FILE", help="a Markdown file with generated blocks (e.g. README.md)")
    mode = r.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 when FILE's generated blocks are stale")
    mode.add_argument("--update", action="store_true", help="rewrite FILE's generated blocks (the default with FILE)")
    r.set_defaults(func=cmd_reference)
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if not getattr(args, "func", None):
        p.print_help(sys.stderr)
        return 2
    try:
        return args.func(args)
    except OSError as exc:  # an output that cannot be written: a usage error, never a traceback
        where = exc.filename or "output"
        sys.stderr.write(f"tcgtiming {args.command}: error: cannot write {where}: {exc.strerror or exc}\n")
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

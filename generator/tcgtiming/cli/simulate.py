"""tcgtiming simulate: run the turns a scenario describes and print the narrated trace (JSON Lines
and plain text are written entry by entry as the run goes)."""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

from ..core.diagnostics import Diagnostic
from ..core.text import editor_lines
from ..frontend.pipeline import compile_file
from ..present.outputs import output_set
from ..present.report import Style, format_text, use_color
from ..runtime.engine import SimulationError, program_for, simulate
from ..runtime.expect import Checking, diagnostics, expects_refusal, refusal
from ..runtime.trace import Stream, as_jsonl, as_markdown, as_text
from .common import print_diags, write_atomic


@contextlib.contextmanager
def _written(path: str | None):
    """A write function for standard output, or for a file that replaces ``path`` only when the run
    succeeds (a temporary file beside it until then)."""
    if path is None:
        yield sys.stdout.write
        return
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh.write
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _line_text(path: str, n: int) -> str | None:
    if not n:
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            lines = editor_lines(fh.read())
    except (OSError, UnicodeDecodeError):
        return None
    return lines[n - 1] if 0 < n <= len(lines) else None


def _diagnose(diags: list[Diagnostic]) -> None:
    """The diagnostics of a run, as text with the source line, on standard error: standard output
    carries only the trace, whatever its format."""
    style = Style(use_color(sys.stderr))
    for d in diags:
        sys.stderr.write(format_text(d, _line_text(d.file, d.line), style) + "\n")


def _refusal(exc: SimulationError, sc) -> Diagnostic:
    loc = exc.loc
    return Diagnostic(exc.code, exc.message, loc.file if loc else sc.file, loc.line if loc else 0,
                      loc.col if loc else 0, help=exc.help)


def _unused(run, strict: bool) -> list[Diagnostic]:
    """R504 for each choice the run never reached, R507 for each whose data its decision did not read
    (an error with --strict)."""
    out = []
    for at, loc in run.unused_choices:
        what = f"scripted choice at '{at}'" if at else "scripted choice (answering decisions in order)"
        out.append(Diagnostic("R504", f"{what} was never used", loc.file, loc.line, loc.col))
    for at, loc, keys in run.unused_choice_data:
        out.append(Diagnostic("R507", f"the choice at '{at or 'the next decision'}' gives {', '.join(keys)}, which the "
                                      "decision it answered did not use", loc.file, loc.line, loc.col,
                              help="give it at the node whose decision uses it (the node of that card or ability)",
                              escalated=strict))
    return out


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
    with contextlib.ExitStack() as stack:  # --out-dir: every file of the run swapped into place as one unit
        stage = stack.enter_context(output_set(Path(args.out_dir), "simulate")) if args.out_dir else None
        return _run_all(args, stage)


def _run_all(args, stage: Path | None) -> int:
    status = 0
    for path in args.scenarios:
        res = compile_file(path, rules=args.rules)
        if res.errors or res.scenario is None:
            print_diags([res], "text", [path], stream=sys.stderr)
            status = 1
            continue
        sc = res.scenario
        streamed = not args.out_dir and args.format in ("json", "text") and not args.brief
        checking = Checking(program_for(res.game, len(sc.players)), sc)
        try:
            if streamed:
                with _written(args.out) as write:
                    colour = args.format == "text" and not args.out and use_color(sys.stdout)
                    stream = Stream(program_for(res.game, len(sc.players)), sc, write, args.format, args.lang, colour,
                                    observe=checking.feed if checking.needed else None)
                    run = simulate(res.game, sc, strict=args.strict, policy=args.policy, sink=stream)
                    stream.finish(run)
                count = stream.seq
            else:
                run = simulate(res.game, sc, strict=args.strict, policy=args.policy)
                count = len(run.entries)
                for e in run.entries if checking.needed else ():
                    checking.feed(e)
        except SimulationError as exc:
            if expects_refusal(sc):
                failed = refusal(sc, exc)
                _diagnose(diagnostics(failed, res.game, sc, args.lang))
                status = status or (1 if failed else 0)
                continue
            _diagnose([_refusal(exc, sc)])
            status = 1
            continue
        failed = checking.finish(run)
        diags = diagnostics(failed, res.game, sc, args.lang) + _unused(run, args.strict)
        _diagnose(diags)
        if failed or any(d.severity == "error" for d in diags):
            status = 1
        if stage is not None:
            rel = os.path.join(sc.game, os.path.splitext(os.path.basename(path))[0])
            os.makedirs(stage / sc.game, exist_ok=True)
            for ext, text in ((".txt", as_text(run, None, args.lang, brief=args.brief)), (".jsonl", as_jsonl(run, args.lang)),
                              (".md", as_markdown(run, None, args.lang, title=sc.title.get(args.lang), brief=args.brief))):
                (stage / (rel + ext)).write_text(text, encoding="utf-8", newline="\n")
            sys.stderr.write(f"wrote {os.path.join(args.out_dir, rel)}.txt/.jsonl/.md ({count} entries)\n")
            continue
        if not streamed:
            text = as_markdown(run, None, args.lang, title=sc.title.get(args.lang), brief=args.brief) \
                if args.format == "markdown" else \
                as_text(run, None, args.lang, colour=not args.out and use_color(sys.stdout), brief=args.brief)
            if args.out:
                write_atomic(args.out, text)
            else:
                sys.stdout.write(text)
        if args.out:
            sys.stderr.write(f"wrote {args.out} ({count} entries)\n")
    return status

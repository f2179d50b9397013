"""What every command shares: finding inputs, printing diagnostics, writing outputs atomically."""
from __future__ import annotations

import errno
import os
import sys

from ..core.diagnostics import Diagnostic
from ..frontend.pipeline import find_rule_files
from ..present.outputs import write_file
from ..present.report import Style, as_json, format_text, summary, use_color


def inputs(paths: list[str]) -> tuple[list[str], list[Diagnostic]]:
    """The rule files named by paths (files, or every .yaml below a folder), and what is missing."""
    files, problems = [], []
    for p in paths:
        if not os.path.lexists(p):  # a dangling or looping symbolic link is the loader's to report
            problems.append(Diagnostic("U401", f"no such file or directory: {p}", p, 0, 0))
            continue
        found = find_rule_files(p)
        if not found:
            problems.append(Diagnostic("U401", f"no .yaml file under {p}", p, 0, 0))
        files += found
    return files, problems


def compiled(paths: list[str]) -> tuple[list, int]:
    """The compiled results of the rule files the paths name, and 0; or [] and the exit code (2: a
    path is missing, 1: a file is invalid), the problems printed."""
    from ..frontend.pipeline import add_collisions, compile_file

    files, problems = inputs(paths)
    if problems:
        print_usage_problems(problems)
        return [], 2
    results = [compile_file(f) for f in files]
    add_collisions(results)
    if any(r.errors for r in results):
        print_diags(results, "text", files)
        return [], 1
    return results, 0


def print_usage_problems(problems: list[Diagnostic]) -> None:
    for d in problems:
        sys.stderr.write(format_text(d, None) + "\n")


def print_diags(results, fmt: str, files: list[str], stream=None) -> None:
    """The diagnostics of front-end results, located with their source line, then the summary line
    (on standard output, or on ``stream``: standard error when standard output carries a command's
    own output)."""
    out = stream or sys.stdout
    diags = [d for r in results for d in r.diagnostics]
    if fmt == "json":
        out.write(as_json(diags, files) + "\n")
        return
    style = Style(use_color(out))
    for r in results:
        for d in r.diagnostics:
            line = r.doc.line_text(d.line) if r.doc is not None and r.doc.text else None
            out.write(format_text(d, line, style) + "\n\n")
    out.write(summary(diags, len(files)) + "\n")


def report_current(ok: bool, current: str, stale: str) -> int:
    """The check mode of generated files (ruff-style): exit 1, saying how to refresh them, when stale."""
    if not ok:
        sys.stderr.write(stale + "\n")
        return 1
    sys.stdout.write(current + "\n")
    return 0


def write_atomic(path: str, text: str) -> None:
    """Write one output file as one unit (``present.outputs.write_file``)."""
    write_file(path, text)


_NAMED = {errno.ENOSPC: "disk full (no space left on the device)", errno.EDQUOT: "disk quota exceeded",
          errno.EROFS: "read-only file system"}


def os_error_text(exc: OSError) -> str:
    """What went wrong, as a message says it: a full disk named as such."""
    return _NAMED.get(exc.errno) or exc.strerror or str(exc)


def emit(text: str, out: str | None) -> None:
    """A command's output: to the file --out names (atomically, saying so on stderr), else to stdout."""
    if out:
        write_atomic(out, text)
        sys.stderr.write(f"wrote {out}\n")
    else:
        sys.stdout.write(text)

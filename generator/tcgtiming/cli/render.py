"""tcgtiming render: charts and timing tables.

The rule files are compiled as the charts are drawn (the biggest file first: dot starts early and
Python's work overlaps with it), unless a trace must first be checked against every game, or nothing
is drawn at all. Files are drawn into a staging folder beside the output folder and swapped into place
as one unit only when every input was valid and every chart was drawn (``present.outputs``).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from ..core.diagnostics import Diagnostic, did_you_mean
from ..core.model import Game
from ..frontend.pipeline import add_collisions, compile_file
from ..present import tables
from ..present.charts import (Overlay, RenderError, TraceError, cache_dir, chart_ids, chart_jobs, resolve_chart_id,
                              trace_overlays, write_jobs)
from ..present.outputs import check_target
from ..present.report import Style, format_text, summary, use_color
from .common import inputs, os_error_text, print_diags, print_usage_problems

SKIP_DIRS = {"scenarios", "rulings"}  # below a game's folder: not rule files


def run(args) -> int:
    langs = list(dict.fromkeys(args.lang or ["ja"]))
    formats = list(dict.fromkeys(args.formats or ["svg"]))
    if args.jobs is not None and args.jobs < 1:
        return _error("--jobs must be 1 or more", 2)
    files, problems = _rule_files(args)
    if problems:
        print_usage_problems(problems)
        return 2
    r = _Render(args, files, langs, formats)
    if not r.streaming:
        for f in files:
            r.compile_one(f)
        if r.failed():
            return r.invalid()
    if args.trace:
        try:
            r.overlays = trace_overlays(args.trace, r.games)
        except TraceError as exc:
            _print_located(exc.diagnostics, exc.lines)
            return 1
        for g, ov in r.overlays.items():
            if ov.gaps:
                sys.stderr.write(f"note: trace {args.trace}: {ov.gaps} consecutive entr"
                                 f"{'y pair has' if ov.gaps == 1 else 'y pairs have'} no edge between them in "
                                 f"game '{g}' (not drawn)\n")
        for g in [g for g in r.games if g not in r.overlays]:  # a trace draws only its own games
            del r.games[g]
    if not r.chart_formats and not r.tables_to_files:  # tables on standard output only
        for game in r.games.values():
            r.charts_of(game)
        if args.phase and not r.selected:
            return r.no_such_chart()
        r.print_tables()
        return 0
    return _write(r, Path(args.out or os.path.join("build", "charts")), "table" in formats and args.out is None)


def _error(message: str, code: int) -> int:
    sys.stderr.write(f"tcgtiming render: error: {message}\n")
    return code


def _rule_files(args) -> tuple[list[str], list[Diagnostic]]:
    """The rule files to draw (those of a folder: not its scenarios, rulings), and what is missing."""
    files, problems = inputs([args.rules])
    if args.trace and not os.path.isfile(args.trace):
        problems.append(Diagnostic("U401", f"no such trace file: {args.trace}", args.trace, 0, 0))
    if not problems and os.path.isdir(args.rules):
        files = [f for f in files if not set(Path(os.path.relpath(f, args.rules)).parts[:-1]) & SKIP_DIRS]
        if not files:
            problems.append(Diagnostic("U401", f"no rule file under {args.rules}", args.rules, 0, 0))
    return files, problems


def _print_located(diags: list[Diagnostic], lines: list[str]) -> None:
    """Diagnostics of one file (a trace) with their source line, then the summary line."""
    style = Style(use_color(sys.stdout))
    for d in diags:
        src = lines[d.line - 1] if d.line and d.line <= len(lines) else None
        sys.stdout.write(format_text(d, src, style) + "\n\n")
    sys.stdout.write(summary(diags, 1) + "\n")


class _Render:
    """One run of the command: the rule files compiled so far, their games, the charts chosen."""

    def __init__(self, args, files: list[str], langs: list[str], formats: list[str]):
        self.args, self.files, self.langs = args, files, langs
        self.chart_formats = [f for f in formats if f != "table"]
        self.tables_to_files = "table" in formats and args.out is not None
        self.streaming = not args.trace and bool(self.chart_formats)
        self.results: dict[str, object] = {}
        self.games: dict[str, Game] = {}
        self.overlays: dict[str, Overlay] = {}
        self.selected: dict[str, list[str]] = {}

    def compile_one(self, f: str) -> Game | None:
        r = self.results[f] = compile_file(f)
        add_collisions(list(self.results.values()))  # a game id given twice is an error, not a lost chart
        if r.game is not None and not r.errors and r.game.id not in self.games:
            self.games[r.game.id] = r.game
            return r.game
        return None

    def failed(self) -> bool:
        return any(r.errors for r in self.results.values())

    def invalid(self) -> int:
        """Report the compile errors (the same reporting as 'validate')."""
        print_diags([self.results[f] for f in self.files], "text", self.files)
        return 1

    def charts_of(self, game: Game) -> list[str]:
        if self.args.phase:
            cid = resolve_chart_id(game, self.args.phase)
            cids = [cid] if cid is not None else []
        else:
            cids = chart_ids(game)
        if cids:
            self.selected[game.id] = cids
        return cids

    def no_such_chart(self) -> int:
        cands = sorted({c for g in self.games.values() for c in chart_ids(g)})
        hint = did_you_mean(self.args.phase, cands)
        return _error(f"no phase, procedure or 'turn' named '{self.args.phase}' in "
                      f"{', '.join(sorted(self.games))}" + (f": {hint}" if hint else ""), 2)

    def jobs(self):
        if self.streaming:
            for f in sorted(self.files, key=lambda f: -os.path.getsize(f)):
                game = self.compile_one(f)
                if game is not None and not self.failed():
                    yield from chart_jobs(game, self.charts_of(game), self.langs, self.chart_formats)
        else:
            for game in list(self.games.values()):
                yield from chart_jobs(game, self.charts_of(game), self.langs, self.chart_formats,
                                      self.overlays.get(game.id))
        if self.tables_to_files and not self.failed():
            for gid in self.selected:
                yield from tables.table_jobs(self.games[gid], self.langs)

    def print_tables(self) -> None:
        for gid in self.selected:
            for lang in self.langs:
                sys.stdout.write(tables.table_text(self.games[gid], lang) + "\n")


class _Abort(Exception):
    """An input turned out invalid while the charts were drawn: nothing is moved into place."""


def _write(r: _Render, out: Path, tables_to_stdout: bool) -> int:
    """Draw the files into out, then say what was written."""
    created = _first_missing(out)
    try:
        check_target(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        probe = tempfile.mkdtemp(dir=out.parent, prefix=f".render-{out.name}-")  # can we write beside it?
        os.rmdir(probe)
    except OSError as exc:
        _remove_empty(out.parent, created)
        return _error(f"cannot write to {out}: {os_error_text(exc)}", 2)

    def checked():  # stop before anything is moved into place when an input turned out invalid
        yield from r.jobs()
        if r.failed() or (r.args.phase and not r.selected):
            raise _Abort

    moved: list[Path] = []
    try:
        moved, hits = write_jobs(checked(), out, None if r.args.no_cache else cache_dir(), r.args.jobs)
    except _Abort:
        return r.invalid() if r.failed() else r.no_such_chart()
    except RenderError as exc:
        return _error(str(exc), 1)
    except OSError as exc:
        return _error(f"cannot write {exc.filename or out}: {os_error_text(exc)}", 1)
    finally:
        if not moved:
            _remove_empty(out, created)
            _remove_empty(out.parent, created)
    if tables_to_stdout:
        r.print_tables()
    per_dir: dict[Path, int] = {}
    for p in moved:
        per_dir[p.parent] = per_dir.get(p.parent, 0) + 1
    if len(moved) <= 12:
        for p in moved:
            sys.stdout.write(f"wrote {p}\n")
    else:
        for d, n in per_dir.items():
            sys.stdout.write(f"wrote {n} files to {d}/\n")
    cached = f" ({hits} from the cache)" if hits else ""
    sys.stdout.write(f"{len(moved)} files in {out}/{cached}\n")
    return 0


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of path that does not exist yet (removed again when nothing is written)."""
    missing = None
    for p in [path, *path.parents]:
        if p.exists():
            break
        missing = p
    return missing


def _remove_empty(path: Path, upto: Path | None) -> None:
    """Remove path and its parents up to upto (a folder this run created) while they are empty."""
    if upto is None or not (upto == path or upto in path.parents):
        return
    p = path
    while True:
        try:
            p.rmdir()
        except OSError:
            return
        if p == upto:
            return
        p = p.parent


__all__ = ["run"]

"""Jobs: the files of a render, drawn in parallel into a temporary folder and moved into place only
when every one succeeded."""
from __future__ import annotations

import concurrent.futures
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ...core.model import Game
from ..formats import EXT
from .build import build_chart
from .dot import to_dot
from .graph import chart_ids
from .graphviz import render_file
from .mermaid import to_mermaid
from .overlay import Overlay


@dataclass
class Job:
    rel: str  # path under the output folder
    fmt: str  # svg | png (run dot) | dot | mermaid | text (written as is)
    text: str  # DOT or Mermaid text


def run_jobs(jobs, folder: Path, cache: Path | None, workers: int | None = None) -> int:
    """Write every job's output under folder; graphviz runs in parallel, each job starting as soon as
    it is produced (jobs may be a generator: the DOT text of the next chart is written while dot
    draws the previous ones). Returns the number of cache hits."""
    def one(job: Job) -> bool:
        target = folder / job.rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if job.fmt in ("dot", "mermaid", "text"):
            target.write_text(job.text, encoding="utf-8", newline="\n")
            return False
        return render_file(job.text, job.fmt, target, cache)

    workers = workers or os.cpu_count() or 1
    if workers == 1:
        return sum(one(j) for j in jobs)
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(one, j) for j in jobs]
        return sum(f.result() for f in futures)


def _move_into_place(tmp: Path, out: Path) -> list[Path]:
    """Move every file of tmp to the same place under out (each os.replace is atomic)."""
    moved = []
    for p in sorted(tmp.rglob("*")):
        if p.is_file():
            dest = out / p.relative_to(tmp)
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(p, dest)
            moved.append(dest)
    return moved


def _chart_size(game: Game, cid: str) -> int:
    return len(game.nodes) if cid == "turn" else len(game.containers[cid].nodes)


def chart_jobs(game: Game, chart_ids_: list[str], langs, formats, overlay: Overlay | None = None):
    """The jobs that draw the given charts of a game, the biggest chart first (so that no long dot
    run is left alone at the end)."""
    suffix = ".trace" if overlay is not None else ""
    for cid in sorted(chart_ids_, key=lambda c: -_chart_size(game, c)):
        for lang in langs:
            ch = build_chart(game, cid, lang, overlay)
            for fmt in formats:
                text = to_mermaid(ch) if fmt == "mermaid" else to_dot(ch)
                yield Job(f"{game.id}/{cid}{suffix}.{lang}.{EXT[fmt]}", fmt, text)


def write_jobs(jobs, out: Path, cache: Path | None = None, workers: int | None = None) -> tuple[list[Path], int]:
    """Run the jobs into a temporary folder inside out and move the files into place only when all
    succeeded (nothing half-written). Returns the files written and the cache hits; raises
    RenderError or OSError."""
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out, prefix=".render-"))
    try:
        hits = run_jobs(jobs, tmp, cache, workers)
        return _move_into_place(tmp, out), hits
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def write_charts(games, out: Path, langs=("ja",), formats=("svg",), cache: Path | None = None,
                 workers: int | None = None) -> tuple[list[Path], int]:
    """Every chart of the compiled games (overview, phases, procedures) into out/<game>/."""
    def jobs():
        for game in games:
            yield from chart_jobs(game, chart_ids(game), langs, formats)
    return write_jobs(jobs(), out, cache, workers)

"""Jobs: the files of a render, drawn in parallel into a staging folder beside the output folder and
swapped into place as one unit only when every one succeeded (``present.outputs``)."""
from __future__ import annotations

import concurrent.futures
import os
from dataclasses import dataclass
from pathlib import Path

from ...core.model import Game
from ..formats import EXT
from ..outputs import new_files, output_set
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


def _chart_size(game: Game, cid: str) -> int:
    return len(game.nodes) if cid == "turn" else len(game.containers[cid].nodes) if cid in game.containers else 1


def chart_jobs(game: Game, chart_ids_: list[str], langs, formats, overlay: Overlay | None = None, legend: bool = True):
    """The jobs that draw the given charts of a game, the biggest chart first (so that no long dot
    run is left alone at the end); legend=False: without the legend (the site's pages show it in HTML)."""
    suffix = ".trace" if overlay is not None else ""
    for cid in sorted(chart_ids_, key=lambda c: -_chart_size(game, c)):
        for lang in langs:
            ch = build_chart(game, cid, lang, overlay)
            for fmt in formats:
                text = to_mermaid(ch) if fmt == "mermaid" else to_dot(ch, legend=legend)
                yield Job(f"{game.id}/{cid}{suffix}.{lang}.{EXT[fmt]}", fmt, text)


def write_jobs(jobs, out: Path, cache: Path | None = None, workers: int | None = None) -> tuple[list[Path], int]:
    """Run the jobs into a staging folder beside out and swap it into place only when all succeeded
    (nothing half-written, never old and new files mixed; the files of out that the jobs do not
    write are kept). Returns the files written and the cache hits; raises RenderError or OSError."""
    with output_set(out, "render") as stage:
        hits = run_jobs(jobs, stage, cache, workers)
        written = new_files(stage)
    return [out / p for p in written], hits


def write_charts(games, out: Path, langs=("ja",), formats=("svg",), cache: Path | None = None,
                 workers: int | None = None) -> tuple[list[Path], int]:
    """Every chart of the compiled games (overview, phases, procedures) into out/<game>/."""
    def jobs():
        for game in games:
            yield from chart_jobs(game, chart_ids(game), langs, formats)
    return write_jobs(jobs(), out, cache, workers)

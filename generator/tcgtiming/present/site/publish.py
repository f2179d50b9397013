"""Building everything ``make site`` publishes, in one pass, and moving it into place as one unit.

``build`` compiles each rule file once and runs each scenario once (``collect``), draws each chart
once, and writes into a temporary folder inside OUT:

  ``models/<game>.json``                 each compiled model (as ``tcgtiming compile`` writes it)
  ``charts/<game>/<chart>.<lang>.svg``   every chart, ja and en, and ``timing-table.<lang>.md/.html/.txt``
                                         (as ``tcgtiming render --format svg --format table``)
  ``traces/<game>/<scenario>.txt/.jsonl/.md``  each scenario's run (as ``tcgtiming simulate --out-dir``)
  ``docs/``, ``site/``, ``mkdocs.yml``   the generated pages, the site mkdocs built, the config it ran with

Only when all of it succeeded are these six moved into OUT, replacing the previous ones; if a move
fails, the moves already made are undone. Nothing else in OUT is touched (OUT may be any folder).
"""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ...core.text import LANGS
from .docs import HAND_WRITTEN, generate, mkdocs_config, write_docs
from .inputs import Inputs, collect

OUTPUTS = ("models", "charts", "traces", "docs", "site", "mkdocs.yml")


class BuildError(Exception):
    pass


@dataclass
class Built:
    out: Path  # the folder everything was moved into
    inputs: Inputs
    pages: int  # generated pages
    mkdocs_said: str  # what mkdocs said besides its INFO lines
    seconds: dict[str, float]  # the time each part took


def draw_charts(inputs: Inputs, folder: Path, cache: Path | None, workers: int | None = None) -> None:
    """Every chart of every game (both languages, SVG) into folder/charts/<game>/<chart>.<lang>.svg,
    and each scenario's run drawn over the turn chart into folder/overlays/<game>/<file>.<lang>.svg."""
    from ..charts import build_overlay, chart_ids, chart_jobs, run_jobs

    def jobs():
        for game in inputs.games:
            for job in chart_jobs(game, chart_ids(game), LANGS, ["svg"]):
                yield dataclasses.replace(job, rel=f"charts/{job.rel}")
            for sr in inputs.runs.get(game.id, []):
                ov = build_overlay(game, [(e.seq, e.node) for e in sr.run.entries])
                for job in chart_jobs(game, ["turn"], LANGS, ["svg"], ov):
                    lang = job.rel.rsplit(".", 2)[-2]
                    yield dataclasses.replace(job, rel=f"overlays/{game.id}/{sr.stem}.{lang}.svg")

    run_jobs(jobs(), folder, cache, workers)


def _write(base: Path, suffix: str, text: str) -> None:
    """Write base + suffix (a name may hold dots: not Path.with_suffix)."""
    base.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{base}{suffix}").write_text(text, encoding="utf-8", newline="\n")


def write_models(inputs: Inputs, folder: Path) -> None:
    """folder/<game>.json: each compiled model, the same bytes as ``tcgtiming compile``."""
    from ...core.model import as_data

    for game in inputs.games:
        _write(folder / game.id, ".json", json.dumps(as_data(game), ensure_ascii=False, indent=2) + "\n")


def write_tables(inputs: Inputs, folder: Path) -> None:
    """folder/<game>/timing-table.<lang>.md/.html/.txt, as ``tcgtiming render --format table --out``."""
    from .. import tables

    for game in inputs.games:
        for lang in LANGS:
            base = folder / game.id / f"timing-table.{lang}"
            _write(base, ".md", tables.table_markdown(game, lang))
            _write(base, ".html", tables.table_html(game, lang))
            _write(base, ".txt", tables.table_text(game, lang))


def write_traces(inputs: Inputs, folder: Path) -> None:
    """folder/<game>/<scenario>.txt/.jsonl/.md: each run, as ``tcgtiming simulate --strict --out-dir``."""
    from ...runtime.trace import as_jsonl, as_markdown, as_text

    for runs in inputs.runs.values():
        for sr in runs:
            base = folder / sr.scenario.game / sr.stem
            _write(base, ".txt", as_text(sr.run, sr.names, "en"))
            _write(base, ".jsonl", as_jsonl(sr.run))
            _write(base, ".md", as_markdown(sr.run, sr.names, "en", title=sr.scenario.title.get("en")))


def run_mkdocs(config: Path) -> str:
    """``mkdocs build --strict`` in a child process (its own warnings filters; nothing of mkdocs is
    imported here). Returns its output; raises BuildError when it fails."""
    # not --quiet: it hides the warnings from --strict, which then passes a build with broken links
    p = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config.resolve())],
                       check=False, capture_output=True, text=True, cwd=config.resolve().parent,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})  # material's banner about its successor
    said = "\n".join(line for line in (p.stdout + p.stderr).splitlines() if line.strip() and not line.startswith("INFO"))
    if p.returncode != 0:
        raise BuildError(said or f"mkdocs exited with {p.returncode}")
    return said


def build(rules_dir: str, out: Path, cache: Path | None = None, workers: int | None = None,
          hand_written=HAND_WRITTEN) -> Built:
    """Build the models, charts, tables, traces, pages and site of the rules and move them into OUT.
    Raises InputError (what is invalid), BuildError, RenderError or OSError; OUT is then unchanged."""
    t0 = time.perf_counter()
    inputs = collect(rules_dir)
    out.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=out, prefix=".site-"))
    try:
        for name in ("models", "charts", "traces"):  # each folder, even when empty (no scenario)
            (stage / name).mkdir()
        t1 = time.perf_counter()
        draw_charts(inputs, stage, cache, workers)
        t2 = time.perf_counter()
        write_models(inputs, stage / "models")
        write_tables(inputs, stage / "charts")
        write_traces(inputs, stage / "traces")
        pages = generate(inputs, stage, hand_written)
        write_docs(pages, stage / "docs")
        (stage / "mkdocs.yml").write_text(mkdocs_config(inputs), encoding="utf-8", newline="\n")
        t3 = time.perf_counter()
        said = run_mkdocs(stage / "mkdocs.yml")
        t4 = time.perf_counter()
        move_into_place(stage, out, OUTPUTS)
        seconds = {"inputs": t1 - t0, "charts": t2 - t1, "pages": t3 - t2, "mkdocs": t4 - t3}
        return Built(out, inputs, len(pages.pages), said, seconds)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def move_into_place(stage: Path, out: Path, names) -> None:
    """Replace out/<name> by stage/<name> for each name, as one unit: if a move fails, the moves made
    are undone (the previous outputs come back) and the error is raised."""
    old = Path(tempfile.mkdtemp(dir=out, prefix=".old-"))
    displaced: list[str] = []
    placed: list[str] = []
    try:
        for name in names:
            if os.path.lexists(out / name):
                os.replace(out / name, old / name)
                displaced.append(name)
            os.replace(stage / name, out / name)
            placed.append(name)
    except OSError:
        for name in reversed(placed):
            os.replace(out / name, stage / name)
        for name in reversed(displaced):
            os.replace(old / name, out / name)
        old.rmdir()
        raise
    shutil.rmtree(old, ignore_errors=True)

"""Building everything ``make site`` publishes, in one pass, and moving it into place as one unit.

``build`` compiles each rule file once and runs each scenario once (``collect``), draws each chart
once, and writes into a temporary folder inside OUT:

  ``models/<game>.json``                 each compiled model (as ``tcgtiming compile`` writes it)
  ``charts/<game>/<chart>.<lang>.svg``   every chart, ja and en, and ``timing-table.<lang>.md/.html/.txt``
                                         (as ``tcgtiming render --format svg --format table``)
  ``traces/<game>/<scenario>.txt/.jsonl/.md``  each scenario's run (as ``tcgtiming simulate --out-dir``)
  ``site/``                              the site: ``ja/`` and ``en/``, the same pages in each language,
                                         rendered through the templates (``render``), each with its search
                                         index (``search``), every link checked

Only when all of it succeeded are these four moved into OUT, replacing the previous ones; if a move
fails, the moves already made are undone. Nothing else in OUT is touched (OUT may be any folder).
"""
from __future__ import annotations

import dataclasses
import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ...core.text import LANGS
from ..outputs import output_set
from .docs import HAND_WRITTEN, generate, nav
from .inputs import Inputs, collect
from .render import check_links, write_site

OUTPUTS = ("models", "charts", "traces", "site")


class BuildError(Exception):
    pass


@dataclass
class Built:
    out: Path  # the folder everything was moved into
    inputs: Inputs
    pages: int  # generated pages
    seconds: dict[str, float]  # the time each part took


def draw_charts(inputs: Inputs, folder: Path, cache: Path | None, workers: int | None = None) -> None:
    """Every chart of every game (both languages, SVG) into folder/charts/<game>/<chart>.<lang>.svg (as
    ``render`` draws them); the pages' charts, without a legend (the page shows it beside the chart)
    and with each large phase also step by step, into folder/pages/<game>/<chart>.<lang>.svg; and each
    scenario's run drawn over the turn chart into folder/overlays/<game>/<file>.<lang>.svg."""
    from ..charts import build_overlay, chart_ids, chart_jobs, run_jobs
    from ..charts.steps import step_chart_ids

    def jobs():
        for game in inputs.games:
            for job in chart_jobs(game, chart_ids(game), LANGS, ["svg"]):
                yield dataclasses.replace(job, rel=f"charts/{job.rel}")
            for job in chart_jobs(game, chart_ids(game) + step_chart_ids(game), LANGS, ["svg"], legend=False):
                yield dataclasses.replace(job, rel=f"pages/{job.rel}")
            runs = [(sr.stem, sr.run) for sr in inputs.runs.get(game.id, [])]
            runs += [(f"ruling-{rr.stem}", rr.run) for rr in inputs.rulings.get(game.id, []) if rr.run is not None]
            for stem, run in runs:
                ov = build_overlay(game, [(e.seq, e.node) for e in run.entries])
                for job in chart_jobs(game, ["turn"], LANGS, ["svg"], ov, legend=False):
                    lang = job.rel.rsplit(".", 2)[-2]
                    yield dataclasses.replace(job, rel=f"overlays/{game.id}/{stem}.{lang}.svg")

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


def build(rules_dir: str, out: Path, cache: Path | None = None, workers: int | None = None,
          hand_written=HAND_WRITTEN, templates: Path | None = None) -> Built:
    """Build the models, charts, tables, traces and site of the rules and move them into OUT; templates
    is a folder of templates replacing the packaged ones (None: ours). Raises InputError (what is
    invalid), BuildError (a broken link, a template that fails), RenderError or OSError; OUT is then
    unchanged. Everything is built in a staging folder beside OUT, and OUT is swapped with it in one
    rename (``present.outputs``): a run killed at any point leaves the old outputs or the new ones."""
    t0 = time.perf_counter()
    inputs = collect(rules_dir)
    with output_set(out, "site", owned=OUTPUTS) as stage:
        for name in ("models", "charts", "traces"):  # each folder, even when empty (no scenario)
            (stage / name).mkdir()
        t1 = time.perf_counter()
        draw_charts(inputs, stage, cache, workers)
        t2 = time.perf_counter()
        write_models(inputs, stage / "models")
        write_tables(inputs, stage / "charts")
        write_traces(inputs, stage / "traces")
        pages = {lang: generate(inputs, stage, lang, hand_written) for lang in LANGS}
        n = render_pages(pages, {lang: nav(inputs, lang) for lang in LANGS}, stage / "site", templates)
        t3 = time.perf_counter()
        search_index(inputs, stage / "site")
        t4 = time.perf_counter()
        problems = check_links(stage / "site")
        if problems:
            raise BuildError(f"{len(problems)} broken link(s):\n  " + "\n  ".join(problems[:20]))
        t5 = time.perf_counter()
        for scratch in [p for p in stage.iterdir() if p.name not in OUTPUTS]:  # e.g. the drawn overlays
            shutil.rmtree(scratch)
    # the swap: OUT holds the new models, charts, traces and site, and whatever else it held before
    seconds = {"inputs": t1 - t0, "charts": t2 - t1, "pages": t3 - t2, "search": t4 - t3, "links": t5 - t4}
    return Built(out, inputs, n, seconds)


def search_index(inputs: Inputs, site: Path) -> None:
    """The Pagefind index of each language's folder (its pages and a record per node)."""
    from concurrent.futures import ThreadPoolExecutor

    from .search import build_index

    with ThreadPoolExecutor(len(LANGS)) as pool:  # one pagefind process per language, side by side
        done = {lang: pool.submit(build_index, site / lang, lang) for lang in LANGS}
    for lang, fut in done.items():
        try:
            fut.result()
        except OSError as exc:  # the binary missing or failing
            raise BuildError(f"the search index of {lang}/ could not be built: {exc}") from None


def render_pages(pages, navs, folder: Path, templates: Path | None, shared: bool = True, changed: dict | None = None) -> int:
    """write_site, with what a template gets wrong (a syntax error, an unknown name) as a BuildError."""
    import jinja2

    try:
        return write_site(pages, navs, folder, templates, shared, changed)
    except jinja2.TemplateSyntaxError as exc:
        raise BuildError(f"{exc.filename or exc.name}:{exc.lineno}: template error: {exc.message}") from None
    except jinja2.TemplateError as exc:
        raise BuildError(f"template error: {exc}") from None

"""The whole set of pages: the home page (hand-written, with the games table filled in), the reference,
every game's pages; the navigation and the mkdocs configuration; writing the docs folder.

The hand-written parts ship with the package (``data/``, read with importlib.resources, so that an
installed tcgtiming needs no checkout): ``data/mkdocs.yml`` (the base configuration) and
``data/pages/`` (the home page text, ``assets/extra.css``).
"""
from __future__ import annotations

import json
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from ...core.model import Text
from ...core.words import WORDS
from .inputs import Inputs
from .markup import bi, both, code, esc, front_matter, hb, heading, note_para, rel
from .pages import Pages, container_page, overview_page, sources_page, timing_page
from .scenario_pages import scenario_page, scenarios_index

DATA = files(__package__) / "data"
HAND_WRITTEN = DATA / "pages"  # the hand-written pages and assets, copied into the docs
GUIDE = files("tcgtiming.present") / "guide"  # the reference guide pages, published under guide/
GUIDE_ORDER = ("index", "commands", "rule-language", "scenarios", "diagnostics", "charts", "site", "performance")
GAMES_MARKER = "<!-- tcgtiming: games -->"


def games_table(inputs: Inputs, page: str = "index.md") -> str:
    head = " | ".join(hb(k) for k in ("games", "phases", "steps", "procedures", "count.check", "count.window",
                                       "count.nodes", "scenarios"))
    rows = [f"| {head} |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for g in inputs.games:
        s = g.stats()
        n = len(inputs.runs.get(g.id, []))
        rows.append(f"| [{bi(g.name, '<br>')}]({rel(page, f'{g.id}/turn.md')}) | {s['phases']} | {s['steps']} | "
                    f"{s['procedures']} | {s['check_timings']} | {s['priority_windows']} | {s['nodes']} | "
                    f"[{n}]({rel(page, f'{g.id}/scenarios/index.md')}) |")
    return "\n".join(rows) + "\n"


def reference_page() -> str:
    from ..reference import codes_table, vocab_table
    from ..charts import KIND_ORDER, NODE_STYLE, ui
    from ...core.vocab import ACTIONS, EFFECTS, PREDICATES

    out = [front_matter(f"{WORDS['site.reference'][0]} / {WORDS['site.reference'][1]}")]
    out.append(f"# {heading(WORDS['site.reference'][0], WORDS['site.reference'][1])}\n")
    out.append(note_para(Text("ルール言語の語彙と診断コードの一覧。コード自身のメタデータから生成している。",
                              "The vocabulary of the rule language and the diagnostic codes, generated from the "
                              "code's own metadata."), ""))
    out.append(f"## {heading(WORDS['site.kinds'][0], WORDS['site.kinds'][1])}\n")
    out.append(f"| | {both('kinds', ' / ')} | |")
    out.append("|---|---|---|")
    for key in KIND_ORDER:
        if key in ("stub", "phase", "step") or ("chart.k." + key) not in WORDS:
            continue
        colour = NODE_STYLE[key]["color"]
        out.append(f'| <span class="tcg-swatch k-{key}" style="background:{colour}"></span> | '
                   f'<span class="tcg-kindname k-{key}">{esc(ui("k." + key, "ja"))}</span> / '
                   f'<span lang="en">{esc(ui("k." + key, "en"))}</span> | {code(colour)} |')
    for key, table in (("codes", codes_table()), ("predicates", vocab_table(PREDICATES)),
                       ("actions", vocab_table(ACTIONS)), ("effects", vocab_table(EFFECTS))):
        out.append("\n## " + heading(*WORDS["site." + key]) + "\n")
        out.append(f'<div class="tcg-ref" lang="en" markdown="1">\n\n{table}\n\n</div>\n')
    return "\n".join(out)


def generate(inputs: Inputs, drawn: Path, hand_written: Traversable | None = HAND_WRITTEN) -> Pages:
    """Every page of the site (docs path -> Markdown) and the chart files beside them; drawn is the
    folder draw_charts wrote; hand_written the folder of the hand-written pages (None: none)."""
    p = Pages(drawn)
    for g in inputs.games:
        runs = inputs.runs.get(g.id, [])
        p.pages[f"{g.id}/turn.md"] = overview_page(p, g, runs)
        for cid in [ph.id for ph in g.phases] + [pr.id for pr in g.procedures]:
            p.pages[f"{g.id}/{cid}.md"] = container_page(p, g, cid)
        p.pages[f"{g.id}/timing/index.md"] = timing_page(g)
        p.pages[f"{g.id}/sources/index.md"] = sources_page(g, runs)
        p.pages[f"{g.id}/scenarios/index.md"] = scenarios_index(g, runs)
        for sr in runs:
            p.pages[f"{g.id}/scenarios/{sr.stem}.md"] = scenario_page(p, g, sr)
    p.pages["reference.md"] = reference_page()
    for name, text in guide_pages():
        p.pages[f"guide/{name}.md"] = text
    if hand_written is not None and hand_written.is_dir():
        for r, f in walk(hand_written):
            if r.endswith(".md"):
                text = f.read_text(encoding="utf-8")
                table = f'<div class="tcg-games" markdown="1">\n\n{games_table(inputs, r)}\n</div>'
                p.pages[r] = text.replace(GAMES_MARKER, table)
            else:
                p.files[r] = f  # copied as is
    if "index.md" not in p.pages:
        p.pages["index.md"] = f"# tcgtiming\n\n{games_table(inputs)}"
    return p


def nav(inputs: Inputs) -> list:
    out: list = [{both("home"): "index.md"}]
    for g in inputs.games:
        items: list = [{both("turn"): f"{g.id}/turn.md"}]
        items.append({both("phases"): [{f"{ph.label.ja} / {ph.label.en}": f"{g.id}/{ph.id}.md"} for ph in g.phases]})
        if g.procedures:
            items.append({both("procedures"): [{f"{pr.label.ja} / {pr.label.en}": f"{g.id}/{pr.id}.md"}
                                               for pr in g.procedures]})
        items.append({both("timing"): f"{g.id}/timing/index.md"})
        items.append({both("sources"): f"{g.id}/sources/index.md"})
        runs = inputs.runs.get(g.id, [])
        items.append({both("scenarios"): [{both("scenario_list"): f"{g.id}/scenarios/index.md"}] +
                      [{f"{sr.scenario.title.ja} / {sr.scenario.title.en}": f"{g.id}/scenarios/{sr.stem}.md"}
                       for sr in runs]})
        out.append({f"{g.name.ja} / {g.name.en}": items})
    guide = [{_title(text): f"guide/{name}.md"} for name, text in guide_pages()]
    out.append({both("reference"): guide + [{both("reference_tables"): "reference.md"}]})
    return out


def guide_pages() -> list[tuple[str, str]]:
    """The reference guide pages (name, Markdown) in reading order: the ones GUIDE_ORDER names
    first, any others after them by name. Their generated tables are kept current by
    ``tcgtiming reference --check`` (a test), so they are published as they are."""
    found = {f.name[:-3]: f for f in GUIDE.iterdir() if f.name.endswith(".md")}
    order = [n for n in GUIDE_ORDER if n in found] + sorted(set(found) - set(GUIDE_ORDER))
    return [(n, found[n].read_text(encoding="utf-8")) for n in order]


def _title(markdown: str) -> str:
    """A page's title: its first level-one heading."""
    for line in markdown.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return "?"


def write_docs(p: Pages, folder: Path) -> None:
    for r, text in sorted(p.pages.items()):
        f = folder / r
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text, encoding="utf-8", newline="\n")
    for r, content in sorted(p.files.items()):
        f = folder / r
        f.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            f.write_text(content, encoding="utf-8", newline="\n")
        else:
            f.write_bytes(content.read_bytes())


def walk(folder: Traversable, prefix: str = ""):
    """(path below folder, file) for every file below a folder (a Path or a package's Traversable), sorted."""
    for item in sorted(folder.iterdir(), key=lambda t: t.name):
        if item.is_dir():
            yield from walk(item, f"{prefix}{item.name}/")
        elif item.is_file():
            yield f"{prefix}{item.name}", item


def mkdocs_config(inputs: Inputs) -> str:
    """The configuration mkdocs runs with (OUT/mkdocs.yml): the base configuration, then the folders
    and the navigation. Self-contained: ``mkdocs serve -f OUT/mkdocs.yml`` previews the site."""
    base = (DATA / "mkdocs.yml").read_text(encoding="utf-8")
    menu = json.dumps(nav(inputs), ensure_ascii=False, indent=1).replace("\n", "\n  ")  # JSON is YAML
    return (f"# generated by 'tcgtiming site': the base configuration shipped with tcgtiming, then the folders "
            f"and the navigation\n\n{base.rstrip()}\n\n# generated\ndocs_dir: docs\nsite_dir: site\nnav: {menu}\n")

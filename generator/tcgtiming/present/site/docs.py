"""The whole set of pages of one language: the home page (hand-written, with the games table filled
in), the reference, the guide, every game's pages; and the navigation.

The hand-written parts ship with the package (``data/``, read with importlib.resources, so that an
installed tcgtiming needs no checkout): ``data/pages/index.<lang>.md`` (the home page text, Markdown
written by us) and ``data/pages/assets/`` (CSS, scripts). The guide pages (``present/guide/*.md``)
are English Markdown written by us; their HTML is made by Python-Markdown. Rule text never goes
through Markdown: the pages of the games are HTML built by ``markup.h``.
"""
from __future__ import annotations

import re
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from markupsafe import Markup

from .inputs import Inputs
from .markup import a, code, h, join, rel, slug, tx, w
from .pages import Page, Pages, container_page, heading, overview_page, sources_page, table, timing_page
from .ruling_pages import ruling_items, ruling_page, rulings_index
from .scenario_pages import scenario_page, scenarios_index

DATA = files(__package__) / "data"
HAND_WRITTEN = DATA / "pages"  # the hand-written pages and assets, copied into the site
GUIDE = files("tcgtiming.present") / "guide"  # the reference guide pages, published under guide/
GUIDE_ORDER = ("index", "commands", "rule-language", "scenarios", "diagnostics", "charts", "site", "performance")
GAMES_MARKER = "<!-- tcgtiming: games -->"


def games_table(inputs: Inputs, lang: str, page: str = "index.html") -> Markup:
    head = [w(k, lang) for k in ("games", "phases", "steps", "procedures", "count.check", "count.window",
                                  "count.nodes", "scenarios", "rulings")]
    rows = []
    for g in inputs.games:
        s = g.stats()
        n, r = len(inputs.runs.get(g.id, [])), len(inputs.rulings.get(g.id, []))
        rows.append([a(rel(page, f"{g.id}/turn.html"), tx(g.name, lang)), str(s["phases"]), str(s["steps"]),
                     str(s["procedures"]), str(s["check_timings"]), str(s["priority_windows"]), str(s["nodes"]),
                     a(rel(page, f"{g.id}/scenarios/index.html"), str(n)),
                     a(rel(page, f"{g.id}/rulings/index.html"), str(r)) if r else "0"])  # no rulings: no page
    return table(head, rows, "tcg-games tcg-numbers")


def markdown_html(text: str) -> Markup:
    """Our own Markdown (the home page, the guide) as HTML: links to .md pages go to their .html."""
    import markdown

    md = markdown.Markdown(extensions=["tables", "fenced_code", "attr_list", "md_in_html", "toc", "admonition"],
                           extension_configs={"toc": {"permalink": "¶", "slugify": lambda s, sep: slug(s)}})
    out = md.convert(text)
    out = re.sub(r'href="(?![a-z][a-z0-9+.-]*:|#|/)([^"#]*?)\.md(#[^"]*)?"',
                 lambda mo: f'href="{mo.group(1)}.html{mo.group(2) or ""}"', out)
    return Markup(out)  # our own text: trusted


def reference_page(lang: str) -> Page:
    from ..reference import codes_table, vocab_table
    from ..charts import KIND_ORDER, NODE_STYLE, ui
    from ...core.vocab import ACTIONS, EFFECTS, PREDICATES

    out = [heading(1, w("reference", lang)), h("p", w("reference_note", lang), class_="tcg-cnote"),
           heading(2, w("kinds", lang))]
    rows = []
    for key in KIND_ORDER:
        if key in ("stub", "phase", "step") or ("chart.k." + key) not in _words():
            continue
        colour = NODE_STYLE[key]["color"]
        rows.append([h("span", "", class_=f"tcg-swatch k-{key}"), h("span", ui("k." + key, lang), class_=f"tcg-kindname k-{key}"),
                     code(colour)])
    out.append(table(["", w("kinds", lang), ""], rows))
    for key, text in (("codes", codes_table()), ("predicates", vocab_table(PREDICATES)),
                      ("actions", vocab_table(ACTIONS)), ("effects", vocab_table(EFFECTS))):
        out.append(heading(2, w(key, lang)))
        out.append(h("div", markdown_html(text), class_="tcg-ref", lang="en"))
    return Page("reference.html", w("reference", lang), join("\n", out))


def _words():
    from ...core.words import WORDS

    return WORDS


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


def search_page(lang: str) -> Page:
    """The search page: the header's search box leads here (?q=…); assets/search.js reads the index."""
    form = h("form", h("input", type="search", name="q", aria_label=w("search", lang)), h("button", w("search_go", lang)),
             class_="tcg-search-page", action="search.html")
    status = h("p", w("search_needs_js", lang), id="tcg-search-status", class_="tcg-search-status",
               data_file=w("search_file", lang), data_empty=w("search_empty", lang), data_loading=w("search_loading", lang),
               data_failed=w("search_failed", lang), data_none=w("search_none", lang), data_count=w("search_count", lang))
    body = join("\n", [heading(1, w("search", lang)), form, status, h("ol", "", id="tcg-search-results", class_="tcg-results")])
    return Page("search.html", w("search", lang), body, search="none", scripts=("assets/search.js",))


def home_page(inputs: Inputs, lang: str, hand_written: Traversable | None) -> Page:
    f = hand_written / f"index.{lang}.md" if hand_written is not None else None
    text = f.read_text(encoding="utf-8") if f is not None and f.is_file() else f"# tcgtiming\n\n{GAMES_MARKER}\n"
    body = markdown_html(text)
    body = Markup(body.replace(GAMES_MARKER, games_table(inputs, lang)))
    return Page("index.html", "tcgtiming", body, search="page")


def generate(inputs: Inputs, drawn: Path, lang: str, hand_written: Traversable | None = HAND_WRITTEN,
             games: set[str] | None = None) -> Pages:
    """Every page of the site in one language (path -> Page) and the files beside them; drawn is the
    folder draw_charts wrote; hand_written the folder of the hand-written pages (None: none).
    games: only the pages (and search records) of these games, with the pages every game shares (home,
    reference, guide, search): a rebuild after a change in one game (drawn holds only their charts)."""
    from ..coverage import all_visits, coverage
    from .lookups import coverage_page, when_page

    p = Pages(drawn, lang)
    visits = all_visits(inputs)
    mine = [g for g in inputs.games if games is None or g.id in games]
    for g in mine:
        runs = inputs.runs.get(g.id, [])
        p.add(overview_page(p, g, runs))
        for cid in [ph.id for ph in g.phases] + [pr.id for pr in g.procedures]:
            p.add(container_page(p, g, cid))
        p.add(timing_page(g, lang))
        p.add(when_page(g, lang))
        p.add(coverage_page(p, g, coverage(g, visits)))
        p.add(sources_page(g, runs, lang))
        p.add(scenarios_index(g, runs, lang))
        for sr in runs:
            p.add(scenario_page(p, g, sr))
        rulings = inputs.rulings.get(g.id, [])
        if rulings:
            p.add(rulings_index(g, rulings, lang))
            for rr in rulings:
                p.add(ruling_page(p, g, rr))
    from .search import node_records, record_pages

    for g in mine:
        p.files.update(record_pages(node_records(g, lang), lang, g.id))
    p.add(reference_page(lang))
    for name, text in guide_pages():
        p.add(Page(f"guide/{name}.html", _title(text), markdown_html(text), search="page", lang_body="en"))
    p.add(home_page(inputs, lang, hand_written))
    p.add(search_page(lang))
    if hand_written is not None and hand_written.is_dir():
        for r, f in walk(hand_written):
            if not r.endswith(".md"):
                p.files[r] = f  # copied as is
    return p


def nav(inputs: Inputs, lang: str) -> list[dict]:
    """The navigation: [{title, path, children, game}] (paths inside the language's folder)."""
    from ...core.words import word

    def item(title: str, path: str | None = None, children=(), game: str | None = None) -> dict:
        return {"title": title, "path": path, "children": list(children), "game": game}

    out = [item(w("home", lang), "index.html")]
    for g in inputs.games:
        kids = [item(w("turn", lang), f"{g.id}/turn.html"),
                item(w("phases", lang), None, [item(tx(ph.label, lang), f"{g.id}/{ph.id}.html") for ph in g.phases])]
        if g.procedures:
            kids.append(item(w("procedures", lang), None,
                             [item(tx(pr.label, lang), f"{g.id}/{pr.id}.html") for pr in g.procedures]))
        kids.append(item(w("timing", lang), f"{g.id}/timing/index.html"))
        kids += [item(word("when.link", lang), f"{g.id}/when/index.html"), item(word("cov.link", lang), f"{g.id}/coverage/index.html")]
        kids.append(item(w("sources", lang), f"{g.id}/sources/index.html"))
        runs = inputs.runs.get(g.id, [])
        kids.append(item(w("scenarios", lang), f"{g.id}/scenarios/index.html",
                         [item(tx(sr.scenario.title, lang), f"{g.id}/scenarios/{sr.stem}.html") for sr in runs]))
        rulings = inputs.rulings.get(g.id, [])
        if rulings:
            kids.append(item(w("rulings", lang), f"{g.id}/rulings/index.html",
                             [item(t, path) for t, path in ruling_items(g, rulings, lang)]))
        out.append(item(tx(g.name, lang), f"{g.id}/turn.html", kids, g.id))
    guide = [item(_title(text), f"guide/{name}.html") for name, text in guide_pages()]
    out.append(item(w("reference", lang), None, guide + [item(w("reference_tables", lang), "reference.html")], "guide"))
    return out


def walk(folder: Traversable, prefix: str = ""):
    """(path below folder, file) for every file below a folder (a Path or a package's Traversable), sorted."""
    for item in sorted(folder.iterdir(), key=lambda t: t.name):
        if item.is_dir():
            yield from walk(item, f"{prefix}{item.name}/")
        elif item.is_file():
            yield f"{prefix}{item.name}", item


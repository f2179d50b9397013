"""The bilingual (日本語 / English) static site: Markdown pages generated from the compiled models,
the runs of the shipped scenarios and the code's own metadata, built by mkdocs (theme material).

Pages (paths inside the generated docs folder; a node's page is ``render.node_url``'s, so that the
charts' links land on the node's anchor):

  ``index.md``                       the hand-written ``site/index.md`` with the games table filled in
  ``reference.md``                   diagnostic codes, predicates, actions, card effects, node kinds
  ``<game>/turn.md``                 the overview: the turn chart, roles, phases, procedures, registries
  ``<game>/<phase>.md``              one per phase: its chart, then every node in time order
  ``<game>/<procedure>.md``          one per procedure, the same way
  ``<game>/timing/index.md``         the timing-chart table (``tables``)
  ``<game>/sources/index.md``        each source, its sections and the nodes citing each one
  ``<game>/scenarios/index.md``      the example scenarios
  ``<game>/scenarios/<file>.md``     one scenario: what it demonstrates, the trace overlay, the traces

Every node entry carries its stable id as the ``id`` of its block. Chart links
(``../<game>/<page>.md#<id>``) are rewritten to the built pages (``use_directory_urls: false``: a page
``<game>/<page>.md`` is ``<game>/<page>.html``). Links written in Markdown are checked by
``mkdocs build --strict`` (with ``validation: anchors: warn`` in mkdocs.yml).

The generated Markdown is deterministic: the same rules and scenarios give the same bytes.
Everything is generated into a temporary folder and moved into place only when mkdocs succeeded:
``OUT/docs`` (the generated pages), ``OUT/site`` (the site), ``OUT/mkdocs.yml`` (the config mkdocs
ran with: the repository's ``mkdocs.yml`` plus the folders and the navigation).
"""
from __future__ import annotations

import dataclasses
import html
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..core import model as m
from ..core.model import Game, Node, Text
from ..core.text import LANGS, md_text
from ..core.words import WORDS, word

REPO = Path(__file__).resolve().parents[3]  # the repository: mkdocs.yml and site/ (hand-written pages)
SKIP_DIRS = {"scenarios", "rulings"}  # below a game's folder: not rule files
GAMES_MARKER = "<!-- tcgtiming: games -->"


# --- words ----------------------------------------------------------------------------------------



def w(key: str, lang: str) -> str:
    """A word of the site, from the catalogue."""
    return word(f"site.{key}", lang)


def both(key: str, sep: str = " / ") -> str:
    """'日本語 / English' for a word of the site."""
    ja, en = WORDS[f"site.{key}"]
    return f"{ja}{sep}{en}"


esc = md_text


def attr(s: str) -> str:
    return html.escape(s, quote=True)


def para(body: str, cls: str = "", lang: str = "") -> str:
    """A Markdown paragraph (one block: no blank line inside) with a class and a language (attr_list)."""
    attrs = " ".join(x for x in (" ".join(f".{c}" for c in cls.split()), f'lang="{lang}"' if lang else "") if x)
    return f"{body}\n{{: {attrs} }}\n" if attrs else f"{body}\n"


def note_para(t: Text, cls: str = "tcg-cnote") -> str:
    """A note in both languages, one paragraph."""
    return para(f'<span lang="ja">{esc(t.ja)}</span><br>\n<span lang="en">{esc(t.en)}</span>', cls)


def hb(key: str) -> str:
    """A table header in both languages, one above the other."""
    ja, en = WORDS[f"site.{key}"]
    return f'{esc(ja)}<br><span lang="en">{esc(en)}</span>'


def heading(ja: str, en: str) -> str:
    """A bilingual heading: the Japanese text, then the English one small (its id keeps both)."""
    if ja == en:
        return esc(ja)
    return f'{esc(ja)} <small lang="en">{esc(en)}</small>'


def bi(t: Text | None, sep: str = " / ") -> str:
    """Both languages of a text, escaped for Markdown."""
    if t is None:
        return ""
    if t.ja == t.en:
        return esc(t.ja)
    return f'{esc(t.ja)}{sep}<span lang="en">{esc(t.en)}</span>'


# --- paths and links ------------------------------------------------------------------------------


def node_page(game: Game, node: Node) -> str:
    """The docs path of a node's page; the same page as ``render.node_url``."""
    from .charts import page_of

    return f"{game.id}/{page_of(node)}.md"


def rel(from_page: str, to_page: str, anchor: str | None = None) -> str:
    """A relative link from one docs page to another (and an anchor on it)."""
    frag = f"#{anchor}" if anchor else ""
    if to_page == from_page and anchor:
        return frag
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".") + frag


def html_url(page: str) -> str:
    """The built file of a docs page (use_directory_urls: false)."""
    return page[:-3] + ".html" if page.endswith(".md") else page


def link_node(game: Game, from_page: str, nid: str, text: str | None = None) -> str:
    node = game.nodes[nid]
    return f"[{text if text is not None else esc(nid)}]({rel(from_page, node_page(game, node), nid)})"


_HREF = re.compile(r'xlink:href="\.\./([^/"]+)/([^"#]+)\.md#([^"]*)"')
_SIZE = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"')
# the charts' own font first, then what a reader without it may have (CSS beats the font-family attributes)
_SVG_STYLE = ('<style>text { font-family: "IPAexGothic", "IPAGothic", "Noto Sans CJK JP", "Hiragino Sans", '
              '"Yu Gothic", sans-serif; }</style>')


def chart_file(svg: str, at: str) -> tuple[str, float, float]:
    """An SVG chart as a file of the site at docs path ``at``: links to the built pages (relative to
    it; they open in the whole window), no XML prologue or comments, no fixed size (it fills its
    frame: the page sets the size, a browser showing the file alone scales it to the window).
    Returns the text and graphviz's size in points."""
    mo = _SIZE.search(svg)
    width, height = (float(mo.group(1)), float(mo.group(2))) if mo else (800.0, 600.0)
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.DOTALL)
    svg = _SIZE.sub('<svg width="100%"', svg, count=1)
    svg = svg.replace(' xmlns:xlink="http://www.w3.org/1999/xlink">',
                      ' xmlns:xlink="http://www.w3.org/1999/xlink">\n' + _SVG_STYLE, 1)

    def href(mo):
        page = f"{mo.group(1)}/{mo.group(2)}.html"
        return f'xlink:href="{attr(rel(html_url(at), page, html.unescape(mo.group(3))))}"'

    svg = _HREF.sub(href, svg)
    text = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + \
        "\n".join(line for line in svg.splitlines() if line.strip()) + "\n"
    return text, width, height


# --- the data the site is made from ----------------------------------------------------------------


@dataclass
class ScenarioRun:
    path: str  # the scenario file
    stem: str  # its file name without .yaml: the page name
    scenario: object  # scenario.Scenario
    run: object  # interpreter.Run
    text: str  # the file's text


@dataclass
class Inputs:
    games: list[Game]
    runs: dict[str, list[ScenarioRun]]  # game id -> its scenarios' runs, by file name


class InputError(Exception):
    """Invalid rules or scenarios: the diagnostics were printed."""


def rule_files(rules_dir: str) -> list[str]:
    from ..frontend.pipeline import find_rule_files

    files = find_rule_files(rules_dir)
    if os.path.isdir(rules_dir):
        files = [f for f in files if not set(Path(os.path.relpath(f, rules_dir)).parts[:-1]) & SKIP_DIRS]
    return files


def scenario_files(rules_dir: str) -> list[str]:
    if not os.path.isdir(rules_dir):
        return []
    return sorted(str(p) for p in Path(rules_dir).glob("*/scenarios/*.yaml"))


def collect(rules_dir: str, out=None) -> Inputs:
    """Compile every rule file and run every shipped scenario (strict, expectations checked); raise
    InputError after printing located diagnostics when anything is invalid."""
    from ..cli.common import print_diags as _print_diags
    from ..core.diagnostics import Diagnostic
    from ..frontend.pipeline import compile_file
    from ..runtime.engine import SimulationError, simulate, verify
    from .report import Style, format_text, summary, use_color

    out = out or sys.stdout
    files = rule_files(rules_dir)
    results = [compile_file(f) for f in files]
    if any(r.errors for r in results):
        _print_diags([r for r in results if r.diagnostics], "text", files)
        raise InputError
    games: dict[str, Game] = {}
    for r in results:
        games.setdefault(r.game.id, r.game)
    runs: dict[str, list[ScenarioRun]] = {}
    bad: list[tuple[Diagnostic, str | None]] = []
    invalid = False
    for path in scenario_files(rules_dir):
        res = compile_file(path, rules=rules_dir)
        if res.errors or res.scenario is None:
            _print_diags([res], "text", [path])
            invalid = True
            continue
        sc = res.scenario
        try:
            run = simulate(res.game, sc, strict=True)
        except SimulationError as exc:
            loc = exc.loc
            d = Diagnostic(exc.code, exc.message, loc.file if loc else sc.file, loc.line if loc else 0,
                           loc.col if loc else 0, help=exc.help)
            bad.append((d, _line_of(loc)))
            continue
        bad += [(Diagnostic("R505", msg, sc.file, 0, 0), None) for msg in verify(run, sc)]
        if sc.game not in games:
            bad.append((Diagnostic("R506", f"the game '{sc.game}' of the scenario is not among the rules in "
                                   f"{rules_dir}", sc.file, 0, 0), None))
            continue
        text = Path(path).read_text(encoding="utf-8")
        runs.setdefault(sc.game, []).append(ScenarioRun(path, Path(path).stem, sc, run, text))
    if invalid and not bad:
        raise InputError
    if bad:
        style = Style(use_color(out))
        for d, line in bad:
            out.write(format_text(d, line, style) + "\n\n")
        out.write(summary([d for d, _ in bad], len(scenario_files(rules_dir))) + "\n")
        raise InputError
    return Inputs(sorted(games.values(), key=lambda g: g.id), runs)


def _line_of(loc) -> str | None:
    if loc is None:
        return None
    try:
        lines = Path(loc.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    return lines[loc.line - 1] if 0 < loc.line <= len(lines) else None


# --- charts ---------------------------------------------------------------------------------------


def draw_charts(inputs: Inputs, folder: Path, cache: Path | None, workers: int | None = None) -> None:
    """Every chart of every game (both languages, SVG), and each scenario's trace over the turn chart,
    into folder/<game>/<chart>.<lang>.svg and folder/<game>/scenarios/<file>.<lang>.svg."""
    from .charts import build_overlay, chart_ids, chart_jobs, run_jobs

    def jobs():
        for game in inputs.games:
            yield from chart_jobs(game, chart_ids(game), LANGS, ["svg"])
            for sr in inputs.runs.get(game.id, []):
                ov = build_overlay(game, [(e.seq, e.node) for e in sr.run.entries])
                for job in chart_jobs(game, ["turn"], LANGS, ["svg"], ov):
                    lang = job.rel.rsplit(".", 2)[-2]
                    yield dataclasses.replace(job, rel=f"{game.id}/scenarios/{sr.stem}.{lang}.svg")

    run_jobs(jobs(), folder, cache, workers)


class Pages:
    """The generated pages (docs path -> text) and the files beside them (charts, hand-written assets)."""

    def __init__(self, charts: Path):
        self.charts = charts
        self.pages: dict[str, str] = {}
        self.files: dict[str, str | Path] = {}

    def chart(self, page: str, svg_rel: str, alt: str, lang: str) -> str:
        """A chart on a page: the SVG file beside the page (charts/), shown in an <object> so that its
        links and tooltips work, drawn 1 point = 1 CSS pixel (11 px labels)."""
        at = posixpath.join(posixpath.dirname(page), "charts", posixpath.basename(svg_rel))
        text, width, height = chart_file((self.charts / svg_rel).read_text(encoding="utf-8"), at)
        self.files[at] = text
        href = attr(rel(html_url(page), at))
        return (f'<div class="tcg-chart" lang="{lang}">\n<object type="image/svg+xml" data="{href}" '
                f'width="{width:g}" height="{height:g}" aria-label="{attr(alt)}"></object>\n</div>\n'
                f'<p class="tcg-chart-link"><a href="{href}">{html.escape(w("full_size", lang))}</a></p>\n')

    def charts_block(self, page: str, svg_base: str, alt: Text) -> str:
        """The Japanese chart, and the English one folded below it."""
        ja = self.chart(page, f"{svg_base}.ja.svg", alt.ja, "ja")
        en = self.chart(page, f"{svg_base}.en.svg", alt.en, "en")
        return (f"{ja}\n<details class=\"tcg-en-chart\">\n<summary>{html.escape(both('chart_en'))}</summary>\n\n"
                f"{en}\n</details>\n")


# --- formatting model objects ---------------------------------------------------------------------


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def call_text(name: str, args) -> str:
    return name if not args else f"{name}({', '.join(f'{k}={_value(v)}' for k, v in args)})"


def cond_text(c) -> str:
    if isinstance(c, m.Pred):
        return call_text(c.name, c.args)
    if isinstance(c, m.Not):
        inner = cond_text(c.cond)
        return f"not ({inner})" if isinstance(c.cond, (m.All, m.AnyOf)) else f"not {inner}"
    if isinstance(c, (m.All, m.AnyOf)):
        word = " and " if isinstance(c, m.All) else " or "
        parts = [f"({cond_text(x)})" if isinstance(x, (m.All, m.AnyOf)) else cond_text(x) for x in c.conds]
        return word.join(parts)
    return str(c)


def code(s: str) -> str:
    return f"<code>{html.escape(s, quote=False)}</code>"


def role_text(game: Game, role: str | None) -> str:
    from .charts import role_label

    return bi(Text(role_label(game, role, "ja"), role_label(game, role, "en")))


def named(reg, key: str | None) -> str:
    n = reg.get(key or "")
    return bi(n.name) if n is not None else esc(key or "")


def cite_md(game: Game, c: m.Citation, page: str) -> str:
    src = game.sources.get(c.source)
    sources_page = f"{game.id}/sources/index.md"
    if src is None:
        return esc(str(c))
    anchor = f"src:{src.id}" + (f":{c.section}" if c.section else "")
    text = esc(src.title)
    if c.section:
        sec = next((s.title for s in src.sections if s.id == c.section), c.section)
        text += f" § {esc(sec)}"
    out = f"[{text}]({rel(page, sources_page, anchor)})"
    if src.url:
        out += f" — <{src.url}>"
    return out


def local_no(node: Node) -> str:
    from .charts import local_label

    return "" if node.kind in ("begin", "end") else local_label(node) + "."


def kind_words(game: Game, node: Node) -> tuple[str, str]:
    from .charts import style_key, ui

    key = style_key(game, node)
    if node.kind == "begin":
        return "開始", "start"
    if node.kind == "end":
        return "終了", "end"
    return ui("k." + key, "ja"), ui("k." + key, "en")


# --- node entries ---------------------------------------------------------------------------------


def node_entry(game: Game, nid: str, page: str, depth: int, context: str) -> str:
    from .charts import window_lines, style_key

    node = game.nodes[nid]
    key = style_key(game, node)
    kja, ken = kind_words(game, node)
    out = []
    if context:
        out.append(para(context, f"tcg-context tcg-d{min(depth, 6)}"))
    out.append(f'<div class="tcg-node k-{key} tcg-d{min(depth, 6)}" id="{attr(nid)}" markdown="1">\n')
    no = local_no(node)
    head = [f'<span class="tcg-no">{esc(no)}</span>'] if no else []
    head.append(f'<span class="tcg-kind">{esc(kja)} · <span lang="en">{esc(ken)}</span></span>')
    head.append(f'<a class="tcg-id" href="#{attr(nid)}" title="{attr(nid)}">{esc(nid)}</a>')
    out.append(" ".join(head) + "\n{: .tcg-head }\n")
    out.append(f'<span lang="ja">{esc(node.label.ja)}</span><br>\n<span lang="en">{esc(node.label.en)}</span>\n'
               "{: .tcg-label }\n")
    items: list[str] = []
    if node.kind == "player" and node.actor:
        may = f" ({both('may')})" if node.may else ""
        items.append(f"{both('actor')}: {role_text(game, node.actor)}{may}")
    if node.action is not None:
        items.append(f"{both('does')}: {code(call_text(node.action.name, node.action.args))}")
    if node.kind == "loop" and node.condition is not None:
        items.append(f"{both('while')}: {code(cond_text(node.condition))}")
    if node.kind == "foreach" and node.over:
        names = " → ".join(bi(i.name) for i in game.lists.get(node.over, ()))
        items.append(f"{both('over')}: {code(node.over)} ({names})")
    if node.kind == "trigger" and node.event:
        items.append(f"{both('event')}: {named(game.events, node.event)} {code(node.event)}")
    if node.kind == "window" and node.window is not None:
        ja_key, ja_small = window_lines(game, node, "ja")
        en_key, en_small = window_lines(game, node, "en")
        items.append(f"{both('window')}: {esc(' '.join(ja_key))} · {esc(' · '.join(ja_small))}<br>"
                     f'<span lang="en">{esc(" ".join(en_key))} · {esc(" · ".join(en_small))}</span>')
    if node.kind == "closed":
        items.append(both("no_play"))
    if node.kind in ("check", "call") and node.callee and node.callee in game.containers:
        proc = game.containers[node.callee]
        target = link_node(game, page, proc.begin, bi(proc.label))
        args = f" — {both('args')}: {code(', '.join(f'{k}={_value(v)}' for k, v in node.call_args))}" \
            if node.call_args else ""
        items.append(f"{both('procedure')}: {target}{args}")
    if node.kind in ("goto", "exit") and node.target and node.target in game.nodes:
        t = game.nodes[node.target]
        items.append(f"{both('goes_to')}: {link_node(game, page, t.id, f'{esc(local_no(t))} {bi(t.label)}'.strip())}")
    if node.kind == "end_game":
        who = f" — {role_text(game, node.player)}" if node.player else ""
        items.append(f"{both('result')}: {code(node.result or '')}{who}")
    if node.choices or node.otherwise:
        word = "options" if node.kind == "player" else "cases"
        sub = []
        for ch in node.choices:
            label = bi(ch.label) if ch.label is not None else esc(ch.id)
            when = f" — {both('when')}: {code(cond_text(ch.when))}" if ch.when is not None else ""
            t = game.nodes[ch.entry]
            to = link_node(game, page, t.id, f"→ {esc(local_no(t))} {bi(t.label)}")
            sub.append(f"    - {code(ch.id)} **{label}**{when} {to}")
            if ch.note is not None:
                sub.append(f"        - {both('note')}: {bi(ch.note, '<br>')}")
        if node.otherwise and node.otherwise in game.nodes:
            t = game.nodes[node.otherwise]
            sub.append(f"    - **{both('else')}** {link_node(game, page, t.id, f'→ {esc(local_no(t))} {bi(t.label)}')}")
        items.append(f"{both(word)}:\n" + "\n".join(sub))
    if node.note is not None:
        items.append(f'{both("note")}:<br>\n    <span lang="ja">{esc(node.note.ja)}</span><br>\n'
                     f'    <span lang="en">{esc(node.note.en)}</span>')
    if node.cites:
        cites = [cite_md(game, c, page) for c in node.cites]
        if len(cites) == 1:
            items.append(f"{both('cites')}: {cites[0]}")
        else:
            items.append(f"{both('cites')}:\n" + "\n".join(f"    - {c}" for c in cites))
    if items:
        out.append("\n" + "\n".join(f"- {x}" for x in items) + "\n")
    out.append("\n</div>\n")
    return "\n".join(out)


def node_entries(game: Game, ids: list[str], page: str) -> str:
    """Every node in time order; a container's step starts a section; nodes inside an option, case or
    loop body are indented under the option's label, like the sources' lists."""
    out: list[str] = []
    depth: dict[str, int] = {}
    first_of_body: set[tuple[str, str]] = set()
    for nid in ids:
        node = game.nodes[nid]
        c = game.containers.get(node.container)
        if c is not None and c.kind == "step" and nid == c.begin:
            out.append(f"\n### {heading(c.label.ja, c.label.en)}\n")
            if c.note is not None:
                out.append(note_para(c.note))
        parent, body = game.enclosing(node)
        d = depth.get(parent.id, 0) + 1 if parent is not None else 0
        depth[nid] = d
        context = ""
        if parent is not None and (parent.id, body) not in first_of_body:
            first_of_body.add((parent.id, body))
            if parent.kind in ("loop", "foreach"):
                context = f"↻ {esc(local_no(parent))} {bi(parent.label)}"
            elif body == "else":
                context = f"◇ {esc(local_no(parent))} {both('else')}"
            else:
                ch = next((x for x in parent.choices if x.id == body), None)
                mark = "▸" if parent.kind == "player" else "◇"
                label = bi(ch.label) if ch is not None and ch.label is not None else esc(body)
                context = f"{mark} {esc(local_no(parent))} {label}"
        out.append(node_entry(game, nid, page, d, context))
    return "\n".join(out)


# --- pages ----------------------------------------------------------------------------------------


def _counts(game: Game, cid: str) -> dict[str, int]:
    ids = [n for n in game.time_order(cid) if game.nodes[n].kind not in ("begin", "end")]
    kinds = [game.nodes[n].kind for n in ids]
    return {"nodes": len(ids), "player": kinds.count("player"), "check": kinds.count("check"),
            "window": kinds.count("window")}


def _front(title: str) -> str:
    return f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\n---\n\n"


def container_page(p: Pages, game: Game, cid: str) -> str:
    c = game.containers[cid]
    page = f"{game.id}/{cid}.md"
    out = [_front(f"{c.label.ja} / {c.label.en} — {game.name.ja}")]
    out.append(f"# {heading(c.label.ja, c.label.en)}\n")
    out.append(para(f"{link_node(game, page, game.turn.begin, bi(game.name))} · "
                    f"{esc(both('phases' if c.kind == 'phase' else 'procedures'))} · {code(cid)}", "tcg-crumbs"))
    if c.note is not None:
        out.append(note_para(c.note))
    if c.cites:
        out.append(f"{both('cites')}: " + "; ".join(cite_md(game, x, page) for x in c.cites) + "\n")
    if c.params:
        out.append(f"{both('args')}: " + ", ".join(code(x) for x in c.params) + "\n")
    if c.kind == "procedure":
        callers = sorted({e.src for e in game.edges if e.kind == "call" and e.dst == c.begin},
                         key=list(game.nodes).index)
        if callers:
            out.append(f"{both('called_from')}: " + ", ".join(link_node(game, page, x) for x in callers) + "\n")
    if c.children:
        out.append(f"{both('steps')}: " + " → ".join(
            link_node(game, page, game.containers[s].begin, bi(game.containers[s].label)) for s in c.children) + "\n")
    out.append(f"\n## {heading(w('chart', 'ja'), w('chart', 'en'))}\n")
    out.append(p.charts_block(page, f"{game.id}/{cid}", Text(f"{c.label.ja}のチャート", f"chart of the {c.label.en}")))
    out.append(f"\n## {heading(w('nodes', 'ja'), w('nodes', 'en'))}\n")
    out.append(node_entries(game, game.time_order(cid), page))
    return "\n".join(out)


def overview_page(p: Pages, game: Game, runs: list[ScenarioRun]) -> str:
    page = f"{game.id}/turn.md"
    turn = game.turn
    out = [_front(f"{game.name.ja} / {game.name.en}")]
    out.append(f"# {heading(game.name.ja, game.name.en)}\n")
    if game.note is not None:
        out.append(note_para(game.note))
    out.append(f"\n## {heading(WORDS['site.turn'][0], WORDS['site.turn'][1])}\n")
    out.append(p.charts_block(page, f"{game.id}/turn", Text(f"{game.name.ja}のターンの流れ", f"the turn of {game.name.en}")))
    swap = both("roles_swap" if game.roles_swap else "no_swap")
    out.append(f"\n{swap}\n")
    out.append(f"\n## {heading(WORDS['site.phases'][0], WORDS['site.phases'][1])}\n")
    out.append(f"| # | {hb('phases')} | {hb('steps')} | {hb('count.nodes')} | {hb('count.player')} | "
               f"{hb('count.check')} | {hb('count.window')} |")
    out.append("|---:|---|---|---:|---:|---:|---:|")
    for i, ph in enumerate(game.phases, 1):
        k = _counts(game, ph.id)
        steps = "<br>".join(link_node(game, page, game.containers[s].begin, bi(game.containers[s].label))
                            for s in ph.children) or "—"
        out.append(f"| {i} | {link_node(game, page, ph.begin, bi(ph.label))} | {steps} | {k['nodes']} | "
                   f"{k['player']} | {k['check']} | {k['window']} |")
    if game.procedures:
        out.append(f"\n## {heading(WORDS['site.procedures'][0], WORDS['site.procedures'][1])}\n")
        out.append(f"| {hb('procedures')} | id | {hb('count.nodes')} | {hb('called_from')} |")
        out.append("|---|---|---:|---:|")
        for pr in game.procedures:
            calls = sum(1 for e in game.edges if e.kind == "call" and e.dst == pr.begin)
            out.append(f"| {link_node(game, page, pr.begin, bi(pr.label))} | {code(pr.id)} | "
                       f"{_counts(game, pr.id)['nodes']} | {calls} |")
    out.append(f"\n## {heading(WORDS['site.roles'][0], WORDS['site.roles'][1])}\n")
    out.append(f"| id | {hb('roles')} | {hb('seat')} |")
    out.append("|---|---|---|")
    for r in game.roles.values():
        seat = r.get("seat")
        out.append(f"| {code(r.id)} | {bi(r.name)} | {both('seat.' + seat) if ('site.seat.' + str(seat)) in WORDS else esc(str(seat))} |")
    if game.rule_processes:
        out.append(f"\n## {heading(WORDS['site.rule_processes'][0], WORDS['site.rule_processes'][1])}\n")
        out.append(f"| id | {hb('rule_processes')} | type | {hb('when')} | {hb('does')} |")
        out.append("|---|---|---|---|---|")
        for rp in game.rule_processes.values():
            t = both("type." + rp.type) if ("site.type." + rp.type) in WORDS else esc(rp.type)
            when = code(cond_text(rp.when)) if rp.when is not None else "—"
            does = "<br>".join(code(call_text(a.name, a.args)) for a in rp.actions) or "—"
            out.append(f"| {code(rp.id)} | {bi(rp.name)} | {t} | {when} | {does} |")
    for key, reg in (("zones", game.zones), ("events", game.events), ("plays", game.plays)):
        if reg:
            out.append("\n## " + heading(*WORDS["site." + key]) + "\n")
            out.append(f"| id | {both(key)} |")
            out.append("|---|---|")
            out += [f"| {code(x.id)} | {bi(x.name)} |" for x in reg.values()]
    if game.lists:
        out.append(f"\n## {heading(WORDS['site.lists'][0], WORDS['site.lists'][1])}\n")
        for lid, items in game.lists.items():
            out.append(f"- {code(lid)}: " + " → ".join(bi(i.name) for i in items))
    if game.constants:
        out.append(f"\n## {heading(WORDS['site.constants'][0], WORDS['site.constants'][1])}\n")
        out.append("| id | value |")
        out.append("|---|---|")
        out += [f"| {code(k)} | {code(_value(v))} |" for k, v in game.constants.items()]
    out.append(f"\n## {heading(WORDS['site.scenarios'][0], WORDS['site.scenarios'][1])}\n")
    out.append(f"[{esc(both('scenario_list'))}](scenarios/index.md) ({len(runs)}) · "
               f"[{esc(both('timing'))}](timing/index.md) · [{esc(both('sources'))}](sources/index.md)\n")
    ids = [turn.begin] + [n for n in game.time_order("turn") if game.nodes[n].container == "turn"
                          and n not in (turn.begin, turn.end)] + [turn.end]
    out.append(f"\n## {heading('ターンの開始と終了', 'start and end of the turn')}\n")
    out.append(node_entries(game, ids, page))
    return "\n".join(out)


_TIMING_CELL = re.compile(r'<td class="timing (k-[\w-]+)" id="([^"]+)">(.*?)</td>')


def timing_page(game: Game) -> str:
    from . import tables

    page = f"{game.id}/timing/index.md"

    def table(lang: str) -> str:
        def cell(mo):
            nid = html.unescape(mo.group(2))
            href = rel(html_url(page), html_url(node_page(game, game.nodes[nid])), nid)
            return f'<td class="timing {mo.group(1)}"><a href="{attr(href)}">{mo.group(3)}</a></td>'

        return _TIMING_CELL.sub(cell, tables.table_html(game, lang, document=False))

    out = [_front(f"{WORDS['site.timing'][0]} / {WORDS['site.timing'][1]} — {game.name.ja}")]
    out.append(f"# {heading(tables.w('title', 'ja', game.name.ja), tables.w('title', 'en', game.name.en))}\n")
    out.append(note_para(Text(tables.w("note", "ja"), tables.w("note", "en")), ""))
    out.append(f'<div class="tcg-table-wrap" markdown="0">\n{table("ja")}</div>\n')
    out.append(f"<details class=\"tcg-en-table\">\n<summary>{esc(both('table_en'))}</summary>\n\n"
               f'<div class="tcg-table-wrap" markdown="0">\n{table("en")}</div>\n\n</details>\n')
    return "\n".join(out)


def sources_page(game: Game, runs: list[ScenarioRun]) -> str:
    page = f"{game.id}/sources/index.md"
    by_section: dict[tuple[str, str | None], list[str]] = {}
    for n in game.nodes.values():
        for c in n.cites:
            by_section.setdefault((c.source, c.section), []).append(n.id)
    others: dict[tuple[str, str | None], list[str]] = {}
    for c in game.containers.values():
        for x in c.cites:
            others.setdefault((x.source, x.section), []).append(
                link_node(game, page, c.begin, code(c.id)))
    for sr in runs:
        for x in sr.scenario.cites:
            others.setdefault((x.source, x.section), []).append(
                f"[{code(sr.scenario.id)}]({rel(page, f'{game.id}/scenarios/{sr.stem}.md')})")
    out = [_front(f"{WORDS['site.sources'][0]} / {WORDS['site.sources'][1]} — {game.name.ja}")]
    out.append(f"# {heading(WORDS['site.sources'][0] + ' — ' + game.name.ja, WORDS['site.sources'][1] + ' — ' + game.name.en)}\n")
    for src in game.sources.values():
        out.append(f'\n<div class="tcg-anchor" id="{attr("src:" + src.id)}"></div>\n')
        out.append(f"## {esc(src.title)}\n")
        facts = [f"id: {code(src.id)}"]
        if src.file:
            facts.append(f"{both('file')}: {code(src.file)}")
        if src.url:
            facts.append(f"{both('url')}: <{src.url}>")
        out.append("\n".join(f"- {x}" for x in facts) + "\n")
        if src.note is not None:
            out.append(note_para(src.note))
        rows = [(None, "—")] + [(s.id, s.title) for s in src.sections]
        out.append(f"| {hb('section')} | id | {hb('cited_by')} |")
        out.append("|---|---|---|")
        for sid, title in rows:
            nodes = by_section.get((src.id, sid), [])
            more = others.get((src.id, sid), [])
            if sid is None and not nodes and not more:
                continue
            anchor = f"src:{src.id}" + (f":{sid}" if sid else "")
            cell = ", ".join(link_node(game, page, n) for n in nodes)
            if more:
                cell += ("<br>" if cell else "") + f"{both('cited_by_other')}: " + ", ".join(more)
            name = f'<span class="tcg-anchor" id="{attr(anchor)}"></span>{esc(title)}' if sid else \
                esc(both("sources"))
            out.append(f"| {name} | {code(sid) if sid else '—'} | {cell or esc(both('not_cited'))} |")
    return "\n".join(out)


_TRACE_ROW = re.compile(r"^\| (\d+) \| `([^`]+)` \|", re.MULTILINE)


def trace_markdown(game: Game, sr: ScenarioRun, lang: str, page: str) -> str:
    """The interpreter's Markdown trace, each node id a link to its entry."""
    from ..runtime.trace import as_markdown

    names = {pid: name for pid, name, _ in sr.scenario.players}
    text = as_markdown(sr.run, names, lang)

    def row(mo):
        nid = mo.group(2)
        if nid not in game.nodes:
            return mo.group(0)
        return f"| {mo.group(1)} | [`{nid}`]({rel(page, node_page(game, game.nodes[nid]), nid)}) |"

    return _TRACE_ROW.sub(row, text)


def scenario_page(p: Pages, game: Game, sr: ScenarioRun) -> str:
    sc, run = sr.scenario, sr.run
    page = f"{game.id}/scenarios/{sr.stem}.md"
    out = [_front(f"{sc.title.ja} / {sc.title.en} — {game.name.ja}")]
    out.append(f"# {heading(sc.title.ja, sc.title.en)}\n")
    out.append(para(f"{link_node(game, page, game.turn.begin, bi(game.name))} · "
                    f"[{esc(both('scenarios'))}](index.md) · {code(sc.id)}", "tcg-crumbs"))
    out.append(f"## {heading(WORDS['site.demonstrates'][0], WORDS['site.demonstrates'][1])}\n")
    if sc.demonstrates is not None:
        out.append(f'<div class="tcg-demo" markdown="1">\n\n{para(esc(sc.demonstrates.ja), lang="ja")}\n'
                   f'{para(esc(sc.demonstrates.en), lang="en")}\n</div>\n')
    else:
        out.append("—\n")
    names = {pid: name for pid, name, _ in sc.players}
    facts = [
        f"{both('turn_player')}: {esc(names.get(sc.turn_player, sc.turn_player))} ({code(sc.turn_player)})",
        f"{both('first_turn')}: {both('yes') if sc.first_turn else both('no')}",
        f"{both('turns_run')}: {sc.turns} · {both('seed')}: {sc.seed} · {both('policy')}: {code(sc.policy)}",
        f"{both('players')}: " + ", ".join(f"{esc(name)} ({code(pid)})" for pid, name, _ in sc.players),
        f"{both('outcome')}: {code(run.result)}" + (f" — {', '.join(esc(names.get(x, x)) for x in run.losers)}"
                                                    if run.losers else "") + f" · {len(run.entries)} {both('entries')}",
    ]
    if sc.cites:
        facts.append(f"{both('cites')}: " + "; ".join(cite_md(game, c, page) for c in sc.cites))
    out.append("\n## " + heading(*WORDS["site.setup"]) + "\n")
    out.append("\n".join(f"- {x}" for x in facts) + "\n")
    out.append(f"\n## {heading(WORDS['site.trace_chart'][0], WORDS['site.trace_chart'][1])}\n")
    out.append(p.charts_block(page, f"{game.id}/scenarios/{sr.stem}", Text(f"{sc.title.ja}のトレース",
                                                                             f"the trace of {sc.title.en}")))
    out.append(f"\n## {heading(WORDS['site.trace_ja'][0], WORDS['site.trace_ja'][1])}\n")
    out.append(f'<div class="tcg-trace" lang="ja" markdown="1">\n\n{trace_markdown(game, sr, "ja", page)}\n</div>\n')
    out.append(f"\n## {heading(WORDS['site.trace_en'][0], WORDS['site.trace_en'][1])}\n")
    out.append(f'<div class="tcg-trace" lang="en" markdown="1">\n\n{trace_markdown(game, sr, "en", page)}\n</div>\n')
    rel_file = Path(os.path.relpath(sr.path, REPO)).as_posix() if Path(sr.path).resolve().is_relative_to(REPO) \
        else Path(sr.path).name
    out.append(f"\n<details class=\"tcg-source\">\n<summary>{esc(both('scenario_file'))}: {code(rel_file)}</summary>\n"
               f'<pre><code class="language-yaml">{html.escape(sr.text, quote=False)}</code></pre>\n</details>\n')
    return "\n".join(out)


def scenarios_index(game: Game, runs: list[ScenarioRun]) -> str:
    page = f"{game.id}/scenarios/index.md"
    out = [_front(f"{WORDS['site.scenarios'][0]} / {WORDS['site.scenarios'][1]} — {game.name.ja}")]
    out.append(f"# {heading(WORDS['site.scenarios'][0] + ' — ' + game.name.ja, WORDS['site.scenarios'][1] + ' — ' + game.name.en)}\n")
    out.append(para(link_node(game, page, game.turn.begin, bi(game.name)), "tcg-crumbs"))
    for sr in runs:
        sc = sr.scenario
        out.append(f"## [{bi(sc.title)}]({sr.stem}.md)\n")
        if sc.demonstrates is not None:
            out.append(para(esc(sc.demonstrates.ja), lang="ja") + "\n" + para(esc(sc.demonstrates.en), lang="en"))
        out.append(f"{code(sc.id)} · {code(sr.run.result)} · {len(sr.run.entries)} {both('entries')}\n")
    return "\n".join(out)


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
    from .reference import codes_table, vocab_table
    from .charts import KIND_ORDER, NODE_STYLE, ui
    from ..core.vocab import ACTIONS, EFFECTS, PREDICATES

    out = [_front(f"{WORDS['site.reference'][0]} / {WORDS['site.reference'][1]}")]
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


def generate(inputs: Inputs, charts: Path, hand_written: Path | None = None) -> Pages:
    """Every page of the site (docs path -> Markdown) and the chart files beside them; charts is the
    folder draw_charts wrote."""
    p = Pages(charts)
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
    if hand_written is not None and hand_written.is_dir():
        for f in sorted(hand_written.rglob("*")):
            if f.is_file():
                r = f.relative_to(hand_written).as_posix()
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
    out.append({both("reference"): "reference.md"})
    return out


def write_docs(p: Pages, folder: Path) -> None:
    for r, text in sorted(p.pages.items()):
        f = folder / r
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text, encoding="utf-8", newline="\n")
    for r, content in sorted(p.files.items()):
        f = folder / r
        f.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            shutil.copyfile(content, f)
        else:
            f.write_text(content, encoding="utf-8", newline="\n")


# --- building -------------------------------------------------------------------------------------


class BuildError(Exception):
    pass


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
          config: Path = REPO / "mkdocs.yml", hand_written: Path = REPO / "site", log=None) -> Path:
    """Generate the pages, build the site with mkdocs and move OUT/docs, OUT/site and OUT/mkdocs.yml into
    place. Returns the site folder. Raises InputError (diagnostics printed), BuildError or OSError."""
    log = log or sys.stderr
    t0 = time.perf_counter()
    inputs = collect(rules_dir)
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out, prefix=".site-"))
    try:
        draw_charts(inputs, tmp / "charts", cache, workers)
        pages = generate(inputs, tmp / "charts", hand_written)
        write_docs(pages, tmp / "docs")
        cfg = {"INHERIT": str(config.resolve()), "docs_dir": "docs", "site_dir": "site", "nav": nav(inputs)}
        (tmp / "mkdocs.yml").write_text("# generated by 'tcgtiming site': the repository's mkdocs.yml, the folders "
                                        "and the navigation\n" + json.dumps(cfg, ensure_ascii=False, indent=1) + "\n",
                                        encoding="utf-8")
        t1 = time.perf_counter()
        said = run_mkdocs(tmp / "mkdocs.yml")
        if said:
            log.write(said + "\n")
        t2 = time.perf_counter()
        old = Path(tempfile.mkdtemp(dir=out, prefix=".old-"))
        for name in ("docs", "site", "mkdocs.yml"):
            if (out / name).exists():
                os.replace(out / name, old / name)
            os.replace(tmp / name, out / name)
        shutil.rmtree(old, ignore_errors=True)
        log.write(f"site: {len(pages.pages)} pages generated in {t1 - t0:.1f} s, built by mkdocs in {t2 - t1:.1f} s\n")
        return out / "site"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def cmd_site(args) -> int:
    from ..core.diagnostics import Diagnostic
    from .charts import RenderError, cache_dir
    from .report import format_text

    if args.jobs is not None and args.jobs < 1:
        sys.stderr.write("tcgtiming site: error: --jobs must be 1 or more\n")
        return 2
    if not os.path.isdir(args.rules):
        sys.stderr.write(format_text(Diagnostic("U401", f"no such directory: {args.rules}", args.rules, 0, 0), None)
                         + "\n")
        return 2
    if not rule_files(args.rules):
        sys.stderr.write(format_text(Diagnostic("U401", f"no rule file under {args.rules}", args.rules, 0, 0), None)
                         + "\n")
        return 2
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        os.rmdir(tempfile.mkdtemp(dir=out, prefix=".site-"))  # can we write there at all?
    except OSError as exc:
        sys.stderr.write(f"tcgtiming site: error: cannot write to {out}: {exc.strerror}\n")
        return 2
    try:
        site = build(args.rules, out, None if args.no_cache else cache_dir(), args.jobs)
    except InputError:
        return 1
    except (BuildError, RenderError) as exc:
        sys.stderr.write(f"tcgtiming site: error: {exc}\n")
        return 1
    except OSError as exc:
        sys.stderr.write(f"tcgtiming site: error: cannot write {exc.filename or out}: {exc.strerror}\n")
        return 1
    sys.stdout.write(f"site: {(site / 'index.html').resolve()}\n")
    return 0


__all__ = ["cmd_site", "build", "chart_file", "collect", "draw_charts", "generate", "nav", "node_page"]

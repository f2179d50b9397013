"""The static site, one language at a time (site/ja, site/en): built by tcgtiming.present.site from the
shipped rules and scenarios (every link checked), then read back as a reader's browser would: pages,
node anchors, the charts' links, citations, Japanese heading ids, scenario traces, the language of
each page; plus determinism, templates and the command line."""
from __future__ import annotations

import posixpath
import re
import shutil
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markupsafe import escape
from conftest import MINI, ROOT
from tcgtiming.present import site
from tcgtiming.present.charts import chart_ids, node_url, page_of
from tcgtiming.present.charts.steps import large_phases, step_chart_ids
from tcgtiming.present.site.markup import slug

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The whole site of the shipped rules, built once for this module."""
    base = tmp_path_factory.mktemp("site")
    result = site.build(str(ROOT / "rules"), base / "out", cache=base / "cache")
    assert result.out == base / "out"
    inputs = site.collect(str(ROOT / "rules"))
    return base, base / "out" / "site", inputs


# --- reading the built HTML -----------------------------------------------------------------------


class _Page(HTMLParser):
    """Ids, headings, links and the text and links of each node block (div.tcg-node) of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.headings: list[tuple[str, str]] = []  # (tag, id)
        self.links: list[str] = []
        self.objects: list[str] = []
        self.blocks: dict[str, dict] = {}  # node id -> {"text": str, "links": [href]}
        self._stack: list[tuple[str, str | None]] = []  # (tag, node id of a block it opens)
        self._open: list[str] = []  # node blocks we are inside

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        block = None
        if "id" in a:
            self.ids.append(a["id"])
            if tag in ("h1", "h2", "h3", "h4"):
                self.headings.append((tag, a["id"]))
            if tag in ("div", "li") and "tcg-node" in (a.get("class") or "").split():
                block = a["id"]
                self.blocks[block] = {"text": "", "links": []}
                self._open.append(block)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
            for b in self._open:
                self.blocks[b]["links"].append(a["href"])
        if tag == "object" and a.get("data"):
            self.objects.append(a["data"])
        if tag not in ("br", "img", "input", "meta", "link", "hr"):
            self._stack.append((tag, block))

    def handle_endtag(self, tag):
        while self._stack:
            t, block = self._stack.pop()
            if block is not None:
                self._open.remove(block)
            if t == tag:
                break

    def handle_data(self, data):
        for b in self._open:
            self.blocks[b]["text"] += data


_PAGES: dict[Path, _Page] = {}


def page(path: Path) -> _Page:
    if path not in _PAGES:
        p = _Page()
        p.feed(path.read_text(encoding="utf-8"))
        _PAGES[path] = p
    return _PAGES[path]


def resolve(base_file: Path, href: str) -> tuple[Path, str]:
    """The file and the anchor a relative link of base_file points at."""
    parts = urlsplit(href)
    assert not parts.scheme and not parts.netloc, href
    target = base_file if not parts.path else (base_file.parent / unquote(parts.path)).resolve()
    return target, unquote(parts.fragment)


def site_page(out: Path, md: str, lang: str = "ja") -> Path:
    """The built page of a page path (.md or .html) in a language's folder."""
    return out / lang / (md[:-3] + ".html" if md.endswith(".md") else md)


# --- the pages ------------------------------------------------------------------------------------


def test_every_page_is_built(built):
    base, out, inputs = built
    assert {g.id for g in inputs.games} == {"ws", "versus", "gundam", "aquarian", "mtg"}
    expected = ["index.md", "reference.md"]
    for g in inputs.games:
        expected += [f"{g.id}/{c}.md" for c in chart_ids(g)]  # the overview 'turn', phases, procedures
        expected += [f"{g.id}/timing/index.md", f"{g.id}/sources/index.md", f"{g.id}/scenarios/index.md"]
        runs = inputs.runs[g.id]
        assert len(runs) >= 5
        expected += [f"{g.id}/scenarios/{sr.stem}.md" for sr in runs]
    for lang in ("ja", "en"):
        for md in expected:
            assert site_page(out, md, lang).is_file(), (lang, md)
        assert (out / lang / "assets" / "site.css").is_file()  # the hand-written files are copied
        home = (out / lang / "index.html").read_text(encoding="utf-8")
        assert "<!-- tcgtiming: games -->" not in home
        for g in inputs.games:  # the games table: every game, linked to its overview, with its numbers
            assert f'href="{g.id}/turn.html"' in home and g.name.get(lang) in unescape(home)
            assert re.search(rf"<td[^>]*>{g.stats()['nodes']}</td>", home)
            rulings = len(inputs.rulings[g.id])  # and its rulings, counted and linked
            assert rulings and f'<a href="{g.id}/rulings/index.html">{rulings}</a>' in home
    assert (out / "index.html").is_file() and (out / "404.html").is_file()  # choose a language; not found
    assert not (base / "out" / "docs").exists() and not (base / "out" / "mkdocs.yml").exists()


def test_the_site_is_offline_plain_and_in_one_language_a_page(built):
    _, out, inputs = built
    for f in out.rglob("*.html"):
        text = f.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, f
        assert not re.search(r'<(?:script|link)[^>]+(?:src|href)="(?:https?:)?//', text), f
        lang = f.relative_to(out).parts[0]
        if lang in ("ja", "en"):
            assert f'<html lang="{lang}">' in text, f
    ws = next(g for g in inputs.games if g.id == "ws")
    ja = unescape(site_page(out, "ws/attack.md", "ja").read_text(encoding="utf-8"))
    en = unescape(site_page(out, "ws/attack.md", "en").read_text(encoding="utf-8"))
    node = ws.nodes["attack.declaration.3"]
    assert node.label.ja in ja and node.label.en not in ja  # one language at a time
    assert node.label.en in en and node.label.ja not in en
    # the switch leads to the same page in the other language
    assert 'href="../../en/ws/attack.html"' in ja and 'href="../../ja/ws/attack.html"' in en


def test_every_link_of_the_site_resolves(built):
    _, out, _ = built
    assert site.check_links(out) == []


def test_every_node_has_an_anchor_where_its_chart_links(built):
    _, out, inputs = built
    for g in inputs.games:
        for node in g.nodes.values():
            url = node_url(g, node)  # ../<game>/<page>.md#<id>
            path, anchor = url.split("#", 1)
            target = site_page(out, posixpath.normpath(posixpath.join(g.id, path)))
            assert anchor == node.id
            if node.kind in ("begin", "end") and node.container != "turn":  # an anchor, not a card of its own
                assert node.id in page(target).ids, f"{node.id}: no anchor on {target.relative_to(out)}"
                assert node.id not in page(target).blocks
            else:
                assert node.id in page(target).blocks, f"{node.id}: no entry on {target.relative_to(out)}"


def test_the_charts_links_land_on_anchors(built):
    _, out, inputs = built
    svgs = sorted(out.glob("*/*/charts/*.svg")) + sorted(out.glob("*/*/scenarios/charts/*.svg"))
    games = {g.id: g for g in inputs.games}
    # each language its own; a large phase also step by step (an overview of its steps, a chart per step)
    expected = sum(2 * len(chart_ids(g)) + 2 * len(step_chart_ids(g)) + 2 * len(inputs.runs[g.id]) for g in games.values())
    assert len(svgs) == expected
    checked = 0
    for svg in svgs:
        text = svg.read_text(encoding="utf-8")
        assert ".md#" not in text, svg  # every link rewritten to the built pages
        scripts = re.findall(r'<script xlink:href="([^"]+)"', text)
        assert len(scripts) == 1 and resolve(svg, scripts[0])[0] == out / svg.relative_to(out).parts[0] / "assets" / "chart.js", svg
        for href in re.findall(r'<a xlink:href="([^"]+)"', text):
            target, anchor = resolve(svg, unescape(href))
            assert target.is_file(), (svg, href)
            assert anchor in page(target).ids, (svg, href)
            checked += 1
    assert checked > 1000
    # every page with a chart shows it in its language from its own charts/ folder, the other a link away;
    # the attack phase of Weiss Schwarz (74 nodes): its steps first, then each step's chart under its heading
    ws = games["ws"]
    assert large_phases(ws) == ["attack"]
    for lang, other in (("ja", "en"), ("en", "ja")):
        attack = site_page(out, "ws/attack.md", lang)
        assert [resolve(attack, d)[0].name for d in page(attack).objects] == \
            [f"attack.steps.{lang}.svg"] + [f"{s}.{lang}.svg" for s in ws.containers["attack"].children]
        assert any(resolve(attack, x)[0] == out / other / "ws" / "charts" / f"attack.steps.{other}.svg" for x in page(attack).links)
        assert any(resolve(attack, x)[0] == out / lang / "ws" / "charts" / f"attack.{lang}.svg" for x in page(attack).links)
        # the overview of the steps links to each step's heading, where its chart is
        steps = (out / lang / "ws" / "charts" / f"attack.steps.{lang}.svg").read_text(encoding="utf-8")
        for s in ws.containers["attack"].children:
            begin = ws.containers[s].begin
            assert f'xlink:href="../attack.html#{begin}"' in steps, s
            ids = page(attack).ids
            assert ids[ids.index(begin) + 1] == slug(ws.containers[s].label.get(lang))  # the step's heading
        # the legend is HTML beside the chart, not inside the SVG
        assert "cluster_legend" not in steps and 'id="legend"' not in steps


def test_node_entries_say_what_the_node_is(built):
    _, out, inputs = built
    ws = next(g for g in inputs.games if g.id == "ws")
    p = page(site_page(out, "ws/attack.md"))
    decl = p.blocks["attack.declaration.3"]
    node = ws.nodes["attack.declaration.3"]
    assert node.label.ja in decl["text"]
    assert "ターンプレイヤー（甲）" in decl["text"]  # the actor
    for ch in node.choices:  # the options, each linked to where it leads
        assert ch.label.ja in decl["text"]
        target = ws.nodes[ch.entry]
        assert any(resolve(site_page(out, "ws/attack.md"), h) ==
                   (site_page(out, f"ws/{target.phase}.md"), target.id) for h in decl["links"]), ch.id
    check = p.blocks["attack.declaration.2"]  # a check timing links to the check timing procedure
    assert "check_timing.html#check_timing.begin" in check["links"]
    html = site_page(out, "ws/attack.md").read_text(encoding="utf-8")
    assert 'class="tcg-node k-check' in html and 'class="tcg-node k-choice' in html and 'class="tcg-node k-auto' in html
    css = (out / "ja" / "assets" / "site.css").read_text(encoding="utf-8")
    for colour in ("#009f00", "#0000ff", "#ff0000"):  # the sources' colours
        assert colour in css


def test_nodes_appear_in_time_order(built):
    _, out, inputs = built
    for g in inputs.games:
        for ph in g.phases:
            p = page(site_page(out, f"{g.id}/{ph.id}.md"))
            shown = [i for i in p.ids if i in g.nodes]
            assert shown == g.time_order(ph.id), ph.id


def test_citations_resolve_to_source_titles(built):
    _, out, inputs = built
    n = 0
    for g in inputs.games:
        sources_page = site_page(out, f"{g.id}/sources/index.md")
        anchors = set(page(sources_page).ids)
        for node in g.nodes.values():
            pg = site_page(out, f"{g.id}/{page_of(node)}.md")
            if node.id not in page(pg).blocks:  # a start or an end: an anchor; its phase or step cites the sources
                assert node.kind in ("begin", "end")
                for c in node.cites:
                    want = f"src:{c.source}:{c.section}" if c.section else f"src:{c.source}"
                    assert any(resolve(pg, h) == (sources_page, want) for h in page(pg).links
                               if not urlsplit(h).scheme), (node.id, c)
                continue
            block = page(pg).blocks[node.id]
            for c in node.cites:
                src = g.sources[c.source]
                assert src.title in block["text"], (node.id, c)
                if c.section:
                    title = next(s.title for s in src.sections if s.id == c.section)
                    assert title in block["text"], (node.id, c)
                    want = f"src:{c.source}:{c.section}"
                    assert want in anchors
                    local = [h for h in block["links"] if not urlsplit(h).scheme]
                    assert any(resolve(pg, h) == (sources_page, want) for h in local), (node.id, c)
                if src.url:
                    assert src.url in block["links"], (node.id, c)
                n += 1
    assert n > 200
    # the sources page lists, for each section, the nodes that cite it
    src_html = site_page(out, "ws/sources/index.md").read_text(encoding="utf-8")
    assert 'href="../attack.html#attack.trigger.3"' in src_html


def test_japanese_heading_ids_are_kept(built):

    _, out, inputs = built
    for g in inputs.games:
        for ph in g.phases:
            for lang in ("ja", "en"):
                heads = {i: t for t, i in page(site_page(out, f"{g.id}/{ph.id}.md", lang)).headings}
                assert heads.get(slug(ph.label.get(lang))) == "h1", ph.id
                for s in ph.children:
                    step = g.containers[s]
                    want = slug(step.label.get(lang))
                    if lang == "ja":
                        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", want)
                    assert heads.get(want) == "h3", want
    home = page(out / "ja" / "index.html")
    assert ("h2", "ゲーム") in home.headings
    assert 'href="#ゲーム"' in (out / "ja" / "index.html").read_text(encoding="utf-8")  # the permalink


def _trace_rows(html_text: str, full: bool) -> list[list[str]]:
    """The rows (cell texts) of the brief trace table, or of the full one."""
    part = html_text.split('class="tcg-full-trace"' if full else 'class="tcg-trace"', 1)[1].split("</table>", 1)[0]
    rows = []
    for tr in re.findall(r"<tr>(.*?)</tr>", part, re.DOTALL)[1:]:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.DOTALL)
        rows.append([" ".join(unescape(re.sub(r"<[^>]+>", "", c)).split()) for c in cells])
    return rows


def test_scenario_pages_contain_their_traces_and_the_board(built):
    from tcgtiming.runtime.trace import Formatter, compact

    _, out, inputs = built
    for g in inputs.games:
        for sr in inputs.runs[g.id]:
            for lang in ("ja", "en"):
                f = site_page(out, f"{g.id}/scenarios/{sr.stem}.md", lang)
                text = f.read_text(encoding="utf-8")
                assert " ".join(sr.scenario.demonstrates.get(lang).split())[:40] in " ".join(unescape(text).split())
                fmt = Formatter(g, sr.scenario, lang)
                brief = _trace_rows(text, False)  # the brief trace by default
                folded = compact(sr.run.entries)
                assert [r[1] for r in brief] == [e.node for e, _ in folded], (sr.stem, lang)
                assert [r[3] for r in brief] == [" ".join(fmt.what(e, f).split()) for e, f in folded]
                full = _trace_rows(text, True)
                assert [r[1] for r in full] == [e.node for e in sr.run.entries], (sr.stem, lang)
                assert 'class="tcg-board"' in text  # the board at the end
                for pid, zones in sr.run.zones:
                    for _, ids in zones:
                        for c in ids:
                            assert unescape(sr.scenario.cards[c].name) in unescape(text)
            links = [h for h in page(f).links if "#" in h and not h.startswith("#")]
            for e in sr.run.entries[:50]:  # node ids link to their entries
                want = (site_page(out, f"{g.id}/{page_of(g.nodes[e.node])}.md", "en"), e.node)
                assert any(resolve(f, h) == want for h in links), e.node
            assert resolve(f, page(f).objects[0])[0].name == f"{sr.stem}.en.svg"  # the trace overlay


def test_every_reading_of_the_sources_is_on_its_page_with_the_one_that_runs(built):
    """Where the sources can be read two ways or disagree, the reader sees every reading, in the page's
    language, and which one the engine follows (the counter actor, the end-phase repeat, ...)."""
    _, out, inputs = built
    seen = 0
    for game in inputs.games:
        holders = [(page_of(n), n.id, n.readings) for n in game.nodes.values() if n.readings]
        holders += [(c.id if c.kind != "step" else c.parent, c.begin, c.readings)
                    for c in game.containers.values() if c.readings and c.kind != "turn"]
        holders += [("turn", game.turn.begin, game.turn.readings)] if game.turn.readings else []
        for page, anchor, readings in holders:
            for lang in ("ja", "en"):
                text = (out / lang / game.id / f"{page}.html").read_text(encoding="utf-8")
                for r in readings:
                    says = str(escape(getattr(r.says, lang)))
                    assert f'data-reading="{r.id}"' in text and says in text, (game.id, page, r.id, lang)
                runs = [r for r in readings if r.runs]
                assert len(runs) == 1
                block = text[text.index(f'data-reading="{runs[0].id}"') - 60:]
                assert "tcg-runs" in block[:200]
            seen += 1
    assert seen >= 20  # the four games record 27 readings


def test_reference_page_has_the_generated_tables(built):
    from tcgtiming.core.diagnostics import CODES
    from tcgtiming.core.vocab import ACTIONS, EFFECTS, PREDICATES

    _, out, _ = built
    text = (out / "ja" / "reference.html").read_text(encoding="utf-8")
    for code in CODES:
        assert f"<code>{code}</code>" in text
    for reg in (PREDICATES, ACTIONS, EFFECTS):
        for name in reg:
            assert f"<code>{name}</code>" in text


def test_the_reference_guide_is_published_and_in_the_navigation(built):
    from importlib.resources import files

    _, out, _ = built
    guide = sorted(f.name[:-3] for f in (files("tcgtiming.present") / "guide").iterdir() if f.name.endswith(".md"))
    assert "rule-language" in guide and "diagnostics" in guide
    home = (out / "ja" / "index.html").read_text(encoding="utf-8")
    for name in guide:
        page = (out / "ja" / "guide" / f"{name}.html").read_text(encoding="utf-8")
        assert "<h1" in page
        assert f'href="guide/{name}.html"' in home, f"guide/{name} is not in the navigation"
    rules = (out / "en" / "guide" / "rule-language.html").read_text(encoding="utf-8")
    assert "<code>first_turn_of_game</code>" in rules  # the generated predicates table


def test_generation_is_deterministic(built, tmp_path):
    base, out, _ = built
    inputs = site.collect(str(ROOT / "rules"))
    outs = []
    for k in range(2):
        folder = tmp_path / f"charts{k}"
        site.draw_charts(inputs, folder, base / "cache")
        pages = {lang: site.generate(inputs, folder, lang) for lang in ("ja", "en")}
        site.write_site(pages, {lang: site.nav(inputs, lang) for lang in ("ja", "en")}, tmp_path / f"site{k}")
        outs.append(tmp_path / f"site{k}")
    first = {p.relative_to(outs[0]): p.read_bytes() for p in sorted(outs[0].rglob("*")) if p.is_file()}
    second = {p.relative_to(outs[1]): p.read_bytes() for p in sorted(outs[1].rglob("*")) if p.is_file()}
    assert first.keys() == second.keys() and first == second
    # the site as built: the same, and besides it only each language's search index
    built_files = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert {k: v for k, v in built_files.items() if k.parts[1:2] != ("pagefind",)} == first


def test_a_template_folder_replaces_the_packaged_templates_by_name(mini_rules, tmp_path):
    (mini_rules / "mini" / "scenarios" / "lanes.yaml").unlink()
    themes = tmp_path / "theme"
    themes.mkdir()
    (themes / "base.html").write_text('{% extends "tcgtiming/base.html" %}{% block head %}<meta name="theme" '
                                      'content="{{ title }}">{% endblock %}', encoding="utf-8")
    out = site.build(str(mini_rules), tmp_path / "out", cache=tmp_path / "cache", templates=themes).out / "site"
    text = (out / "ja" / "mini" / "turn.html").read_text(encoding="utf-8")
    assert '<meta name="theme" content="' in text and '<main id="content"' in text
    (themes / "base.html").write_text("{% block x %}", encoding="utf-8")
    with pytest.raises(site.BuildError, match="base.html:1: template error"):
        site.build(str(mini_rules), tmp_path / "out2", cache=tmp_path / "cache", templates=themes)


def test_templates_escape_what_they_are_given():
    env = site.environment()
    assert env.autoescape is True or env.autoescape("base.html")
    text = env.get_template("landing.html").render(site_name="<b>x</b>", langs=[])
    assert "<b>x</b>" not in text and "&lt;b&gt;x&lt;/b&gt;" in text


# --- the command line -----------------------------------------------------------------------------


@pytest.fixture
def mini_rules(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(MINI.parent, rules / "mini")
    return rules


def test_cli_builds_a_site(cli, mini_rules, tmp_path, monkeypatch):
    monkeypatch.setenv("TCGTIMING_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)  # relative folders, as the Makefile gives them
    (mini_rules / "mini" / "scenarios" / "lanes.yaml").unlink()  # not scripted for --strict runs
    out = tmp_path / "out"
    code, stdout, stderr = cli("site", "--rules", "rules", "--out", "out")
    assert code == 0, stdout + stderr
    assert f"site: {(out / 'site' / 'index.html').resolve()}" in stdout
    assert (out / "site" / "ja" / "mini" / "turn.html").is_file() and (out / "site" / "en" / "mini" / "turn.html").is_file()
    assert not list(out.glob(".site-*")) and not list(out.glob(".old-*"))  # no temporary folder left


def test_cli_reports_an_invalid_rule_file_and_writes_nothing(cli, tmp_path):
    rules = tmp_path / "rules"
    (rules / "broken").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "fixtures" / "broken" / "five_mistakes.yaml", rules / "broken" / "game.yaml")
    out = tmp_path / "out"
    code, stdout, _ = cli("site", "--rules", rules, "--out", out)
    assert code == 1
    assert re.search(r"game\.yaml:93:7: error\[S201\]: unknown key 'lable'", stdout)
    assert not (out / "site").exists()


def test_the_site_refuses_a_game_id_given_twice_and_a_scenario_named_index(cli, mini_rules, tmp_path):
    """Two rule files with one game id would lose one game's pages, and a scenario file named index.yaml
    would replace the scenario list: located errors, nothing written."""
    shutil.copytree(mini_rules / "mini", mini_rules / "mini2")
    out = tmp_path / "out"
    code, stdout, _ = cli("site", "--rules", mini_rules, "--out", out)
    assert code == 1 and "error[C319]" in stdout and "mini2" in stdout
    assert not (out / "site").exists()
    shutil.rmtree(mini_rules / "mini2")
    scenarios = mini_rules / "mini" / "scenarios"
    first = sorted(scenarios.glob("*.yaml"))[0]
    shutil.copy(first, scenarios / "index.yaml")
    code, stdout, stderr = cli("site", "--rules", mini_rules, "--out", out)
    assert code == 1 and "C320" in stdout + stderr and "index.yaml" in stdout + stderr
    assert not (out / "site").exists()


def test_cli_reports_a_scenario_that_fails_and_writes_nothing(cli, mini_rules, tmp_path):
    out = tmp_path / "out"
    lanes = mini_rules / "mini" / "scenarios" / "lanes.yaml"  # Alice's choice to play her quick card, unscripted
    lanes.write_text("".join(line for line in lanes.read_text(encoding="utf-8").splitlines(keepends=True)
                             if "at: battle.free.1" not in line), encoding="utf-8")
    code, stdout, _ = cli("site", "--rules", mini_rules, "--out", out)
    assert code == 1
    assert re.search(r"game\.yaml:\d+:\d+: error\[R501\]: unscripted priority decision", stdout)
    assert not (out / "site").exists()


def test_cli_help(cli):
    code, out, _ = cli("site", "--help")
    assert code == 0 and out.startswith("usage: tcgtiming site") and "--rules" in out and "--out" in out


def test_cli_usage_errors(cli, tmp_path):
    code, _, err = cli("site", "--rules", tmp_path / "nowhere")
    assert code == 2 and "U401" in err
    (tmp_path / "empty").mkdir()
    code, _, err = cli("site", "--rules", tmp_path / "empty")
    assert code == 2 and "no rule file" in err
    code, _, _ = cli("site", "--bogus")
    assert code == 2
    (tmp_path / "file").write_text("x", encoding="utf-8")
    code, _, err = cli("site", "--rules", ROOT / "rules", "--out", tmp_path / "file")
    assert code == 2 and "cannot write" in err


def test_a_broken_link_fails_the_build(mini_rules, tmp_path):
    (mini_rules / "mini" / "scenarios" / "lanes.yaml").unlink()
    hand = tmp_path / "hand"
    hand.mkdir()
    for lang in ("ja", "en"):
        (hand / f"index.{lang}.md").write_text("# Home\n\n[a page that is not there](mini/nothing.md#x)\n",
                                              encoding="utf-8")
    with pytest.raises(site.BuildError, match="nothing.html"):
        site.build(str(mini_rules), tmp_path / "out", cache=tmp_path / "cache", hand_written=hand)
    assert not (tmp_path / "out" / "site").exists()


def _weight(out: Path, f: Path) -> int:
    """What a first visit of a page loads: the HTML, its style sheets, scripts and charts."""
    text = f.read_text(encoding="utf-8")
    size = len(text.encode("utf-8"))
    for mo in re.finditer(r'<(?:link rel="stylesheet"|script|object)[^>]*?(?:href|src|data)="([^"]+)"', text):
        parts = urlsplit(unescape(mo.group(1)))
        if not parts.scheme:
            size += (f.parent / unquote(parts.path)).resolve().stat().st_size
    return size


def test_a_first_visit_of_any_page_loads_under_600_kb(built):
    _, out, _ = built
    weights = {f.relative_to(out).as_posix(): _weight(out, f) for f in out.glob("*/**/*.html")
               if "nodes" not in f.relative_to(out).parts}
    heavy = {k: v for k, v in weights.items() if v > 600_000}
    assert heavy == {}
    assert weights["ja/index.html"] < 75_000  # the home page (five games): no search index, no framework
    # the search index loads only on the search page, and only when a reader searches
    assert "pagefind/" not in (out / "ja" / "index.html").read_text(encoding="utf-8")
    assert (out / "ja" / "pagefind" / "pagefind.js").is_file() and (out / "en" / "pagefind" / "pagefind.js").is_file()


class _Text(HTMLParser):
    """The text a reader sees on a page, without the code form (span.tcg-code) the switch shows."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.code, self._skip = [], [], []

    def handle_starttag(self, tag, attrs):
        cls = (dict(attrs).get("class") or "").split()
        if tag not in ("br", "img", "input", "meta", "link", "hr"):
            self._skip.append("tcg-code" in cls or bool(self._skip and self._skip[-1]))

    def handle_endtag(self, tag):
        if self._skip:
            self._skip.pop()

    def handle_data(self, data):
        (self.code if self._skip and self._skip[-1] else self.text).append(data)


def test_phase_pages_read_like_the_sources_numbered_lists(built):
    _, out, inputs = built
    ws = next(g for g in inputs.games if g.id == "ws")
    for lang in ("ja", "en"):
        path = site_page(out, "ws/attack.md", lang)
        html = path.read_text(encoding="utf-8")
        p = page(path)
        # no start or end cards, and no numbering like 3.attack.1. in what the reader sees
        assert not [b for b in p.blocks if ws.nodes[b].kind in ("begin", "end")]
        t = _Text()
        t.feed(html)
        seen = "".join(t.text)
        assert not re.search(r"\b\d+\.[a-z_]+\.\d+\.", seen)
        # each item is numbered in its own list (1., 2., 3.), the options' and cases' items under them
        for step in ws.containers["attack"].children:
            top = [n for n in ws.time_order(step) if ws.nodes[n].parent is None and ws.nodes[n].kind not in ("begin", "end")]
            values = [re.search(rf'<li class="tcg-node[^"]*" id="{re.escape(n)}" data-no="([\d.]+)"', html).group(1) for n in top]
            assert values == [f"{i}." for i in range(1, len(top) + 1)], step
        nested = re.search(r'<li class="tcg-case" data-case="reversed">.*?<ol class="tcg-proc"><li class="tcg-node k-player" '
                           r'id="attack.encore.3.reversed.1" data-no="3.1."', html, re.S)
        assert nested, "the option's items are a numbered list inside the case, numbered under it (3.1.)"
        # a way back says where it goes, as a link: "back to 3."
        goto = next(n for n in ws.nodes if n.startswith("attack.encore.3.reversed.") and ws.nodes[n].kind == "goto")
        back = p.blocks[goto]
        assert "#attack.encore.3" in back["links"]
        assert ("3.へ戻る" if lang == "ja" else "back to 3.") in back["text"]
        # conditions in words from the catalogue; the code form only behind the switch
        decl = p.blocks["attack.declaration.3"]
        assert ("アタックできる" if lang == "ja" else "can attack") in decl["text"]
        assert "can_attack(" not in seen and "can_attack(player=turn_player)" in "".join(t.code)
        assert 'class="tcg-code-switch"' in html
        # the sources' colours: the rules' own decisions (and their cases) in the automatic blue family
        assert 'class="tcg-node k-branch" id="attack.encore.3"' in html and '<ul class="tcg-cases k-branch">' in html


def test_the_timing_page_shows_the_sources_rows_first_and_every_row_a_click_away(built):
    _, out, inputs = built
    for g in inputs.games:
        for lang in ("ja", "en"):
            html = site_page(out, f"{g.id}/timing/index.md", lang).read_text(encoding="utf-8")
            seed, full = html.index('data-view="seed"'), html.index('data-view="full"')
            assert seed < html.index('<details class="tcg-timing-full">') < full
            assert 'class="structure"' not in html[seed:full]


def test_a_procedure_page_names_its_callers_by_step_and_number(built):
    """'called from' links each caller by where it is (its step, phase or procedure and its
    number), not by its node id."""
    from tcgtiming.core.words import word
    from tcgtiming.present.charts import local_label

    _, out, inputs = built
    seen = 0
    for g in inputs.games:
        for pr in g.procedures:
            callers = {e.src for e in g.edges if e.kind == "call" and e.dst == pr.begin}
            for lang in ("ja", "en"):
                html = site_page(out, f"{g.id}/{pr.id}.md", lang).read_text(encoding="utf-8")
                if not callers:
                    continue
                item = re.search(rf"<li>{re.escape(word('site.called_from', lang))}: (.*?)</li>", html)
                assert item, (g.id, pr.id, lang)
                links = dict(re.findall(r'<a href="[^"#]*#([^"]+)">([^<]+)</a>', item.group(1)))
                assert set(links) == callers
                for nid, text in links.items():
                    n = g.nodes[nid]
                    assert unescape(text) == f"{g.containers[n.container].label.get(lang)} {local_label(g, n)}".strip()
                    seen += 1
    assert seen >= 24  # MTG's priority alone is called from 12 places, in two languages


def test_a_scenario_page_says_how_the_run_ended_in_words(built):
    """The outcome is said in the catalogue's words of the page's language (the losers by name), with
    the result's code beside it."""
    from tcgtiming.present.explore import outcome_words

    _, out, inputs = built
    results = set()
    for g in inputs.games:
        for sr in inputs.runs[g.id]:
            for lang in ("ja", "en"):
                html = unescape(site_page(out, f"{g.id}/scenarios/{sr.stem}.md", lang).read_text(encoding="utf-8"))
                said = outcome_words(sr.run.result, [sr.names.get(x, x) for x in sr.run.losers], lang)
                assert said != sr.run.result
                assert f"{said} (<code>{sr.run.result}</code>)" in html, (g.id, sr.stem, lang)
            results.add(sr.run.result)
    assert {"ongoing", "lose"} <= results


def test_the_coverage_page_names_node_and_edge_kinds_in_the_pages_language(built):
    """The kind of a node and of an unvisited edge is said in the chart's words (its legend's), so a
    Japanese coverage page shows no English kind names."""
    from tcgtiming.core.words import word

    _, out, inputs = built
    for g in inputs.games:
        for lang in ("ja", "en"):
            html = site_page(out, f"{g.id}/coverage/index.md", lang).read_text(encoding="utf-8")
            col = word("cov.col.kind", lang)
            kinds = set(re.findall(rf'<td data-label="{re.escape(col)}">([^<]*)</td>', html))
            assert len(kinds) >= 3, (g.id, lang, kinds)
            edges = set(re.findall(r"</code> \(([^)]*)\) — ", html))
            if lang == "ja":
                assert not any(re.search(r"[A-Za-z]", k) for k in kinds | edges), (g.id, kinds | edges)
            else:
                assert "begin" not in kinds and word("site.start", "en") in kinds
            # the turn's start is visited by every scenario: said in a word, not as the list of them all
            n = len({sr.stem for sr in inputs.runs[g.id]} | {r.stem for r in inputs.rulings.get(g.id, []) if r.run is not None})
            cell = re.search(rf'#{re.escape(g.turn.begin)}".*?</td>\s*<td[^>]*>[^<]*</td>\s*<td[^>]*>[^<]*</td>\s*'
                             rf'<td[^>]*>([^<]*)</td>', html, re.S)
            assert cell and unescape(cell.group(1)) == word("cov.every_input", lang, n), (g.id, lang)

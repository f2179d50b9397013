"""The static site: built with `mkdocs build --strict` (through tcgtiming.present.site) from the shipped rules and
scenarios, then read back as a reader's browser would: pages, node anchors, the charts' links,
citations, Japanese heading ids, scenario traces; plus determinism and the command line."""
from __future__ import annotations

import io
import posixpath
import re
import shutil
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import MINI, ROOT
from tcgtiming.present import site
from tcgtiming.present.charts import chart_ids, node_url, page_of

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The whole site of the shipped rules, built once for this module."""
    base = tmp_path_factory.mktemp("site")
    log = io.StringIO()
    out = site.build(str(ROOT / "rules"), base / "out", cache=base / "cache", log=log)
    assert out == base / "out" / "site"
    inputs = site.collect(str(ROOT / "rules"))
    return base, out, inputs


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
            if tag == "div" and "tcg-node" in (a.get("class") or "").split():
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


def site_page(out: Path, md: str) -> Path:
    return out / (md[:-3] + ".html")


# --- the pages ------------------------------------------------------------------------------------


def test_every_page_is_built(built):
    base, out, inputs = built
    assert {g.id for g in inputs.games} == {"ws", "versus", "gundam", "aquarian"}
    expected = ["index.md", "reference.md"]
    for g in inputs.games:
        expected += [f"{g.id}/{c}.md" for c in chart_ids(g)]  # the overview 'turn', phases, procedures
        expected += [f"{g.id}/timing/index.md", f"{g.id}/sources/index.md", f"{g.id}/scenarios/index.md"]
        runs = inputs.runs[g.id]
        assert len(runs) >= 5
        expected += [f"{g.id}/scenarios/{sr.stem}.md" for sr in runs]
    for md in expected:
        assert (base / "out" / "docs" / md).is_file(), md
        assert site_page(out, md).is_file(), md
    assert (out / "assets" / "extra.css").is_file()  # the hand-written sources are copied
    assert (out / "search" / "search_index.json").is_file()
    home = (out / "index.html").read_text(encoding="utf-8")
    assert "<!-- tcgtiming: games -->" not in home
    for g in inputs.games:  # the games table: every game, linked to its overview, with its numbers
        assert f'href="{g.id}/turn.html"' in home
        assert re.search(rf"<td[^>]*>{g.stats()['nodes']}</td>", home)


def test_the_site_is_offline_and_plain(built):
    _, out, _ = built
    for f in out.rglob("*.html"):
        text = f.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, f
        assert not re.search(r'<(?:script|link)[^>]+(?:src|href)="(?:https?:)?//', text), f
    cfg = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "font: false" in cfg and "language: ja" in cfg and "site_dir: build/site" in cfg


def test_every_node_has_an_anchor_where_its_chart_links(built):
    _, out, inputs = built
    for g in inputs.games:
        for node in g.nodes.values():
            url = node_url(g, node)  # ../<game>/<page>.md#<id>
            path, anchor = url.split("#", 1)
            target = site_page(out, posixpath.normpath(posixpath.join(g.id, path)))
            assert anchor == node.id
            assert node.id in page(target).blocks, f"{node.id}: no entry on {target.relative_to(out)}"


def test_the_charts_links_land_on_anchors(built):
    _, out, inputs = built
    svgs = sorted(out.glob("*/charts/*.svg")) + sorted(out.glob("*/scenarios/charts/*.svg"))
    games = {g.id: g for g in inputs.games}
    expected = sum(2 * len(chart_ids(g)) + 2 * len(inputs.runs[g.id]) for g in games.values())
    assert len(svgs) == expected
    checked = 0
    for svg in svgs:
        text = svg.read_text(encoding="utf-8")
        assert ".md#" not in text, svg  # every link rewritten to the built pages
        for href in re.findall(r'xlink:href="([^"]+)"', text):
            target, anchor = resolve(svg, unescape(href))
            assert target.is_file(), (svg, href)
            assert anchor in page(target).ids, (svg, href)
            checked += 1
    assert checked > 1000
    # every page with a chart shows it (the Japanese one, the English one folded) from its own charts/ folder
    attack = site_page(out, "ws/attack.md")
    assert [resolve(attack, d)[0].name for d in page(attack).objects] == ["attack.ja.svg", "attack.en.svg"]


def test_node_entries_say_what_the_node_is(built):
    _, out, inputs = built
    ws = next(g for g in inputs.games if g.id == "ws")
    p = page(site_page(out, "ws/attack.md"))
    decl = p.blocks["attack.declaration.3"]
    node = ws.nodes["attack.declaration.3"]
    assert node.label.ja in decl["text"] and node.label.en in decl["text"]
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
    css = (out / "assets" / "extra.css").read_text(encoding="utf-8")
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
    from pymdownx.slugs import slugify

    _, out, inputs = built
    slug = slugify(case="lower")
    for g in inputs.games:
        for ph in g.phases:
            heads = {i: t for t, i in page(site_page(out, f"{g.id}/{ph.id}.md")).headings}
            assert slug(f"{ph.label.ja} {ph.label.en}", "-") in heads, ph.id
            for s in ph.children:
                step = g.containers[s]
                want = slug(f"{step.label.ja} {step.label.en}", "-")
                assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", want)
                assert heads.get(want) == "h3", want
    home = page(out / "index.html")
    assert ("h2", "ゲーム-games") in home.headings
    assert 'href="#ゲーム-games"' in (out / "index.html").read_text(encoding="utf-8")  # the table of contents


def _trace_rows(html_text: str, lang: str) -> list[list[str]]:
    """The rows (cell texts) of the trace table in the section of a language."""
    part = html_text.split(f'<div class="tcg-trace" lang="{lang}">', 1)[1].split("</table>", 1)[0]
    rows = []
    for tr in re.findall(r"<tr>(.*?)</tr>", part, re.DOTALL)[1:]:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.DOTALL)
        rows.append([" ".join(unescape(re.sub(r"<[^>]+>", "", c)).split()) for c in cells])
    return rows


def test_scenario_pages_contain_their_traces(built):
    from tcgtiming.runtime.narrate import Narrator

    _, out, inputs = built
    for g in inputs.games:
        for sr in inputs.runs[g.id]:
            f = site_page(out, f"{g.id}/scenarios/{sr.stem}.md")
            text = f.read_text(encoding="utf-8")
            assert " ".join(sr.scenario.demonstrates.ja.split())[:40] in " ".join(unescape(text).split())
            for lang in ("ja", "en"):
                rows = _trace_rows(text, lang)
                told = Narrator(g, sr.scenario, lang)
                assert [r[1] for r in rows] == [e.node for e in sr.run.entries], (sr.stem, lang)
                assert [r[4] for r in rows] == [" ".join(told.entry(e).split()) for e in sr.run.entries]
            links = [h for h in page(f).links if "#" in h and not h.startswith("#")]
            for e in sr.run.entries[:50]:  # node ids link to their entries
                want = (site_page(out, f"{g.id}/{page_of(g.nodes[e.node])}.md"), e.node)
                assert any(resolve(f, h) == want for h in links), e.node
            assert resolve(f, page(f).objects[0])[0].name == f"{sr.stem}.ja.svg"  # the trace overlay


def test_reference_page_has_the_generated_tables(built):
    from tcgtiming.core.diagnostics import CODES
    from tcgtiming.core.vocab import ACTIONS, EFFECTS, PREDICATES

    _, out, _ = built
    text = (out / "reference.html").read_text(encoding="utf-8")
    for code in CODES:
        assert f"<code>{code}</code>" in text
    for reg in (PREDICATES, ACTIONS, EFFECTS):
        for name in reg:
            assert f"<code>{name}</code>" in text


def test_generation_is_deterministic(built, tmp_path):
    base, _, _ = built
    inputs = site.collect(str(ROOT / "rules"))
    outs = []
    for k in range(2):
        folder = tmp_path / f"charts{k}"
        site.draw_charts(inputs, folder, base / "cache")
        pages = site.generate(inputs, folder, ROOT / "site")
        site.write_docs(pages, tmp_path / f"docs{k}")
        outs.append(tmp_path / f"docs{k}")
    first = {p.relative_to(outs[0]): p.read_bytes() for p in sorted(outs[0].rglob("*")) if p.is_file()}
    second = {p.relative_to(outs[1]): p.read_bytes() for p in sorted(outs[1].rglob("*")) if p.is_file()}
    assert first.keys() == second.keys() and first == second
    built_docs = base / "out" / "docs"
    assert {p.relative_to(built_docs): p.read_bytes() for p in built_docs.rglob("*") if p.is_file()} == first


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
    assert (out / "site" / "mini" / "turn.html").is_file() and (out / "docs" / "mini" / "turn.md").is_file()
    assert not list(out.glob(".site-*")) and not list(out.glob(".old-*"))  # no temporary folder left


def test_cli_reports_an_invalid_rule_file_and_writes_nothing(cli, tmp_path):
    rules = tmp_path / "rules"
    (rules / "broken").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "fixtures" / "broken" / "five_mistakes.yaml", rules / "broken" / "game.yaml")
    out = tmp_path / "out"
    code, stdout, _ = cli("site", "--rules", rules, "--out", out)
    assert code == 1
    assert re.search(r"game\.yaml:93:7: error\[S201\]: unknown key 'lable'", stdout)
    assert not (out / "site").exists() and not (out / "docs").exists()


def test_cli_reports_a_scenario_that_fails_and_writes_nothing(cli, mini_rules, tmp_path):
    out = tmp_path / "out"
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


def test_a_broken_link_fails_the_strict_build(mini_rules, tmp_path):
    (mini_rules / "mini" / "scenarios" / "lanes.yaml").unlink()
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "index.md").write_text("# Home\n\n[a page that is not there](mini/nothing.md#x)\n", encoding="utf-8")
    with pytest.raises(site.BuildError, match="nothing.md"):
        site.build(str(mini_rules), tmp_path / "out", cache=tmp_path / "cache", hand_written=hand, log=io.StringIO())
    assert not (tmp_path / "out" / "site").exists()

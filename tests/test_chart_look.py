"""What a reader sees of a window and of a go-to, on the charts and the site, for any game:

* a window's hook before each priority (``before_priority``) is on its chart node and its page, each
  of its actions in the catalogue's words; a window without one says nothing of it;
* the site gives a window's facts as whole phrases (a chart's line breaks do not cut a list of
  play kinds on the page);
* the text of an arrow-shaped node (a go-to, an exit, a trigger) stays inside the arrow's shaft
  in the SVG that graphviz draws, number line included.
"""
from __future__ import annotations

import re
import shutil
from html import unescape

import pytest

from conftest import MINI, ROOT
from tcgtiming.core.words import word
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.present import charts
from tcgtiming.present.site.nodes import node_entry
from tcgtiming.present.site.procedure import procedure_list

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz not installed")


@pytest.fixture(scope="module")
def mtg():
    return compile_file(ROOT / "rules" / "mtg" / "game.yaml").game


@pytest.fixture(scope="module")
def mini():
    return compile_file(MINI).game


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TCGTIMING_CACHE_DIR", str(tmp_path / "cache"))


def hooked(game):
    return [n for n in game.nodes.values() if n.kind == "window" and n.window and n.window.before_priority]


def squeezed(text: str) -> str:
    """Text without tags and white space: a wrapped label compares with the words it wraps."""
    return re.sub(r"\s+", "", unescape(re.sub(r"<[^>]+>", " ", text)))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_window_chart_says_what_happens_before_each_priority(mtg, lang):
    nodes = hooked(mtg)
    assert nodes
    for node in nodes:
        dot = charts.to_dot(charts.build_chart(mtg, charts.page_of(node), lang))
        line = next(ln for ln in dot.splitlines() if ln.lstrip().startswith(f'"{node.id}" ['))
        said = [word(f"act.{a.name}", lang) for a in node.window.before_priority]
        assert squeezed(word("chart.before_priority", lang, " → ".join(said))) in squeezed(line)


def test_a_window_without_the_hook_says_nothing_of_it(mini):
    windows = [n for n in mini.nodes.values() if n.kind == "window"]
    assert windows and not hooked(mini)
    for node in windows:
        _, small = charts.window_facts(mini, node, "en")
        assert small and not any(s.startswith(word("chart.before_priority", "en", "")) for s in small)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_site_gives_a_windows_facts_as_whole_phrases(mtg, lang):
    node = hooked(mtg)[0]
    key, small = charts.window_facts(mtg, node, lang)
    plays = [k for k in key if k.startswith(word("chart.plays", lang, ""))]
    assert plays, key
    page = charts.page_of(node) + ".html"
    for html in (str(procedure_list(mtg, node.container, page, lang)), str(node_entry(mtg, node.id, page, 0, lang))):
        text = unescape(re.sub(r"<[^>]+>", "", html))
        assert plays[0] in text  # the list of play kinds in one piece, as the rule file gives it
        for act in node.window.before_priority:
            assert word(f"act.{act.name}", lang) in text


def arrow_nodes(svg: str) -> list[tuple[str, list[float], list[tuple[float, float]]]]:
    """Each arrow-shaped node of an SVG: its id, its polygon's y values, its texts (baseline, size)."""
    out = []
    for g in re.findall(r'<g id="[^"]*" class="node">(.*?)</g>', svg, re.S):
        poly = re.search(r'<polygon [^>]*points="([^"]+)"', g)
        texts = [(float(y), float(s)) for y, s in re.findall(r'<text [^>]*y="([-\d.]+)"[^>]*font-size="([\d.]+)"', g)]
        title = re.search(r"<title>(.*?)</title>", g)
        if poly is None or not texts or title is None:
            continue
        ys = [float(p.split(",")[1]) for p in poly.group(1).split()]
        if len(set(ys)) == 5:  # an arrow: head tip, shaft top, middle, shaft bottom, head tip
            out.append((unescape(title.group(1)), sorted(set(ys)), texts))
    return out


@needs_dot
@pytest.mark.parametrize("chart", ["ending", "beginning", "turn"])
def test_the_text_of_an_arrow_stays_inside_its_shaft(mtg, chart):
    svg = charts.run_dot(charts.to_dot(charts.build_chart(mtg, chart, "ja")), "svg")[0].decode("utf-8")
    found = arrow_nodes(svg)
    if chart == "ending":
        assert any(len(texts) >= 3 for _, _, texts in found)  # the repeat: its number and two lines
    for nid, ys, texts in found:
        top, bottom = ys[1], ys[3]
        for base, size in texts:
            assert base - 0.8 * size >= top and base + 0.2 * size <= bottom, (nid, ys, base, size)


def test_the_shaft_check_can_fail():
    svg = ('<g id="n1" class="node"><title>x</title><polygon points="136,-39 8,-39 8,-6 136,-6 136,0 154,-22.5 136,-45 '
           '136,-39"/><text x="1" y="-33.1" font-size="8.00">3.2.</text></g>')
    (nid, ys, texts), = arrow_nodes(svg)
    base, size = texts[0]
    assert not base - 0.8 * size >= ys[1]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_home_pages_colour_key_gives_each_kind_its_charts_colour(lang):
    """Each kind in the home page's key says its chart colour (the hex code of the charts' style)."""
    text = (ROOT / "generator" / "tcgtiming" / "present" / "site" / "data" / "pages" / f"index.{lang}.md").read_text("utf-8")
    keyed = re.findall(r'<span class="tcg-kindname k-(\w+)">[^<]*</span> — ([^\n]*)', text)
    assert {k for k, _ in keyed} >= {"player", "auto", "check", "window", "closed"}
    for kind, said in keyed:
        hexes = re.findall(r"#[0-9a-f]{6}", said)
        assert hexes == [charts.NODE_STYLE[kind]["color"]] or (not hexes and "dashed" in charts.NODE_STYLE[kind]["style"])


@pytest.mark.parametrize("game_id", ["mtg", "ws", "versus", "gundam", "aquarian"])
def test_the_overview_draws_a_way_out_of_a_step_as_a_jump_labelled_by_its_option(game_id):
    """A go-to or exit that one option of a step takes, leaving its step (or phase) for a later one,
    is a 'jump ahead' edge of the overview labelled with the option, also when it passes through the
    end of the phase (not an unlabelled 'next')."""
    game = compile_file(ROOT / "rules" / game_id / "game.yaml").game
    ch = charts.build_chart(game, "turn", "en")
    units = {n.id for n in ch.nodes}
    found = 0
    for node in game.nodes.values():
        ins = game.in_edges.get(node.id, ())
        if node.kind not in ("goto", "exit") or len(ins) != 1 or ins[0].kind != "option" or ins[0].label is None:
            continue
        unit = node.step if node.step in units else node.phase
        out = [e for e in ch.edges if e.src == unit and e.dst != unit and ins[0].label.en in " ".join(e.label)]
        if any(e.kind == "back" for e in game.successors(node.id)) or not out:
            continue
        assert all(e.kind == "jump" for e in out), (node.id, [(e.dst, e.kind) for e in out])
        found += 1
    if game_id == "mtg":
        assert found >= 1


def test_an_edge_label_keeps_a_gap_to_its_line(mtg):
    """dot sets an edge label's left side against the edge: every labelled edge starts its label with
    an empty cell, so the words stand off the line they name."""
    labelled = 0
    for chart in charts.chart_ids(mtg):
        for line in charts.to_dot(charts.build_chart(mtg, chart, "ja")).splitlines():
            if " -> " in line and " label=" in line:
                label = re.search(r" label=(<.*?>)[,\]]", line + "]").group(1)
                assert label.startswith('<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0"><TR>'
                                        '<TD WIDTH="6"></TD><TD>'), line
                labelled += 1
    assert labelled >= 5

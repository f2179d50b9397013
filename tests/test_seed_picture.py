"""The sources' own picture: the charts and the timing table compared with the seed documents.

* Every coloured item of seeds/ws-turn-flow.ja.md is drawn in its colour family (the item -> node
  mapping is tests/data/ws-turn-flow.colours.yaml; the colours are read from the document).
* The Gundam War timing table, seed rows only, matches the seed's timing chart cell by cell (the
  rows and their grey cells are read from the document).

The documents live in ../shared/seeds/ (see tests/test_sources.py); without them these tests skip.
"""
from __future__ import annotations

import colorsys
import re
from pathlib import Path

import pytest
import yaml

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.present import charts, tables
from test_render import parse_dot
from test_sources import SEEDS, needs_shared

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def family(colour: str) -> str:
    """The colour family of a #rrggbb colour: green, blue, red, purple, orange or grey."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    h, l, s = colorsys.rgb_to_hls(r, g, b)
    if s < 0.25 or l < 0.08:
        return "grey"
    deg = h * 360
    if deg < 20 or deg >= 330:
        return "red"
    if deg < 60:
        return "orange"
    if deg < 170:
        return "green"
    if deg < 255:
        return "blue"
    return "purple"


def test_colour_families():
    assert [family(c) for c in ("#009f00", "#0000ff", "#ff0000", "#7030a0", "#7f7f7f", "#b36200", "#000000")] == \
        ["green", "blue", "red", "purple", "grey", "orange", "grey"]


# --- the seed document's colours ---------------------------------------------------------------------

_FONT = re.compile(r'<font color="(#[0-9a-fA-F]{6})">|</font>')


def seed_colours(text: str) -> dict[int, str]:
    """Line number -> the colour of the text on that line (a span may cover several lines)."""
    out: dict[int, str] = {}
    current = None
    for no, line in enumerate(text.split("\n"), 1):
        seen = current
        for m in _FONT.finditer(line):
            if m.group(1):
                current = m.group(1).lower()
                seen = seen or current
            else:
                current = None
        colour = seen or current
        if colour is not None and line.strip():
            out[no] = colour
    return out


@pytest.fixture(scope="module")
def ws():
    res = compile_file(ROOT / "rules" / "ws" / "game.yaml")
    assert res.game is not None
    return res.game


@pytest.fixture(scope="module")
def drawn(ws):
    """Chart id -> (nodes, edges) of its DOT text, Japanese."""
    return {c: parse_dot(charts.to_dot(charts.build_chart(ws, c, "ja"))) for c in charts.chart_ids(ws)}


def _drawn_colour(ws, drawn, item) -> str:
    if "node" in item:
        node = ws.nodes[item["node"]]
        nodes, _ = drawn[charts.page_of(node)]
        return nodes[node.id]["color"]
    src, dst = (x.strip() for x in item["edge"].split(">"))
    _, edges = drawn[charts.page_of(ws.nodes[src])]
    found = [a for s, d, a in edges if s == src and d in (dst, "to:" + dst)]
    assert len(found) == 1, f"line {item['line']}: no single edge {src} -> {dst} drawn"
    return found[0]["color"]


@needs_shared
def test_every_coloured_item_of_the_ws_flow_is_drawn_in_its_colour(ws, drawn):
    data = yaml.safe_load((DATA / "ws-turn-flow.colours.yaml").read_text(encoding="utf-8"))
    colours = seed_colours((SEEDS / "ws-turn-flow.ja.md").read_text(encoding="utf-8"))
    legend = data["legend"]
    assert [family(colours[n]) for n in legend] == ["green", "blue", "red"]
    items = data["items"]
    lines = [it["line"] for it in items]
    assert len(lines) == len(set(lines)), "an item is mapped twice"
    assert sorted(lines) == sorted(n for n in colours if n not in legend), \
        "the mapping must name every coloured item of the document, and only those"
    assert len(items) == 125
    agree, differ = [], []
    for it in items:
        want, got = family(colours[it["line"]]), family(_drawn_colour(ws, drawn, it))
        (agree if want == got else differ).append(f"line {it['line']} {it.get('node') or it['edge']}: "
                                                   f"seed {want}, drawn {got}")
    assert not differ, f"{len(agree)} of {len(items)} agree; these differ:\n" + "\n".join(differ)
    # the deliberate exceptions still hold (and say why)
    for ex in data.get("exceptions", ()):
        assert ex["reason"].strip()
        assert family(_drawn_colour(ws, drawn, ex)) == ex["drawn"] != family(colours[ex["line"]]), ex


# --- the Gundam War timing chart ----------------------------------------------------------------------

# The row names of the source's chart (game terms; the rows themselves are read from the document).
_ROWS = ("フェイズ開始", "ステップ開始", "規定の効果", "フリータイミング", "フェイズ終了", "ダメージリセット", "効果解決",
         "手札調整", "効果終了・ターン終了")
_PLAY = "フリータイミング"  # the one timing of the chart where cards and texts may be played
_SIDES = ("自軍", "敵軍")
# rows the rule file names otherwise, on purpose (each has a note in rules/gundam/game.yaml)
_RENAMED = {("攻撃ステップ", "フェイズ終了"): "ステップ終了", ("防御ステップ", "フェイズ終了"): "ステップ終了",
            ("ダメージ判定ステップ", "フェイズ終了"): "ステップ終了"}


def gundam_chart(text: str) -> list[tuple[str, str, bool, bool]]:
    """The rows of the source's timing chart: (phase or step, row, own side may play, enemy side may
    play). This copy of the two-column chart lists each row twice (own side, then enemy side), with
    the column headings (自軍 … / 敵軍 …) in between; the grey (no play) cells are lost, and the text
    under the chart says which they are: every row but the free timings."""
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.strip() == "タイミングチャート")
    end = next(i for i, ln in enumerate(lines) if ln.startswith("※"))
    header, cells = "", []
    for ln in lines[start + 1:end]:
        for cell in (c.strip() for c in ln.split("|")):
            flat = cell.replace(" ", "")
            if flat.startswith(_SIDES) and flat.endswith(("フェイズ", "ステップ")):
                header = flat[2:]
            elif cell in _ROWS:
                cells.append((header, cell))
    assert len(cells) % 2 == 0
    rows = []
    for (h1, own), (h2, enemy) in zip(cells[::2], cells[1::2]):
        assert (h1, own) == (h2, enemy), "the two columns list the same timings"
        rows.append((h1, own, own == _PLAY, enemy == _PLAY))
    return rows


@needs_shared
def test_the_gundam_war_table_matches_the_sources_chart_cell_by_cell():
    chart = gundam_chart((SEEDS / "gundam-war-play-timing.ja.txt").read_text(encoding="utf-8"))
    assert len(chart) == 35
    game = compile_file(ROOT / "rules" / "gundam" / "game.yaml").game
    table = tables.seed_rows(game, "ja")
    assert len(table) == len(chart)
    differ, cells = [], 0
    for (where, name, own, enemy), r in zip(chart, table):
        assert r.section.endswith(where), (r.n, r.section, where)
        label = _RENAMED.get((where, name), name)
        assert r.timing.startswith(label), (r.n, r.timing, name)
        for side, want, cell in (("own", own, r.own), ("enemy", enemy, r.opp)):
            cells += 1
            if cell.open != want or (cell.text.startswith("×") == want):
                differ.append(f"row {r.n} {where} {name} ({side}): source {'○' if want else '×'}, table {cell.text}")
        if r.closed != (not (own or enemy)):
            differ.append(f"row {r.n} {where} {name}: the row's mark")
    assert cells == 70
    assert not differ, f"{cells - len(differ)} of {cells} cells agree:\n" + "\n".join(differ)

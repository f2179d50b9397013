"""Charts and timing-chart tables: the visual language in the DOT text, golden files, real SVG/PNG
renders, trace overlays, the render cache and the command line.

Golden files live in tests/golden/render/; refresh them after an intended change with

    TCGTIMING_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/test_render.py

and review the diff.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from conftest import MINI, ROOT
from tcgtiming.present import charts as render
from tcgtiming.present.charts import jobs as render_jobs
from tcgtiming.present import tables
from tcgtiming.core.text import width, wrap
from tcgtiming.core.words import WORDS, word
from tcgtiming.frontend.pipeline import compile_file

GOLDEN = ROOT / "tests" / "golden" / "render"
UPDATE = os.environ.get("TCGTIMING_UPDATE_GOLDEN") == "1"
TRACE = GOLDEN / "mini-turn.trace.jsonl"
SHORT_TRACE = GOLDEN / "mini-short.trace.jsonl"
BAD_TRACE = GOLDEN / "mini-bad.trace.jsonl"
FIVE = ROOT / "tests" / "fixtures" / "broken" / "five_mistakes.yaml"
GAMES = ("ws", "versus", "gundam", "aquarian")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")


@pytest.fixture(scope="module")
def mini():
    return compile_file(MINI).game


@pytest.fixture(scope="module")
def shipped():
    games = {}
    for g in GAMES:
        res = compile_file(ROOT / "rules" / g / "game.yaml")
        assert res.game is not None, [str(d.message) for d in res.errors]
        games[g] = res.game
    return games


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TCGTIMING_CACHE_DIR", str(tmp_path / "cache"))


# --- reading our own DOT back ---------------------------------------------------------------------

_STMT = re.compile(r'^\s*"((?:[^"\\]|\\.)*)"(?: -> "((?:[^"\\]|\\.)*)")? (\[.*\])$')


def _attrs(text: str) -> dict[str, str]:
    """key=value pairs of one DOT attribute list: quoted strings or <HTML> labels."""
    assert text[0] == "[" and text[-1] == "]"
    s, i, out = text[1:-1], 0, {}
    while i < len(s):
        j = s.index("=", i)
        key = s[i:j].strip().lstrip(",").strip()
        i = j + 1
        if s[i] == '"':
            k, buf = i + 1, []
            while s[k] != '"':
                if s[k] == "\\":
                    buf.append(s[k:k + 2])
                    k += 2
                else:
                    buf.append(s[k])
                    k += 1
            out[key] = "".join(buf).replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")
            i = k + 1
        elif s[i] == "<":
            depth, k = 0, i
            while True:
                depth += {"<": 1, ">": -1}.get(s[k], 0)
                k += 1
                if depth == 0:
                    break
            out[key] = s[i:k]
            i = k
        else:
            k = s.find(",", i)
            k = len(s) if k < 0 else k
            out[key] = s[i:k]
            i = k
        while i < len(s) and s[i] in ", ":
            i += 1
    return out


def parse_dot(text: str):
    nodes, edges = {}, []
    for line in text.splitlines():
        m = _STMT.match(line)
        if not m:
            continue
        a = _attrs(m.group(3))
        if m.group(2) is None:
            nodes[m.group(1)] = a
        else:
            edges.append((m.group(1), m.group(2), a))
    return nodes, edges


def dot_of(game, chart, lang="en", overlay=None):
    return render.to_dot(render.build_chart(game, chart, lang, overlay))


def said(attrs: dict) -> str:
    """An edge's label as read: its lines joined by one space."""
    return " ".join(plain(attrs["label"]).split())


def plain(label: str) -> str:
    """The text of an HTML-like label."""
    if label.startswith("<") and label.endswith(">"):
        label = label[1:-1]
    return re.sub(r"<[^>]+>", " ", label).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")


# --- the visual language --------------------------------------------------------------------------


def test_every_chart_of_a_game(mini, shipped):
    assert render.chart_ids(mini) == ["turn", "start", "main", "battle", "end", "check", "damage"]
    for g in shipped.values():
        ids = render.chart_ids(g)
        assert ids[0] == "turn" and ids[1:1 + len(g.turn.children)] == list(g.turn.children)
        assert set(ids[1 + len(g.turn.children):]) == {p.id for p in g.procedures}


def test_large_phases_are_also_drawn_step_by_step_in_every_format(shipped):
    from tcgtiming.present.charts.steps import step_chart_ids

    ws, gw = shipped["ws"], shipped["gundam"]
    assert step_chart_ids(ws) == ["attack.steps", *ws.containers["attack"].children]
    assert step_chart_ids(gw) == ["battle.steps", *gw.containers["battle"].children]
    assert step_chart_ids(shipped["versus"]) == step_chart_ids(shipped["aquarian"]) == []
    for g in shipped.values():
        for cid in render.chart_ids(g) + step_chart_ids(g):
            ch = render.build_chart(g, cid, "en")
            assert render.to_mermaid(ch) and render.to_dot(ch, legend=False).count("cluster_legend") == 0
    # the overview of the steps: each step once, in order, linking to the step's start; the ways between them
    nodes, edges = parse_dot(render.to_dot(render.build_chart(ws, "attack.steps", "ja"), legend=False))
    steps = ws.containers["attack"].children
    assert [n for n in nodes if n in steps] == list(steps)
    for s in steps:
        assert nodes[s]["URL"] == f"../ws/attack.md#{ws.containers[s].begin}"
    drawn = {(a, b): at["id"].rsplit(":", 1)[1] for a, b, at in edges}
    assert drawn[("attack.declaration", "attack.trigger")] == "next"
    assert drawn[("attack.declaration", "attack.encore")] == "jump"  # stop attacking
    assert drawn[("attack.damage", "attack.declaration")] == drawn[("attack.battle", "attack.declaration")] == "back"
    assert ("attack.battle", "attack.encore") not in drawn or drawn[("attack.battle", "attack.encore")] == "order"
    # a step's chart: its nodes, the ways in and out as stubs naming the step they come from
    nodes, _ = parse_dot(render.to_dot(render.build_chart(ws, "attack.declaration", "en"), legend=False))
    assert {n for n in nodes if not n.startswith(("from:", "to:"))} == set(ws.time_order("attack.declaration"))
    assert any("damage step" in plain(a["label"]) for n, a in nodes.items() if n.startswith("from:"))


def test_node_kinds_have_their_colours_and_shapes(mini):
    seen = {}
    for chart in render.chart_ids(mini):
        nodes, _ = parse_dot(dot_of(mini, chart))
        for nid, a in nodes.items():
            if nid in mini.nodes:
                seen[nid] = a
    kind = {nid: mini.nodes[nid].kind for nid in seen}
    by = {k: [seen[n] for n in seen if kind[n] == k] for k in set(kind.values())}
    # the sources' colours: player green, automatic blue, check timing red
    assert all(a["color"] == "#009f00" and a["fontcolor"] == "#009f00" for a in by["player"])
    assert all(a["color"] == "#0000ff" and a["shape"] == "box" for a in by["auto"])
    assert all(a["color"] == "#ff0000" and a["peripheries"] == "2" for a in by["check"])
    # distinct shapes
    assert seen["main.play"]["shape"] == "diamond"  # a player's choice is a decision
    assert all(a["shape"] == "tab" for a in by["window"])
    assert all(a["shape"] == "doubleoctagon" for a in by["end_game"])
    # what the rules do by themselves is blue like the automatic actions, told apart by its shape
    assert all(a["shape"] == "cds" and a["color"] == "#0000ff" for a in by["trigger"])
    assert all(a["shape"] == "diamond" and a["color"] == "#0000ff" for a in by["branch"])
    assert all(a["shape"] == "hexagon" and a["color"] == "#0000ff" for a in by["loop"] + by["foreach"])
    assert all(a["shape"] == "rarrow" and a["color"] == "#0000ff" for a in by["goto"] + by["exit"])
    closed = by["closed"][0]
    assert closed["fillcolor"] == "#d9d9d9" and "dashed" in closed["style"] and "no play" in plain(closed["label"])
    assert all(a["fillcolor"] == "#404040" for a in by["begin"] + by["end"])
    assert all(a["peripheries"] == "2" and a["shape"] == "box" for a in by["call"])
    assert all(a["color"] == "#0000ff" for a in by["call"])  # the mini game's procedures are automatic


def test_priority_window_shows_who_has_priority_first_and_who_may_act(mini):
    nodes, _ = parse_dot(dot_of(mini, "battle"))
    text = plain(nodes["battle.free.1"]["label"])
    assert "priority: turn player → non-turn player" in text
    assert "plays: quick card" in text
    assert "closes after 2 passes in a row" in text and "resolves newest first" in text
    ja, _ = parse_dot(dot_of(mini, "battle", "ja"))
    assert "優先権: ターンプレイヤー → 非ターンプレイヤー" in plain(ja["battle.free.1"]["label"])


def test_decisions_label_every_edge_with_its_condition_or_choice(mini):
    _, edges = parse_dot(dot_of(mini, "main"))
    options = [(s, d, a) for s, d, a in edges if s == "main.play"]
    assert {said(a) for _, _, a in options} == {"play a character", "pass"}
    assert all(a["color"] == "#009f00" for _, _, a in options)
    _, edges = parse_dot(dot_of(mini, "check"))
    out = {said(a) for s, d, a in edges if s == "check.2"}
    assert out == {"the turn player has one", "the other player has one", "otherwise"}
    assert any(a.get("style") == "dashed" and said(a) == "otherwise" for s, d, a in edges if s == "check.2")


def test_back_edges_are_drawn_and_labelled(mini):
    _, edges = parse_dot(dot_of(mini, "main"))
    back = [(s, d, a) for s, d, a in edges if a.get("id", "").endswith(":back") and not s.startswith("legend:")]
    assert [(s, d) for s, d, _ in back] == [("main.play.character.2", "main.1")]
    a = back[0][2]
    assert said(a) == "back" and a["color"] == "#7030a0"
    # the way back takes part in the layout (dot turns it round), so that it finds its own side and does
    # not cross the flow; asked for, it is drawn up the right-hand side instead
    assert "constraint" not in a and "tailport" not in a and "headport" not in a
    _, edges = parse_dot(render.to_dot(render.build_chart(mini, "main", "en"), back_constraint=False))
    a = [a for s, d, a in edges if (s, d) == ("main.play.character.2", "main.1")][0]
    assert (a["constraint"], a["tailport"], a["headport"]) == ("false", "e", "e")
    _, edges = parse_dot(dot_of(mini, "end"))
    loop = [a for s, d, a in edges if (s, d) == ("end.2.1", "end.2")][0]
    assert said(loop) == "again" and loop["id"].endswith(":back")
    # the call inside a foreach returns to the loop node: the next round, drawn as a loop back
    _, edges = parse_dot(dot_of(mini, "battle"))
    again = [a for s, d, a in edges if (s, d) == ("battle.lanes.1.1.1.1", "battle.lanes.1")][0]
    assert said(again) == "again" and again["color"] == "#7030a0"
    _, edges = parse_dot(dot_of(mini, "battle", "ja"))
    assert [said(a) for s, d, a in edges if s == "battle.lanes.1" and d == "battle.lanes.1.1"] == ["各項目"]


def test_calls_link_to_the_procedure_chart_and_continue_after_it(mini):
    nodes, edges = parse_dot(dot_of(mini, "start"))
    assert nodes["start.2"]["URL"] == "../mini/check.md#check.begin"
    assert ("start.2", "start.3") in {(s, d) for s, d, _ in edges}  # after the check timing
    assert not any(d.startswith("check.") for _, d, _ in edges)  # the procedure is a chart of its own
    nodes, edges = parse_dot(dot_of(mini, "check"))
    assert "from:callers" in nodes and "to:callers" in nodes
    assert "2 places" in plain(nodes["from:callers"]["label"])  # the check nodes of start and main
    assert ("check.end", "to:callers") in {(s, d) for s, d, _ in edges}


def test_node_url_and_tooltip(mini):
    n = mini.nodes["main.play"]
    assert render.node_url(mini, n) == "../mini/main.md#main.play"
    assert render.node_url(mini, mini.nodes["check.1"]) == "../mini/check.md#check.1"
    assert render.node_url(mini, mini.nodes["turn.begin"]) == "../mini/turn.md#turn.begin"
    nodes, _ = parse_dot(dot_of(mini, "main"))
    assert nodes["main.play"]["URL"] == "../mini/main.md#main.play"
    tip = nodes["main.play"]["tooltip"]
    assert "mini#main" in tip and "Mini: the fixture game's rules § 3. Main phase" in tip
    ws_game = compile_file(ROOT / "rules" / "ws" / "game.yaml").game
    counter = next(n for n in ws_game.nodes.values() if n.step == "attack.counter" and n.kind == "player")
    nodes, _ = parse_dot(dot_of(ws_game, "attack", "ja"))
    assert counter.note.ja.split("。")[0] in nodes[counter.id]["tooltip"]  # the note, in the chart's language


def test_phase_charts_link_to_the_neighbouring_phases(mini):
    nodes, edges = parse_dot(dot_of(mini, "main"))
    assert plain(nodes["from:start.end"]["label"]).strip() == "← start phase"
    assert plain(nodes["to:battle.begin"]["label"]).strip() == "→ battle phase"
    assert nodes["to:battle.begin"]["URL"] == "../mini/battle.md#battle.begin"
    assert ("main.end", "to:battle.begin") in {(s, d) for s, d, _ in edges}


def test_steps_are_clusters_and_every_node_is_drawn(shipped):
    g = shipped["ws"]
    text = dot_of(g, "attack", "ja")
    nodes, _ = parse_dot(text)
    for step in g.containers["attack"].children:
        assert f'subgraph "cluster_{step}"' in text
    # every node the engine can reach is drawn; the step ends every way through the step jumps past are
    # not, nor the arrows out of them, nor the 'otherwise' of a decision whose cases name every option
    never = {"attack.trigger.end", "attack.damage.end", "attack.battle.end"}
    assert render.never_reached(g) == never
    assert set(g.containers["attack"].nodes) - never <= set(nodes) and not never & set(nodes)
    _, edges = parse_dot(text)
    assert ("attack.trigger.7", "attack.trigger.end") not in {(s, d) for s, d, _ in edges}
    assert not {s for s, d, _ in edges} & never
    for other in ("versus", "gundam", "aquarian"):
        assert render.never_reached(shipped[other]) == set()


def test_overview_shows_phases_in_order_loops_and_the_role_swap(mini, shipped):
    text = dot_of(mini, "turn")
    nodes, edges = parse_dot(text)
    order = [ln.split('"')[1].removeprefix("cluster_") for ln in text.splitlines()
             if ln.strip().startswith(tuple(f'"{p}" [' for p in mini.turn.children))
             or ln.strip().startswith(tuple(f'subgraph "cluster_{p}"' for p in mini.turn.children))]
    assert order == list(mini.turn.children)
    pairs = [(s, d) for s, d, _ in edges]
    assert ("start", "main") in pairs and ("main", "battle.free") in pairs
    assert ("battle.free", "battle.lanes") in pairs and ("battle.lanes", "end") in pairs
    turn = [a for s, d, a in edges if (s, d) == ("turn.end", "turn.begin")][0]
    assert "roles swap: turn player ⇄ non-turn player" in said(turn) and turn["id"].endswith(":turn")
    loop = [a for s, d, a in edges if (s, d) == ("main", "main")][0]
    assert said(loop) == "back to 1." and loop["color"] == "#7030a0"
    # Weiß Schwarz: the attack phase is a cluster of its steps, with the loop back to the declaration
    text = dot_of(shipped["ws"], "turn")
    nodes, edges = parse_dot(text)
    assert 'subgraph "cluster_attack"' in text
    backs = {(s, d) for s, d, a in edges if a.get("id", "").endswith(":back")}
    assert ("attack.damage", "attack.declaration") in backs and ("attack.battle", "attack.declaration") in backs
    assert ("end", "end") in backs  # the end phase may run again


def test_legend_on_every_chart_with_what_the_chart_uses(mini, shipped):
    for g in [mini, *shipped.values()]:
        for chart in render.chart_ids(g):
            for lang in ("ja", "en"):
                text = dot_of(g, chart, lang)
                assert "subgraph cluster_legend {" in text
                nodes, edges = parse_dot(text)
                kinds = {a["tooltip"] for n, a in nodes.items() if n.startswith("legend:") and ":e:" not in n
                         and n != "legend:hint"}
                used = {nid for nid in nodes if not nid.startswith("legend:")}
                styles = {render.NODE_STYLE[k]["shape"] for k in kinds}
                for nid in used:
                    a = nodes[nid]
                    assert a["shape"] in styles, (g.id, chart, nid)
                ekinds = {a["tooltip"] for s, d, a in edges if s.startswith("legend:e:") and a.get("style") != "invis"}
                for s, d, a in edges:
                    if not s.startswith("legend:") and a.get("style") != "invis":
                        assert a["id"].rsplit(":", 1)[1] in ekinds, (g.id, chart, a["id"])


def test_japanese_labels_are_wrapped_by_the_rules_of_japanese_line_breaking():
    text = "アタックできるキャラを1枚選び、アタックキャラにする"
    lines = wrap(text, 20)
    assert "".join(lines) == text and all(width(x) <= 20 for x in lines)
    assert lines[1].endswith("、")  # a break after the comma, not before
    for t in ("乙はカウンターを1枚プレイするか、何もしないかを選ぶ", "（攻撃側）が本国から1枚引く。先攻は引かない"):
        for limit in (12, 16, 20, 28):
            ls = wrap(t, limit)
            assert "".join(ls) == t
            assert not any(ln[0] in "、。）」ー" for ln in ls[1:])
            assert not any(ln[-1] in "（「" for ln in ls)
    assert wrap("the turn player picks one pending ability and resolves it", 30) == [
        "the turn player picks", "one pending ability", "and resolves it"]


def test_no_glyph_is_missing_from_the_pinned_font(shipped):
    """Tofu check: every character a chart draws is in IPAexGothic."""
    if shutil.which("fc-match") is None or shutil.which("fc-query") is None:
        pytest.skip("fontconfig tools are not installed")
    found = subprocess.run(["fc-match", "-f", "%{family}|%{file}", "IPAexGothic"], capture_output=True,
                           text=True).stdout
    family, _, font = found.partition("|")
    if "IPAexGothic" not in family:
        pytest.skip("IPAexGothic is not installed")
    charset = subprocess.run(["fc-query", "-f", "%{charset}", font], capture_output=True, text=True).stdout
    ranges = []
    for part in charset.split():
        a, _, b = part.partition("-")
        ranges.append((int(a, 16), int(b or a, 16)))

    def covered(ch: str) -> bool:
        return ch in "\n " or any(a <= ord(ch) <= b for a, b in ranges)

    missing = set()
    for g in shipped.values():
        for chart in render.chart_ids(g):
            for lang in ("ja", "en"):
                ch = render.build_chart(g, chart, lang)
                texts = [ch.title] + [x for n in ch.nodes for x in n.lines + n.extra + n.sub + [n.head]]
                texts += [x for e in ch.edges for x in e.label] + [c.label for c in ch.clusters]
                texts += [word(k, lang) for k in WORDS if k.startswith(("chart.k.", "chart.e.", "chart.legend", "chart.hint"))]
                missing |= {c for t in texts for c in t if not covered(c)}
    assert not missing, sorted(missing)


# --- determinism and golden files -----------------------------------------------------------------


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        return
    assert path.exists(), f"no golden file {path}: run with TCGTIMING_UPDATE_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from its golden file; if intended, refresh with TCGTIMING_UPDATE_GOLDEN=1"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_dot_and_mermaid_match_the_golden_files(mini, lang):
    for chart in render.chart_ids(mini):
        ch = render.build_chart(mini, chart, lang)
        _golden(f"mini/{chart}.{lang}.dot", render.to_dot(ch))
        _golden(f"mini/{chart}.{lang}.mmd", render.to_mermaid(ch))
    _golden(f"mini/timing-table.{lang}.md", tables.table_markdown(mini, lang))
    _golden(f"mini/timing-table.{lang}.html", tables.table_html(mini, lang))
    _golden(f"mini/timing-table.{lang}.txt", tables.table_text(mini, lang))


def test_trace_overlay_matches_the_golden_files(mini):
    entries, diags, _ = render.read_trace(str(TRACE))
    assert not diags
    ov = render.build_overlay(mini, [(s, n) for s, n, _g, _l in entries])
    for chart in ("turn", "main", "battle", "check"):
        _golden(f"mini/{chart}.trace.en.dot", render.to_dot(render.build_chart(mini, chart, "en", ov)))


# --- real renders ---------------------------------------------------------------------------------


@needs_dot
def test_svg_has_japanese_text_links_tooltips_and_the_pinned_font(mini, shipped):
    svg = render.run_dot(dot_of(shipped["ws"], "attack", "ja"), "svg")[0].decode("utf-8")
    assert svg.startswith("<?xml") and "</svg>" in svg
    assert "チェックタイミング" in svg and "アタック宣言ステップ" in svg and "凡例" in svg
    assert 'font-family="IPAexGothic' in svg and "Times" not in svg
    svg = render.run_dot(dot_of(mini, "main", "ja"), "svg")[0].decode("utf-8")
    assert 'xlink:href="../mini/main.md#main.play"' in svg
    assert 'xlink:href="../mini/check.md#check.begin"' in svg  # the check timing links to its chart
    assert "mini#main: Mini: the fixture game&#39;s rules § 3. Main phase" in svg or \
           "mini#main: Mini: the fixture game's rules § 3. Main phase" in svg
    assert 'id="a_n:main.play"' in svg or 'id="n:main.play"' in svg


@needs_dot
def test_png_is_rendered(mini):
    png, _ = render.run_dot(dot_of(mini, "battle", "ja"), "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert w > 400 and h > 400


@needs_dot
def test_svg_bytes_are_the_same_twice(mini):
    text = dot_of(mini, "battle", "ja")
    a, _ = render.run_dot(text, "svg")
    b, _ = render.run_dot(text, "svg")
    assert a == b


@needs_dot
def test_renders_are_cached_by_content_hash(mini, tmp_path):
    text = dot_of(mini, "end")
    cache = tmp_path / "c"
    a, hit1 = render.run_dot(text, "svg", cache)
    b, hit2 = render.run_dot(text, "svg", cache)
    assert (hit1, hit2) == (False, True) and a == b
    key = render.cache_key(text, "svg", render.graphviz_version())
    assert render.read_entry(cache / key[:2] / f"{key}.svg") == a
    assert render.cache_key(text, "png", render.graphviz_version()) != key
    assert render.cache_key(text, "svg", "dot - graphviz version 0.0") != key
    assert render.cache_key(text + " ", "svg", render.graphviz_version()) != key
    # files share the cache with bytes
    hit = render.render_file(text, "svg", tmp_path / "out.svg", cache)
    assert hit and (tmp_path / "out.svg").read_bytes() == a
    other = dot_of(mini, "start")
    assert render.render_file(other, "png", tmp_path / "s.png", cache) is False
    assert render.render_file(other, "png", tmp_path / "s2.png", cache) is True
    assert (tmp_path / "s.png").read_bytes() == (tmp_path / "s2.png").read_bytes()


@needs_dot
def test_parallel_and_serial_runs_write_the_same_files(mini, tmp_path):
    jobs = [render.Job(f"{c}.svg", "svg", dot_of(mini, c)) for c in render.chart_ids(mini)]
    render.run_jobs(iter(jobs), tmp_path / "a", None, workers=2)
    render.run_jobs(jobs, tmp_path / "b", None, workers=1)
    for j in jobs:
        assert (tmp_path / "a" / j.rel).read_bytes() == (tmp_path / "b" / j.rel).read_bytes()


# --- trace overlays -------------------------------------------------------------------------------


def _overlay(game, path):
    entries, diags, _ = render.read_trace(str(path))
    assert not diags
    return render.build_overlay(game, [(s, n) for s, n, _g, _l in entries])


def test_overlay_counts_visits_and_numbers_the_path(mini):
    ov = _overlay(mini, TRACE)
    assert ov.gaps == 0
    assert ov.nodes["check.begin"] == [5, 17, 25]
    assert ov.edges[("main.play.character.2", "main.1")] == [24]
    assert ov.edges[("end.2.1", "end.2")] == [59, 61]
    assert ov.after[("start.2", "start.3")] == [13]
    assert ov.after[("battle.lanes.1.1.1.1", "battle.lanes.1")] == [43, 50]
    nodes, edges = parse_dot(dot_of(mini, "end", overlay=ov))
    loop = [a for s, d, a in edges if (s, d) == ("end.2.1", "end.2")][0]
    assert said(loop).startswith("×2 #59 #61") and loop["color"] == "#d4007f"
    assert "#57 #59 #61 ×3" in plain(nodes["end.2"]["label"]) and nodes["end.2"]["penwidth"] == "3"
    nodes, edges = parse_dot(dot_of(mini, "battle", overlay=ov))
    again = [a for s, d, a in edges if (s, d) == ("battle.lanes.1.1.1.1", "battle.lanes.1")][0]
    assert said(again).startswith("×2 #43 #50")
    window = nodes["battle.free.1"]
    assert "#33 ×1" in plain(window["label"])
    # what the trace did not visit is faded
    _, edges = parse_dot(dot_of(mini, "check", overlay=ov))
    unvisited = [a for s, d, a in edges if (s, d) == ("check.2", "check.2.2.1")][0]
    assert unvisited["color"].endswith(render.FADE) and "label" in unvisited
    # overview: phases entered once, the main phase looped once, the path numbered
    nodes, edges = parse_dot(dot_of(mini, "turn", overlay=ov))
    assert "#15 ×1" in plain(nodes["main"]["label"])
    loop = [a for s, d, a in edges if (s, d) == ("main", "main")][0]
    assert said(loop).startswith("×1 #24")
    assert [said(a).split()[0] for s, d, a in edges if (s, d) == ("start", "main")] == ["#15"]


def test_overlay_bridges_left_out_start_and_end_nodes(mini):
    ov = _overlay(mini, SHORT_TRACE)
    assert ov.path[0] == (1, "start.1")  # ordered by seq, not by line
    assert ov.edges[("start.2", "check.begin")] == [3] and ov.edges[("check.begin", "check.1")] == [3]
    assert ov.edges[("check.2", "check.end")] == [5] and ov.edges[("check.end", "start.3")] == [5]
    assert ov.after[("start.2", "start.3")] == [5]
    assert ov.edges[("start.end", "main.begin")] == [6]
    assert ov.gaps == 1  # main.1 -> end.1: no edge, nothing drawn


def test_overlay_repeated_entries_at_a_window_are_not_gaps(mini):
    steps = [(1, "battle.free.begin"), (2, "battle.free.1"), (3, "battle.free.1"), (4, "battle.free.1"),
             (5, "battle.free.end")]
    ov = render.build_overlay(mini, steps)
    assert ov.gaps == 0
    assert ov.nodes["battle.free.1"] == [2, 3, 4]  # three steps at the window (a play and two passes)
    assert ov.edges[("battle.free.1", "battle.free.end")] == [5]


def test_bad_traces_get_located_diagnostics(cli, tmp_path):
    code, out, err = cli("render", MINI, "--trace", BAD_TRACE, "--out", tmp_path / "o")
    assert code == 1 and "Traceback" not in out + err
    name = str(BAD_TRACE)
    assert f"{name}:2:" in out and "error[C302]: unknown node 'start.9' in game 'mini'" in out
    assert "did you mean 'start.1'?" in out or "did you mean 'start.3'?" in out
    assert f"{name}:3:" in out and "error[Y101]: not valid JSON" in out
    assert f"{name}:4:2: error[S203]: 'seq' must be an integer" in out
    assert f"{name}:5:" in out and "seq 2 appears twice (first on line 2)" in out
    assert f"{name}:6:" in out and "unknown game 'mino'" in out and "did you mean 'mini'?" in out
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.svg"))
    code, out, err = cli("render", MINI, "--trace", tmp_path / "missing.jsonl")
    assert code == 2 and "no such trace file" in err


def test_trace_of_another_game_is_an_error(cli, tmp_path):
    trace = tmp_path / "t.jsonl"
    trace.write_text('{"seq": 1, "node": "stand.1", "game": "ws"}\n', encoding="utf-8")
    code, out, _ = cli("render", MINI, "--trace", trace, "--out", tmp_path / "o")
    assert code == 1 and f"{trace}:1:" in out and "unknown game 'ws'" in out


# --- timing-chart tables --------------------------------------------------------------------------


def test_table_rows_are_in_time_order_with_closed_rows_marked(mini):
    rs = tables.rows(mini, "en")
    assert [r.node for r in rs[:5]] == ["start.begin", "start.1", "start.2", "start.3", "main.begin"]
    assert [r.node for r in rs if r.node.endswith(".begin") and r.node.count(".") == 1] == \
        [f"{p}.begin" for p in mini.turn.children]
    assert not any(mini.nodes[r.node].kind == "end" for r in rs)  # ends get no row: nothing after the turn's end
    assert all(r.structure == (mini.nodes[r.node].kind == "begin") for r in rs)
    window = next(r for r in rs if r.node == "battle.free.1")
    assert not window.closed and window.own.open and window.opp.open
    assert window.own.text == "may play (priority first): quick card"
    assert window.opp.text == "may play (after the other passes): quick card"
    # the mini game has priority windows: a player's choice outside them acts, it is not a play timing
    choice = next(r for r in rs if r.node == "main.play")
    assert choice.closed and choice.own.act and not choice.opp.act
    assert choice.own.text == "× no play (you act here [play a character / pass])"
    for r in rs:
        if mini.nodes[r.node].kind in ("auto", "closed", "check", "trigger", "begin", "end", "player"):
            assert r.closed, r
    nested = next(r for r in rs if r.node == "main.play.character.1")
    assert nested.depth == 1 and nested.context == "play a character" and nested.origin == "nested"


def test_table_seed_view_keeps_the_sources_own_rows(mini, shipped):
    for g in [mini, *shipped.values()]:
        full, seed = tables.rows(g, "en"), tables.seed_rows(g, "en")
        assert [r.node for r in seed] == [r.node for r in full if r.origin == "source"]
        assert [r.n for r in seed] == list(range(1, len(seed) + 1))
        assert all(r.depth == 0 and not r.structure for r in seed)
    assert len(tables.seed_rows(shipped["gundam"], "ja")) == 35  # the rows of the source's timing chart
    html = tables.table_html(mini, "en", view="seed")
    assert 'data-view="seed"' in html and 'class="structure"' not in html
    assert 'class="structure"' in tables.table_html(mini, "en")
    with pytest.raises(ValueError):
        tables.rows(mini, "en", "everything")


def test_tables_for_all_four_games(shipped):
    for g in shipped.values():
        for lang in ("ja", "en"):
            rs = tables.rows(g, lang)
            nodes = [r.node for r in rs]
            assert len(nodes) == len(set(nodes))
            starts = [n for n in nodes if n in {g.containers[p].begin for p in g.turn.children}]
            assert starts == [g.containers[p].begin for p in g.turn.children]  # phases in turn order
            for r in rs:
                node = g.nodes[r.node]
                if node.kind == "window":
                    assert not r.closed
                if node.kind in ("closed", "auto", "trigger", "begin", "end"):
                    assert r.closed
            md = tables.table_markdown(g, lang)
            assert md.count("\n| ") == len(rs) + 1
            html = tables.table_html(g, lang)
            assert html.count('<tr class="closed"') == sum(r.closed and not r.structure for r in rs)
            assert html.count('<tr class="structure"') == sum(r.structure for r in rs)
    gw = tables.rows(shipped["gundam"], "ja")
    free = [r for r in gw if shipped["gundam"].nodes[r.node].kind == "window"]
    assert free and all(r.own.text.startswith("プレイできる（優先権が先）") for r in free)
    assert all(r.opp.text.startswith("プレイできる（相手のパスの後）") for r in free)
    # a play timing is a window, or in a game without windows (Weiß Schwarz) a player action
    ws = tables.rows(shipped["ws"], "en")
    assert next(r for r in ws if r.node == "main.3").own.open
    aq = tables.rows(shipped["aquarian"], "en")
    assert next(r for r in aq if r.node == "main.act.fast.1").own.open  # it plays a card itself
    assert not next(r for r in aq if r.node == "power.set").own.open


# --- the command line -----------------------------------------------------------------------------


@needs_dot
def test_render_writes_every_chart_and_says_where(cli, tmp_path):
    out = tmp_path / "charts"
    code, stdout, err = cli("render", MINI, "--lang", "ja", "--lang", "en", "--out", out)
    assert code == 0, err
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == sorted(f"mini/{c}.{lang}.svg" for c in render.chart_ids(compile_file(MINI).game)
                           for lang in ("ja", "en"))
    assert f"14 files in {out}/" in stdout
    assert not list(out.glob(".render-*"))  # the temporary folder is gone


@needs_dot
def test_render_one_phase_in_every_format(cli, tmp_path):
    out = tmp_path / "o"
    code, stdout, _ = cli("render", MINI, "--phase", "battle.lanes", "--format", "svg", "--format", "png",
                          "--format", "dot", "--format", "mermaid", "--out", out)
    assert code == 0
    assert {p.name for p in (out / "mini").iterdir()} == {"battle.ja.svg", "battle.ja.png", "battle.ja.dot",
                                                          "battle.ja.mmd"}
    assert f"wrote {out / 'mini' / 'battle.ja.svg'}" in stdout
    mmd = (out / "mini" / "battle.ja.mmd").read_text(encoding="utf-8")
    assert mmd.count("flowchart TD") == 1 and 'subgraph legend["凡例"]' in mmd
    assert "classDef window fill:#fff4d6,stroke:#b36200" in mmd
    assert 'click n_battle_free_1 href "../mini/battle.md#battle.free.1"' in mmd


@needs_dot
def test_render_with_a_trace(cli, tmp_path):
    out = tmp_path / "o"
    code, stdout, _ = cli("render", MINI, "--trace", TRACE, "--format", "dot", "--out", out)
    assert code == 0
    dot = (out / "mini" / "end.trace.ja.dot").read_text(encoding="utf-8")
    assert "×2 #59 #61" in dot


def test_render_tables(cli, tmp_path):
    code, stdout, _ = cli("render", MINI, "--format", "table", "--lang", "en")
    assert code == 0 and "Mini — timing chart (in time order)" in stdout
    assert "(priority" in stdout and "quick card" in stdout and "× check timing" in stdout
    out = tmp_path / "t"
    code, stdout, _ = cli("render", MINI, "--format", "table", "--out", out)
    assert code == 0
    assert {p.name for p in (out / "mini").iterdir()} == {"timing-table.ja.md", "timing-table.ja.html",
                                                          "timing-table.ja.txt"}


def test_render_exit_codes(cli, tmp_path):
    code, out, err = cli("render", FIVE, "--out", tmp_path / "o")
    assert code == 1 and "error[S201]" in out and "5 errors" in out and "Traceback" not in err
    assert not (tmp_path / "o").exists()
    code, _, err = cli("render", tmp_path / "nothing-here")
    assert code == 2 and "U401" in err
    code, _, err = cli("render", MINI, "--phase", "batle")
    assert code == 2 and "did you mean 'battle'?" in err
    code, _, err = cli("render", MINI, "--format", "gif")
    assert code == 2 and "invalid choice" in err
    code, _, err = cli("render", MINI, "--lang", "fr")
    assert code == 2
    code, _, err = cli("render")
    assert code == 2
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    code, _, err = cli("render", MINI, "--out", blocker)
    assert code == 2 and "cannot write to" in err and "Traceback" not in err


def test_nothing_half_written_when_graphviz_fails(cli, tmp_path, monkeypatch):
    calls = {"n": 0}
    real = render.render_file

    def flaky(text, fmt, target, cache=None):
        calls["n"] += 1
        if calls["n"] == 3:
            raise render.RenderError("dot failed (1): simulated")
        return real(text, fmt, target, cache)

    monkeypatch.setattr(render_jobs, "render_file", flaky)  # where the jobs look it up
    out = tmp_path / "o"
    out.mkdir()
    (out / "keep.txt").write_text("x", encoding="utf-8")
    code, _, err = cli("render", MINI, "--out", out, "--jobs", "1")
    assert code == 1 and "simulated" in err
    assert sorted(p.name for p in out.rglob("*")) == ["keep.txt"]

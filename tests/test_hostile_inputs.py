"""Hostile input (issue 14): text from rule files never becomes DOT, Mermaid or Markdown syntax;
control, bidi and line-separator characters are located errors; lines are counted as editors count
them; special files are refused without being opened; a deeply nested trace is a diagnostic."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import MINI, ROOT
from tcgtiming.core.text import editor_lines, md_cell, md_text, visible
from tcgtiming.frontend.loader import load_bytes
from tcgtiming.frontend.pipeline import compile_document, compile_file, unsafe_output_name
from tcgtiming.present import charts, tables
from tcgtiming.present.charts.graph import Chart, GCluster, GEdge, GNode

HOSTILE = '<a>, URL="javascript:alert(2)", x=<b>'
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TCGTIMING_CACHE_DIR", str(tmp_path / "cache"))


def _hostile_game(variant, text=HOSTILE):
    q = "'" + text.replace("'", "''") + "'"
    return variant(("en: Mini}", f"en: {q}}}"),  # the game name: the chart titles
                   ("en: free timing}", f"en: {q}}}"),  # a step: a cluster label
                   ("en: play a character}", f"en: {q}}}"),  # an option: an edge label
                   ("en: stand all characters}", f"en: {q}}}"))  # a node label


# --- #2 DOT and Mermaid: rule text is never syntax ---------------------------------------------------


def _unquoted_values(dot: str) -> list[str]:
    """Every attribute value of a DOT text that is not a quoted string."""
    found = []
    for line in dot.splitlines():
        body = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)  # quoted strings blanked out
        found += re.findall(r"(\w+)=(<)", body)
    return found


def test_a_label_shaped_like_html_is_a_quoted_string_in_dot(variant):
    res = compile_file(_hostile_game(variant))
    assert res.game is not None, [d.message for d in res.errors]
    for cid in charts.chart_ids(res.game):
        dot = charts.to_dot(charts.build_chart(res.game, cid, "en"))
        # the only unquoted values are the writer's own HTML-like node labels
        assert {k for k, _ in _unquoted_values(dot)} <= {"label"}, dot
        for line in dot.splitlines():
            assert "URL=\"javascript" not in line and ", URL=" not in line.split("[", 1)[0]
        assert 'URL="javascript:alert(2)"' not in re.sub(r'\\"', "", dot)
        if cid == "battle":
            assert '"cluster_battle.1"' in dot or "cluster_" in dot
            assert f'label="{HOSTILE.replace(chr(34), chr(92) + chr(34))}"' in dot


@needs_dot
def test_hostile_labels_render_and_stay_text_in_the_svg(variant, cli, tmp_path):
    game = _hostile_game(variant)
    code, out, err = cli("render", game, "--lang", "en", "--format", "svg", "--out", tmp_path / "o")
    assert code == 0, out + err
    svgs = list((tmp_path / "o").rglob("*.svg"))
    assert svgs
    for svg in svgs:
        text = svg.read_text(encoding="utf-8")
        assert not re.search(r'href="\s*javascript', text, re.I), svg
        assert "<a>" not in text and "<b>" not in text
    battle = (tmp_path / "o" / "mini" / "battle.en.svg").read_text(encoding="utf-8")
    assert "&lt;a&gt;, URL=&quot;javascript:alert(2)&quot;, x=&lt;b&gt;" in battle  # shown as text


@needs_dot
def test_a_label_with_angle_brackets_or_control_characters_never_fails_dot(tmp_path):
    """The writer itself: whatever reaches it (the front end refuses control characters), dot draws it."""
    nasty = ["<A> or <B>", "x\x01y\x1b[31m", "a\u2028b\u202ec", 'quote " back \\ slash \\N', "<<TABLE>>", "]; x [", "\r\n"]
    nodes = [GNode(f"n{i}", "step", [s], head=s, extra=[s], sub=[s], tooltip=s, cluster="c" if i % 2 else None)
             for i, s in enumerate(nasty)]
    edges = [GEdge(f"n{i}", f"n{i + 1}", "next", [s], tooltip=s) for i, s in enumerate(nasty[:-1])]
    ch = Chart("g", "x", "phase", "en", nasty[0] + nasty[1], nodes, edges, [GCluster("c", nasty[0], tooltip=nasty[1])])
    dot = charts.to_dot(ch)
    assert {k for k, _ in _unquoted_values(dot)} <= {"label"}
    svg, _ = charts.run_dot(dot, "svg")
    assert b"\x01" not in svg and b"\x1b" not in svg and "\u202e".encode() not in svg
    title, body = _mermaid_parts(charts.to_mermaid(ch))
    assert title == visible(nasty[0] + nasty[1])
    assert "\x01" not in body and "\u202e" not in body and "<A>" not in body and "`" not in body
    for line in body.splitlines():  # every label is one quoted string on its line
        assert line.count('"') % 2 == 0, line


def _mermaid_parts(mmd: str) -> tuple[str, str]:
    """The title (a JSON string in the front matter: text, never markup) and the flowchart."""
    _, front, body = mmd.split("---\n", 2)
    assert front.startswith("title: ") and front.count("\n") == 1
    return json.loads(front[len("title: "):]), body


def test_mermaid_labels_are_quoted_entity_coded_text(variant):
    res = compile_file(_hostile_game(variant, 'x"] --> evil["`**b**` <img src=x onerror=alert(1)> | # %% end'))
    assert res.game is not None
    shown = ""
    for cid in charts.chart_ids(res.game):
        _, mmd = _mermaid_parts(charts.to_mermaid(charts.build_chart(res.game, cid, "en")))
        shown += mmd
        assert "<img" not in mmd and "`" not in mmd
        outside = re.sub(r'"[^"\n]*"', '""', mmd)  # what is not inside a quoted label
        assert "evil" not in outside and "%%" not in outside and "alert" not in outside, outside
    assert "&lt;img src=x onerror=alert(1)&gt;" in shown  # the cluster label, whole: shown as text


def test_markdown_cells_and_titles_are_text(variant):
    evil = "[c](javascript:alert(1)) <script>alert(3)</script> *x* `y` | z"
    assert md_cell(evil) == md_text(evil)
    cell = md_cell(evil)
    assert "<" not in cell and "](" not in cell.replace("\\](", "") and "|" not in cell.replace("\\|", "")
    res = compile_file(_hostile_game(variant, evil))
    md = tables.table_markdown(res.game, "en")
    assert "<script>" not in md and "[c](javascript" not in md
    assert md.splitlines()[0].startswith("# ") and "&lt;script&gt;" in md.splitlines()[0]


# --- Y115: control, bidi and separator characters are located errors ----------------------------------


@pytest.mark.parametrize("ch", ["\x07", "\x1b", "\x7f", "\x85", "\x9b", "\u2028", "\u2029", "\u202e", "\u2066", "\u200f", "\v", "\f"])
def test_a_raw_unsafe_character_in_a_label_is_refused_where_it_is(mini_text, ch):
    text = mini_text.replace("en: stand all characters}", f"en: stand all{ch}characters}}")
    line = next(i for i, ln in enumerate(mini_text.splitlines(), 1) if "en: stand all characters}" in ln)
    col = mini_text.splitlines()[line - 1].index("stand all") + len("stand all") + 1
    res = compile_document(load_bytes(text.encode("utf-8"), "g.yaml"))
    assert res.game is None
    y115 = [d for d in res.diagnostics if d.code == "Y115"]
    assert [(d.line, d.col) for d in y115] == [(line, col)], res.diagnostics
    assert f"U+{ord(ch):04X}" in y115[0].message


@pytest.mark.parametrize("escape", ["\\x07", "\\e", "\\u202E", "\\L", "\\P", "\\N", "\\r"])
def test_an_escaped_unsafe_character_in_a_quoted_label_is_refused_at_the_label(mini_text, escape):
    text = mini_text.replace("en: stand all characters}", f'en: "stand all{escape}characters"}}')
    line = next(i for i, ln in enumerate(mini_text.splitlines(), 1) if "en: stand all characters}" in ln)
    res = compile_document(load_bytes(text.encode("utf-8"), "g.yaml"))
    assert res.game is None
    assert [(d.code, d.line) for d in res.errors] == [("Y115", line)], res.diagnostics


def test_a_scenario_player_name_with_a_control_character_is_refused(tmp_path):
    src = (ROOT / "rules" / "ws" / "scenarios" / "encore.yaml").read_text(encoding="utf-8")
    name = re.search(r"name: ([^\n,}]+)", src).group(1)
    bad = tmp_path / "ws" / "scenarios" / "encore.yaml"
    bad.parent.mkdir(parents=True)
    bad.write_text(src.replace(name, name.strip() + "\u202e", 1), encoding="utf-8")
    res = compile_file(bad, rules=str(ROOT / "rules"))
    assert [d.code for d in res.errors] == ["Y115"]


# --- #9 line numbers as editors count them ----------------------------------------------------------


@pytest.mark.parametrize("ch", ["\u2028", "\u2029", "\x85", "\v", "\f"])
def test_line_numbers_are_the_editors_with_a_raw_separator_before(mini_text, ch, cli, tmp_path):
    """A raw U+2028 (etc.) in a comment on line 2 must not shift the line of a later mistake."""
    lines = mini_text.splitlines(keepends=True)
    lines[1] = lines[1].rstrip("\n") + f" odd{ch}character\n"
    bad = next(i for i, ln in enumerate(lines) if "label: {ja: 開始フェイズ" in ln)
    lines[bad] = lines[bad].replace("label:", "lable:")
    path = tmp_path / "g.yaml"
    path.write_bytes("".join(lines).encode("utf-8"))
    code, out, _ = cli("validate", path)
    assert code == 1
    heads = [ln for ln in out.splitlines() if ln.startswith(str(path))]
    assert f"{path}:2:" in heads[0] and "Y115" in heads[0], out
    s201 = [h for h in heads if "S201" in h]
    assert s201 and s201[0].startswith(f"{path}:{bad + 1}:7:"), out
    assert f"{bad + 1} |       lable: {{ja: 開始フェイズ" in out  # and the line shown is that line


def test_editor_lines_break_only_at_newlines():
    assert editor_lines("a\u2028b\x85c\vd\fe\r\nf\rg\nh\n") == ["a\u2028b\x85c\vd\fe", "f", "g", "h"]


def test_a_trace_string_with_a_raw_line_separator_is_one_line(cli, tmp_path):
    trace = tmp_path / "t.jsonl"
    trace.write_text('{"seq": 1, "node": "start.1", "game": "mini", "what": "a\u2028b"}\n'
                     '{"seq": 2, "node": "nowhere", "game": "mini"}\n', encoding="utf-8")
    code, out, _ = cli("render", MINI, "--trace", trace, "--out", tmp_path / "o")
    assert code == 1 and f"{trace}:2:" in out and "unknown node 'nowhere'" in out and "Y101" not in out


# --- #7 special files are refused, never opened -----------------------------------------------------


def _validate(*paths, timeout=20):
    return subprocess.run([sys.executable, "-m", "tcgtiming", "validate", *map(str, paths)], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT / "generator")})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_validate_refuses_a_fifo_and_a_folder_holding_one_without_blocking(tmp_path):
    folder = tmp_path / "rules"
    folder.mkdir()
    shutil.copy(MINI, folder / "game.yaml")
    os.mkfifo(folder / "pipe.yaml")
    p = _validate(folder / "pipe.yaml")  # old: blocked for ever in open()
    assert p.returncode == 1 and "Y100" in p.stdout and "FIFO" in p.stdout and "pipe.yaml" in p.stdout, p
    p = _validate(folder)
    assert p.returncode == 1 and "error[Y100]: not a regular file but a FIFO" in p.stdout, p
    assert "1 error" in p.stdout


def test_validate_refuses_a_device_and_a_socket_and_names_a_symlink_loop(tmp_path):
    import socket

    loop = tmp_path / "loop.yaml"
    os.symlink(loop, loop)
    sock_path = tmp_path / "s.yaml"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    try:
        p = _validate("/dev/zero", loop, sock_path)
    finally:
        sock.close()
    assert p.returncode == 1 and "Traceback" not in p.stderr, p
    assert "/dev/zero: error[Y100]: not a regular file but a character device" in p.stdout
    assert f"{sock_path}: error[Y100]: not a regular file but a socket" in p.stdout
    assert f"{loop}: error[Y100]: cannot read the file: Too many levels of symbolic links" in p.stdout


# --- #8 a deeply nested trace line ----------------------------------------------------------------


def test_a_deeply_nested_trace_line_is_a_located_diagnostic(cli, tmp_path):
    trace = tmp_path / "deep.jsonl"
    trace.write_text('{"seq": 1, "node": "start.1", "game": "mini"}\n' + "[" * 100_000 + "]" * 100_000 + "\n",
                     encoding="utf-8")
    code, out, err = cli("render", MINI, "--trace", trace, "--out", tmp_path / "o")
    assert code == 1 and "Traceback" not in out + err
    assert f"{trace}:2:1: error[Y106]: nesting too deep" in out


# --- #6 collisions and unsafe names ----------------------------------------------------------------


def test_two_rule_files_with_one_game_id_are_a_located_error(cli, tmp_path):
    for g in ("a", "b"):
        (tmp_path / "rules" / g).mkdir(parents=True)
        shutil.copy(MINI, tmp_path / "rules" / g / "game.yaml")
    a, b = tmp_path / "rules" / "a" / "game.yaml", tmp_path / "rules" / "b" / "game.yaml"
    line = next(i for i, ln in enumerate(MINI.read_text(encoding="utf-8").splitlines(), 1) if ln.strip() == "id: mini")
    code, out, _ = cli("validate", a, b)  # old: exit 0
    assert code == 1, out
    assert f"{b}:{line}:7: error[C319]: game id 'mini' is also the id of the game in {a}" in out
    assert "1 error" in out
    code, out, _ = cli("validate", a, a)  # one file named twice is no collision
    assert code == 0, out
    code, out, _ = cli("compile", tmp_path / "rules")  # old: kept one of them
    assert code == 1 and "error[C319]" in out
    code, out, err = cli("render", tmp_path / "rules", "--format", "dot", "--out", tmp_path / "o")
    assert code == 1 and "error[C319]" in out and not (tmp_path / "o").exists(), out + err
    code, out, err = cli("render", tmp_path / "rules", "--format", "table")  # not streamed
    assert code == 1 and "error[C319]" in out


@pytest.mark.parametrize("name", ["index.yaml", "INDEX.yml", "a b.yaml", "x#y.yaml", "%20.yaml", "日本.yaml",
                                  ".hidden.yaml", "-x.yaml", "con.yaml", "q?.yaml", "a&b.yaml"])
def test_an_unsafe_scenario_file_name_is_a_located_error(cli, tmp_path, name):
    (tmp_path / "ws" / "scenarios").mkdir(parents=True)
    shutil.copy(ROOT / "rules" / "ws" / "game.yaml", tmp_path / "ws" / "game.yaml")
    path = tmp_path / "ws" / "scenarios" / name
    shutil.copy(ROOT / "rules" / "ws" / "scenarios" / "encore.yaml", path)
    code, out, _ = cli("validate", path)
    assert code == 1, out
    assert out.startswith(f"{path}: error[C320]: the scenario file name '{name}' cannot name its outputs"), out
    assert unsafe_output_name(str(path)) is not None


def test_safe_names_pass_and_scenarios_with_the_same_outputs_collide(cli, tmp_path):
    assert unsafe_output_name("rules/ws/scenarios/first-turn_2.v1.yaml") is None
    for f in (ROOT / "rules").glob("*/scenarios/*.yaml"):
        assert unsafe_output_name(str(f)) is None, f
    (tmp_path / "ws" / "scenarios").mkdir(parents=True)
    shutil.copy(ROOT / "rules" / "ws" / "game.yaml", tmp_path / "ws" / "game.yaml")
    for name in ("encore.yaml", "Encore.yml"):
        shutil.copy(ROOT / "rules" / "ws" / "scenarios" / "encore.yaml", tmp_path / "ws" / "scenarios" / name)
    code, out, _ = cli("validate", tmp_path / "ws" / "scenarios")
    assert code == 1 and "error[C320]" in out and "names the same outputs as" in out and "1 error" in out, out

"""Phase pages in words, numbered as the charts number them: every action the shipped rules use is
said in words from the catalogue in both languages (the code form only behind the switch), the items'
numbers (1., 2., nested 2.1.) are the same on the chart and on the page, and a decision's options
stand left to right in the rule file's order once graphviz has laid the chart out."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from conftest import ROOT
from tcgtiming.core.text import call_text
from tcgtiming.core.vocab import ACTIONS
from tcgtiming.core.words import WORDS, word
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.present.charts import build_chart, item_numbers, role_label, to_dot
from tcgtiming.present.site.phrases import action_words
from tcgtiming.present.site.procedure import procedure_list

GAMES = sorted(p.parent.name for p in (ROOT / "rules").glob("*/game.yaml"))
LATIN = re.compile(r"[A-Za-z]{2,}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


@pytest.fixture(scope="module")
def games():
    return {g: compile_file(str(ROOT / "rules" / g / "game.yaml")).game for g in GAMES}


def _names(game) -> set[str]:
    """Words that come from the rule file (names of roles, zones, lists …), in both languages."""
    out = set()
    for reg in (game.roles, game.zones, game.events, game.plays):
        for n in reg.values():
            out.update(LATIN.findall(n.name.en or "") + LATIN.findall(n.name.ja or ""))
    for items in game.lists.values():
        for n in items:
            out.update(LATIN.findall(n.name.en or "") + LATIN.findall(n.name.ja or ""))
    return out


def test_every_action_of_the_shipped_rules_is_said_in_words_in_both_languages(games):
    used = 0
    for game in games.values():
        for node in game.nodes.values():
            a = node.action
            if a is None:
                continue
            used += 1
            assert f"act.{a.name}" in WORDS, a.name
            entry = ACTIONS[a.name]
            for p in entry.params:  # every enum value an action is given has a word
                v = a.arg(p.name)
                if v is not None and p.type.startswith("enum:"):
                    assert any(f"{ns}.{v}" in WORDS for ns in (f"act.{p.name}", "state", "stat", "cond")), (a.name, p.name, v)
            ja, en = action_words(game, a, "ja"), action_words(game, a, "en")
            code = call_text(a.name, a.args)
            assert code not in (ja, en) and "=" not in ja + en, (node.id, ja, en)
            # the Japanese says it in Japanese: Latin only where the rule file's own values put it
            left = set(LATIN.findall(ja)) - _names(game) - {str(v) for _, v in a.args}
            assert not left, (node.id, ja, left)
            assert not JAPANESE.search(en.replace(role_label(game, a.arg("player"), "en"), "")) or a.arg("player"), (node.id, en)
    assert used > 50


def test_a_phase_page_says_what_a_draw_does_in_the_catalogues_words(games):
    game = games["ws"]
    draw = next(n for n in game.nodes.values() if n.action is not None and n.action.name == "draw" and n.phase == "draw")
    for lang in ("ja", "en"):
        html = str(procedure_list(game, "draw", "ws/draw.html", lang))
        item = html[html.index(f'id="{draw.id}"'):]
        item = item[:item.index("</li>")]
        said = word("act.draw", lang, role_label(game, draw.action.arg("player"), lang), str(draw.action.arg("count")))
        shown = re.sub(r"<[^>]+>", "", item.split('class="tcg-code"')[0])
        assert said.replace("(", "&#40;") in shown or said in shown.replace("&#39;", "'"), (lang, shown)
        # the code form is there, but only inside the rule writers' switch
        assert "draw(count=1, player=turn_player)" in item.split('class="tcg-code"')[1]
        assert "draw(" not in shown and "turn_player" not in shown


def test_the_chart_and_the_phase_page_number_every_item_alike(games):
    for game in games.values():
        nums = item_numbers(game)
        for ph in game.phases:
            ch = build_chart(game, ph.id, "ja")
            html = str(procedure_list(game, ph.id, f"{game.id}/{ph.id}.html", "ja"))
            for n in ch.nodes:
                if n.id not in game.nodes or game.nodes[n.id].kind in ("begin", "end"):
                    continue
                no = nums[n.id] + "."
                assert n.head.split()[0] == no, (n.id, n.head)
                assert f'id="{n.id}" data-no="{no}"' in html, n.id
                assert re.fullmatch(r"\d+(\.\d+)*\.", no) and "attack" not in no
    # nested items are numbered under their decision, each option's list from 1
    ws = games["ws"]
    assert {item_numbers(ws)[f"main.3.{o}.1"] for o in ("character", "event", "activated", "swap", "nothing")} == {"3.1"}


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")
@pytest.mark.parametrize("gid,phase,decision", [("ws", "main", "main.3"), ("aquarian", "main", "main.act")])
def test_a_decisions_options_stand_left_to_right_in_the_rule_files_order(games, gid, phase, decision):
    game = games[gid]
    node = game.nodes[decision]
    firsts = [ch.entry for ch in node.choices if ch.entry.startswith(f"{decision}.")]
    assert len(firsts) >= 5
    plain = subprocess.run(["dot", "-Tplain"], input=to_dot(build_chart(game, phase, "ja")), capture_output=True,
                           text=True, check=True).stdout
    x = {}
    for line in plain.splitlines():
        parts = line.split()
        if parts and parts[0] == "node":
            x[parts[1].strip('"')] = float(parts[2])
    xs = [x[f] for f in firsts]
    assert xs == sorted(xs), list(zip(firsts, xs))


def test_an_exit_the_rule_file_leaves_unnamed_is_named_from_the_catalogue(games):
    """``exit: {from: phase}`` without a label: the chart and the page say it in each language's words
    (not the rule language's keyword inside a Japanese label)."""
    seen = 0
    for game in games.values():
        for n in game.nodes.values():
            if n.kind == "exit" and any(n.label.ja == word(f"leave.{k}", "ja") for k in ("loop", "step", "phase", "procedure", "turn")):
                seen += 1
                assert not LATIN.search(n.label.ja) and not JAPANESE.search(n.label.en), n.id
    assert seen >= 2

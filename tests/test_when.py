"""May I play now? (``tcgtiming when``) against the facts of the sources: the Gundam War timing chart
(plays only in free timings; phase and step ends and the turn-end timings closed), Weiß Schwarz (a
counter only in the counter step, by the defending player; no play during a check timing), VERSUS
(standby plays only in the standby phase's window)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.present import when

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def games():
    return {g: compile_file(ROOT / "rules" / g / "game.yaml").game for g in ("gundam", "ws", "versus", "aquarian")}


def _open(rows):
    return [r.timing.node for r in rows if r.status == "open"]


def test_gundam_free_timings_are_the_only_open_rows_and_every_closed_node_is_closed(games):
    g = games["gundam"]
    rows = when.rows(g)
    windows = {n.id for n in g.nodes.values() if n.kind == "window"}
    closed = {n.id for n in g.nodes.values() if n.kind == "closed"}
    assert set(_open(rows)) == windows and len(windows) == 12
    assert {r.timing.node for r in rows if r.timing.type == "closed"} == closed
    assert all(r.status == "closed" for r in rows if r.timing.type != "window")
    assert {r.timing.type for r in rows} == {"window", "closed", "moment"}
    # the chart's rows: each phase and step starts with a row where no one plays (its start), and the
    # rule effects are rows of their own, between the free timings
    firsts = {}
    for r in rows:
        firsts.setdefault(r.timing.step or r.timing.phase, r)
    assert firsts and all(r.status == "closed" for r in firsts.values())
    effects = [r for r in rows if r.timing.node.endswith("rule_effect")]
    assert effects and all(r.timing.type == "moment" for r in effects)
    order = g.time_order("turn")
    assert [r.timing.node for r in rows] == sorted((r.timing.node for r in rows), key=order.index)
    assert all(r.timing.first == "attack_side" and set(r.timing.who) == {"attack_side", "defense_side"}
               for r in rows if r.timing.type == "window")


def test_gundam_reroll_phase_opens_only_after_its_closed_start(games):
    rows = when.rows(games["gundam"], when.Filter(phase="reroll"))
    assert [(r.timing.node, r.status) for r in rows] == [
        ("reroll.start", "closed"), ("reroll.rule_effect", "closed"), ("reroll.free", "open"), ("reroll.finish", "closed")]


def test_gundam_turn_ends_with_closed_timings_only(games):
    rows = when.rows(games["gundam"], when.Filter(phase="battle.return"))
    statuses = [r.status for r in rows]
    last_open = max(i for i, s in enumerate(statuses) if s == "open")
    assert statuses[last_open + 1:] and set(statuses[last_open + 1:]) == {"closed"}


def test_gundam_defending_player_may_cut_in_at_every_free_timing(games):
    g = games["gundam"]
    rows = when.rows(g, when.Filter(("text",), "non_turn"))
    assert set(_open(rows)) == {n.id for n in g.nodes.values() if n.kind == "window"}


def test_ws_counter_only_in_the_counter_step_by_the_defending_player(games):
    g = games["ws"]
    rows = when.rows(g, when.Filter(("counter",), "non_turn"))
    opened = [r.timing for r in rows if r.status == "open"]
    assert [(t.step, t.type, t.who) for t in opened] == [("attack.counter", "action", ("non_turn_player",))]
    turn = when.rows(g, when.Filter(("counter",), "turn"))
    assert not _open(turn)
    assert [r.status for r in turn if r.timing.node == opened[0].node] == ["other_player"]


def test_ws_no_play_during_check_timings_nor_anywhere_in_the_encore_step(games):
    g = games["ws"]
    rows = when.rows(g)
    checks = [r for r in rows if r.timing.type == "check"]
    assert checks and all(r.status == "closed" for r in checks)
    assert {r.timing.node for r in checks} == {n.id for n in g.nodes.values() if n.kind == "check"}
    encore = when.rows(g, when.Filter(phase="attack.encore"))
    assert encore and all(r.status == "closed" for r in encore)


def test_ws_characters_are_played_only_by_the_turn_player_in_the_main_phase(games):
    rows = when.rows(games["ws"], when.Filter(("character",)))
    assert [(r.timing.phase, r.timing.first) for r in rows if r.status == "open"] == [("main", "turn_player")]
    assert not _open(when.rows(games["ws"], when.Filter(("character",), "non_turn")))


def test_versus_standby_plays_only_in_the_standby_window(games):
    rows = when.rows(games["versus"], when.Filter(("standby_magic",)))
    assert _open(rows) == ["standby.actions"]
    assert [r.status for r in rows if r.timing.node == "battle.actions"] == ["other_kind"]


def test_aquarian_play_actions_are_kinds_and_the_main_response_gives_the_other_player_priority(games):
    g = games["aquarian"]
    kinds = {k.id: k.registered for k in when.kinds(g)}
    assert kinds["fast"] is True and kinds["break"] is False
    rows = when.rows(g, when.Filter(("break",)))
    assert _open(rows) == ["main.act"]
    resp = next(r.timing for r in when.rows(g) if r.timing.node == "main.response")
    assert resp.first == "non_turn_player"


def test_filters_naming_nothing_are_refused_with_a_hint(games):
    with pytest.raises(when.WhenError, match="counter"):
        when.rows(games["ws"], when.Filter(("countr",)))
    with pytest.raises(when.WhenError, match="attack.counter"):
        when.rows(games["ws"], when.Filter(phase="attack.countr"))


def test_cli_text_and_json(cli):
    code, out, err = cli("when", "ws", "--play", "counter", "--format", "json", "--rules", ROOT / "rules")
    assert code == 0, err
    data = json.loads(out)
    assert data["open"] == 1 and [t["node"] for t in data["timings"] if t["status"] == "open"] == ["attack.counter.3"]
    code, ja, _ = cli("when", "gundam", "--lang", "ja", "--phase", "reroll", "--rules", ROOT / "rules")
    code2, en, _ = cli("when", "gundam", "--lang", "en", "--phase", "reroll", "--rules", ROOT / "rules")
    assert code == code2 == 0 and "reroll.free" in ja and ja != en
    assert cli("when", "ws", "--play", "countr", "--rules", ROOT / "rules")[0] == 2
    code, _, err = cli("when", "wss", "--rules", ROOT / "rules")
    assert code == 2 and "ws" in err


def test_cli_invalid_rule_file_is_located(cli, variant):
    bad = variant(("kind: window", "kind: windoww"))
    code, out, _ = cli("when", bad)
    assert code == 1 and "error[" in out


def test_an_option_naming_an_unknown_play_kind_is_located(tmp_path):
    text = (ROOT / "rules" / "ws" / "game.yaml").read_text(encoding="utf-8").replace("play: counter", "play: countr")
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    res = compile_file(path)
    assert [(d.code, "counter" in (d.help or "")) for d in res.errors] == [("C302", True)]


def test_a_timing_inside_an_option_names_the_option(games):
    g = games["ws"]
    rows = {r.timing.node: r.timing for r in when.rows(g, when.Filter(phase="main"))}
    choice = next(c for c in g.nodes["main.3"].choices if c.id == "character")
    assert rows["main.3.character.1"].context == choice.label
    assert rows["main.3"].context is None and rows["main.2"].context is None


@pytest.mark.parametrize("game", ["gundam", "ws", "versus", "aquarian"])
def test_the_japanese_lookup_has_no_english_words_besides_node_ids(cli, game):
    import re

    code, out, _ = cli("when", game, "--lang", "ja", "--rules", ROOT / "rules")
    assert code == 0
    assert not re.findall(r"[A-Za-z]{2,}", re.sub(r"\[[^\]]*\]", "", out))
    code, en, _ = cli("when", game, "--lang", "en", "--rules", ROOT / "rules")
    from tcgtiming.core.words_when import WHEN_WORDS

    used = [(ja, e) for k, (ja, e) in WHEN_WORDS.items() if k.startswith(("when.status.", "when.t.")) and e in en]
    assert used and not [ja for ja, _ in used if ja in en]  # the catalogue's English words, never its Japanese


def test_gundam_text_timing_is_seen_from_the_player_who_plays(games):
    # a text timed "own battle phase": the battle steps' free timings, for the attacking (turn) player only
    g = games["gundam"]
    battle = {n.id for n in g.nodes.values() if n.kind == "window" and n.phase == "battle"}
    assert len(battle) == 8
    mine = when.rows(g, when.Filter(("own_battle_text",), "turn"))
    theirs = when.rows(g, when.Filter(("own_battle_text",), "non_turn"))
    assert set(_open(mine)) == battle
    assert _open(theirs) == [] and {r.status for r in theirs if r.timing.node in battle} == {"other_player"}
    # "enemy turn": every free timing of the turn, for the defending player only
    enemy = when.rows(g, when.Filter(("enemy_turn_text",), "non_turn"))
    assert set(_open(enemy)) == {n.id for n in g.nodes.values() if n.kind == "window"}
    assert _open(when.rows(g, when.Filter(("enemy_turn_text",), "turn"))) == []

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
    return {g: compile_file(ROOT / "rules" / g / "game.yaml").game for g in ("gundam", "ws", "versus", "aquarian", "mtg")}


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


@pytest.mark.parametrize("game", ["gundam", "ws", "versus", "aquarian", "mtg"])
def test_the_japanese_lookup_has_no_english_words_besides_node_ids(cli, game):
    import re

    code, out, _ = cli("when", game, "--lang", "ja", "--rules", ROOT / "rules")
    assert code == 0
    ids = compile_file(ROOT / "rules" / game / "game.yaml").game.nodes  # a call holding a window: "inside <id>"
    words = [w for w in re.findall(r"[A-Za-z][\w.]+", re.sub(r"\[[^\]]*\]", "", out)) if w not in ids]
    assert not [w for w in words if re.fullmatch(r".*[A-Za-z]{2,}.*", w)]
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


# --- a play kind's when: decided where the model knows (the phase, the role), "depends" where it cannot ----


def _statuses(g, kind, seat):
    return [(r.timing.phase, r.timing.step, r.timing.type, r.status) for r in when.rows(g, when.Filter((kind,), seat))]


@pytest.mark.parametrize("kind", ["sorcery", "land"])
def test_mtg_sorcery_speed_and_lands_only_in_the_active_players_main_phases(games, kind):
    g = games["mtg"]
    mine = _statuses(g, kind, "turn")
    # in the active player's main phases: only if the stack is empty, which the model cannot know
    assert {ph for ph, _, _, s in mine if s == "depends"} == {"main1", "main2"}
    assert not [x for x in mine if x[3] == "open"]
    # never in the upkeep, the draw step, combat or the end step: not a kind of those windows at all
    windows = [x for x in mine if x[2] == "window"]
    assert {ph for ph, *_ in windows} >= {"beginning", "combat", "ending"}
    assert all(s == "other_kind" for ph, _, _, s in windows if ph not in ("main1", "main2"))
    # the nonactive player: never, and in the main phases the kind is the other player's
    theirs = _statuses(g, kind, "non_turn")
    assert not [x for x in theirs if x[3] in ("open", "depends")]
    assert {s for ph, _, t, s in theirs if ph in ("main1", "main2") and t == "window"} == {"other_player"}


def test_mtg_instants_wherever_a_player_gets_priority(games):
    g = games["mtg"]
    for seat in when.SEATS:
        rows = when.rows(g, when.Filter(("instant",), seat))
        windows = [r for r in rows if r.timing.type == "window"]
        assert windows and all(r.status == "open" for r in windows)
        assert {r.timing.phase for r in windows} >= {"beginning", "main1", "combat", "main2", "ending"}
        assert all(r.status == "closed" for r in rows if r.timing.type != "window")  # the untap step, cleanup's actions


def test_mtg_a_main_phase_window_names_what_the_answer_depends_on(games):
    from tcgtiming.core import model as m

    g = games["mtg"]
    main = next(r.timing for r in when.rows(g) if r.timing.phase == "main1" and r.timing.type == "window")
    upkeep = next(r.timing for r in when.rows(g) if r.timing.step == "beginning.upkeep" and r.timing.type == "window")
    assert set(main.plays) == {"instant", "sorcery", "land"} and upkeep.plays == ("instant",)
    # seen from either player: sorcery speed and lands are the active player's, and only with an empty stack
    limits = {k: (only, c) for k, only, c in when.limits(g, main, when.Filter())}
    assert set(limits) == {"sorcery", "land"}
    assert all(only == ("turn",) for only, _ in limits.values())
    assert limits["sorcery"][1] == m.Pred("stack_empty")
    # what is left is what the game's state decides (an empty stack, a land not yet played this turn):
    # never the role or the phase, which the lookup has settled
    def preds(c):
        return [c.name] if isinstance(c, m.Pred) else [n for x in getattr(c, "conds", (getattr(c, "cond", None),)) for n in preds(x)]
    assert "stack_empty" in preds(limits["land"][1]) and not {"holds_role", "during"} & set(preds(limits["land"][1]))
    assert when.status(g, main, when.Filter()) == "open"  # instants, for both
    assert when.status(g, main, when.Filter(("sorcery",))) == "depends"
    assert when.limits(g, upkeep, when.Filter()) == []
    # the words say so in each language, from the catalogue
    ja, en = (when.limit_texts(g, main, when.Filter(("sorcery",), "turn"), lang) for lang in ("ja", "en"))
    assert len(ja) == len(en) == 1 and ja != en
    assert when.wd("kind_if", "en", when.kind_name(g, "sorcery", "en"), "").split(":")[0] in en[0]


def test_a_condition_is_settled_only_as_far_as_the_model_knows(games):
    from tcgtiming.core import model as m
    from tcgtiming.present.when_kinds import settle

    g = games["mtg"]
    me = m.Pred("holds_role", (("player", "self"), ("role", "active_player")))
    upkeep = m.Pred("during", (("timing", "beginning.upkeep"),))
    first = m.Pred("first_turn_of_game")
    assert settle(g, me, "turn", "main1", None) is True and settle(g, me, "non_turn", "main1", None) is False
    assert settle(g, upkeep, "turn", "beginning", "beginning.upkeep") is True
    assert settle(g, upkeep, "turn", "beginning", "beginning.draw") is False
    assert settle(g, m.Pred("during", (("timing", "beginning"),)), "turn", "beginning", "beginning.draw") is True
    # what depends on the state is kept, simplified by what is known
    assert settle(g, m.All((me, first)), "turn", "main1", None) == first
    assert settle(g, m.All((me, first)), "non_turn", "main1", None) is False
    assert settle(g, m.AnyOf((m.Not(me), first)), "turn", "main1", None) == first
    assert settle(g, m.AnyOf((m.Not(me), first)), "non_turn", "main1", None) is True
    assert settle(g, m.Not(m.All((upkeep, first))), "turn", "beginning", "beginning.upkeep") == m.Not(first)


def test_cli_says_depends_in_both_languages(cli):
    for lang in ("ja", "en"):
        code, out, err = cli("when", "mtg", "--play", "sorcery", "--player", "turn", "--format", "json", "--lang", lang,
                             "--rules", ROOT / "rules")
        assert code == 0, err
        data = json.loads(out)
        dep = [t for t in data["timings"] if t["status"] == "depends"]
        assert {t["phase"] for t in dep} == {"main1", "main2"} and data["open"] == 0
        assert all(t["limits"] == [{"play": "sorcery", "only": None, "if": t["limits"][0]["if"]}] and t["limits"][0]["if"]
                   for t in dep)
        code, text, _ = cli("when", "mtg", "--play", "sorcery", "--player", "turn", "--lang", lang, "--rules", ROOT / "rules")
        assert when.wd("status.depends", lang) in text and dep[0]["limits"][0]["if"] in text

"""The scenario language accepts nothing silently (issue 11, part 2): every word of a card is
checked against the game, every value is in range, a choice the engine did not use is reported
with its location, and a card ability's condition about its controller or opponent holds when it
should. Each test writes a small variation of a shipped scenario and checks the facts of the run
or the located diagnostic."""
import re
from pathlib import Path

import yaml

from tcgtiming.frontend.loader import load
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import simulate

ROOT = Path(__file__).resolve().parent.parent


def variant(tmp_path, name, edit, game=None):
    """A copy of a shipped scenario (``<game>/<stem>``), changed by ``edit(data)``, compiled with its
    game's rules: (result, path of the copy)."""
    game_id, stem = name.split("/")
    data = yaml.safe_load((ROOT / "rules" / game_id / "scenarios" / f"{stem}.yaml").read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / f"{stem}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return compile_file(path, rules=str(ROOT / "rules" / game_id / "game.yaml")), path


def codes(res):
    return [(d.code, d.severity) for d in res.diagnostics]


def card(data, cid):
    return next(c for c in data["cards"] if c["id"] == cid)


def pending_added(run, card_id):
    return [e for e in run.entries if any(card_id in (c for c, _ in ab) for _, ab in e.pending)]


def own_encore(data) -> dict:
    """Phoenix's own encore (3 stock), written on the card (it replaces the built-in one): the ability."""
    ab = {"id": "encore", "kind": "auto", "event": "left_stage",
          "cost": [{"move": {"who": "controller", "from": "stock", "to": "waiting_room", "count": 3, "which": "top"}}],
          "effect": [{"move": {"who": "controller", "from": "waiting_room", "to": "stage", "which": "self"}},
                     {"set_state": {"target": "self", "to": "rest"}}]}
    card(data, "a-att")["abilities"] = [ab]
    return ab


# --- if: controller / opponent -------------------------------------------------------------------
def _encore_if(cond):
    def edit(data):
        own_encore(data)["if"] = cond
    return edit


def test_card_condition_on_controller_and_opponent_holds_at_run_time(tmp_path):
    # when Alice's card leaves the stage she has 3 stock (2 + the trigger card), Bob 2: the encore of
    # her card triggers only when its condition holds
    cases = [({"count": {"player": "controller", "zone": "stock", "ge": 3}}, True),
             ({"count": {"player": "controller", "zone": "stock", "ge": 4}}, False),
             ({"count": {"player": "opponent", "zone": "stock", "eq": 2}}, True),
             ({"count": {"player": "opponent", "zone": "stock", "gt": 2}}, False)]
    for cond, triggers in cases:
        res, _ = variant(tmp_path, "ws/encore", _encore_if(cond))
        assert res.scenario is not None, codes(res)
        run = simulate(res.game, res.scenario)
        assert bool(pending_added(run, "a-att")) is triggers, cond


# --- values out of range --------------------------------------------------------------------------
def located(res, code, path_line=None):
    """The diagnostics of ``code``, each with a line and column."""
    found = [d for d in res.diagnostics if d.code == code]
    assert found, codes(res)
    assert all(d.line > 0 and d.col > 0 for d in found), [(d.line, d.col) for d in found]
    return found


def _set(path, value):
    def edit(data):
        cur = data
        for k in path[:-1]:
            cur = cur[k] if not callable(k) else k(cur)
        cur[path[-1]] = value
    return edit


def test_values_out_of_range_are_refused_with_their_location(tmp_path):
    encore = lambda data: card(data, "a-att").get("abilities", [None])[0] or own_encore(data)  # noqa: E731
    cost = lambda data: encore(data)["cost"][0]["move"]  # noqa: E731
    cases = [(("scenario", "turns"), 0, "S204"), (("scenario", "turns"), -2, "S204"),
             (("scenario", "max_steps"), 0, "S204"),
             ((encore, "every"), 0, "S204"),
             ((cost, "count"), -3, "C311"),
             (("players",), 0, "S203")]
    for path, value, code in cases:
        res, _ = variant(tmp_path, "ws/encore", _set(path, value))
        assert res.scenario is None, (path, value)
        located(res, code)
    # a negative count in an effect, and an amount of damage below zero
    res, _ = variant(tmp_path, "ws/encore", lambda d: encore(d)["effect"].append({"draw": {"who": "controller", "count": -5}}))
    assert res.scenario is None and located(res, "C311")


# --- diagnostics: stdout carries only the output ------------------------------------------------
def test_simulate_json_keeps_diagnostics_on_stderr(cli, tmp_path):
    import json
    rules = ROOT / "rules/ws/game.yaml"
    # refused before the run: stdout is empty, stderr has the located diagnostic
    _, bad = variant(tmp_path, "ws/encore", _set(("scenario", "turns"), 0))
    code, out, err = cli("simulate", bad, "--rules", rules, "--format", "json")
    assert code == 1 and out == "" and re.search(rf"{re.escape(str(bad))}:\d+:\d+: error\[S204\]", err)
    # refused during the run (a choice that cannot be carried out): stdout holds trace entries only
    _, refused = variant(tmp_path, "ws/encore",
                         lambda d: d["choices"].insert(4, {"at": "attack.declaration.3.attack.1", "take": "front", "card": "a-aide"}))
    code, out, err = cli("simulate", refused, "--rules", rules, "--format", "json", "--strict")
    assert code == 1 and out and all("seq" in json.loads(line) for line in out.splitlines())
    assert re.search(rf"{re.escape(str(refused))}:\d+:\d+: error\[R503\]", err)


# --- card words -----------------------------------------------------------------------------------
def _card_field(cid, field, value):
    def edit(data):
        card(data, cid)[field] = value
    return edit


def test_card_words_in_either_language_stand_for_their_id(tmp_path):
    res, _ = variant(tmp_path, "versus/reload-steps-in-order", lambda d: None)
    cid = next(c.id for c in res.scenario.cards.values() if "hoju" in c.traits)
    events = lambda r: [e.event for e in simulate(r.game, r.scenario).entries]  # noqa: E731
    shipped = events(res)
    without, _ = variant(tmp_path, "versus/reload-steps-in-order", _card_field(cid, "traits", []))
    assert events(without) != shipped  # the keyword drives the run (the extra draw)
    for word in ("補充", "Replenish", "hoju"):
        res, _ = variant(tmp_path, "versus/reload-steps-in-order", _card_field(cid, "traits", [word]))
        assert res.scenario is not None, codes(res)
        assert res.scenario.cards[cid].traits == ("hoju",)
        assert events(res) == shipped  # the same behaviour, whichever name was written
    res, _ = variant(tmp_path, "aquarian/faction-check-order", _card_field("a-wiz", "faction", "WIZ-DOM"))
    assert res.scenario is not None and res.scenario.cards["a-wiz"].faction == "wizdom"
    res, _ = variant(tmp_path, "aquarian/faction-check-order", _card_field("a-draw", "type", "プロジェクト"))
    assert res.scenario is not None and res.scenario.cards["a-draw"].type == "project"


def test_unknown_card_words_are_refused_with_did_you_mean(tmp_path):
    cases = [("versus/reload-steps-in-order", None, "traits", ["hojuu"], "hoju"),
             ("aquarian/faction-check-order", "a-wiz", "faction", "wizdomm", "wizdom"),
             ("aquarian/faction-check-order", "a-wiz", "traits", ["agressive"], "aggressive"),
             ("ws/encore", "a-att", "type", "charactr", "character"),
             ("ws/encore", "a-att", "triggers", ["sole"], "soul")]
    for name, cid, field, value, meant in cases:
        if cid is None:
            res0, _ = variant(tmp_path, name, lambda d: None)
            cid = next(c.id for c in res0.scenario.cards.values() if "hoju" in c.traits)
        res, _ = variant(tmp_path, name, _card_field(cid, field, value))
        assert res.scenario is None, (name, field, value)
        (d,) = located(res, "C302")
        assert meant in (d.help or ""), d
    # a game that declares no factions admits none
    res, _ = variant(tmp_path, "ws/encore", _card_field("a-att", "faction", "wizdom"))
    assert res.scenario is None and located(res, "C302")


# --- zone: split into while_in (where this card is) and to (where the event's card goes) ----------
def _watcher(**keys):
    """Alice's Aide (on the stage all turn) gets an ability waiting for any card entering a zone."""
    def edit(data):
        card(data, "a-aide")["abilities"] = [{"id": "watch", "kind": "auto", "event": "entered", "subject": "any",
                                              "effect": [{"draw": {"who": "controller", "count": 1}}], **keys}]
        # the encore's pending choice would answer the Aide's ability: the policy decides instead
        data["choices"] = [ch for ch in data["choices"] if ch.get("at") != "check_timing.2.pending.1"]
    return edit


def test_another_card_entering_the_clock_while_this_is_on_the_stage(tmp_path):
    # in ws/encore one card enters a clock (Bob's damage), while Alice's Aide stays on her stage
    for keys, times in (({"to": "clock", "while_in": "stage"}, 1), ({"to": "clock", "while_in": "waiting_room"}, 0),
                        ({"to": "level", "while_in": "stage"}, 0), ({"to": "clock"}, 1)):
        res, _ = variant(tmp_path, "ws/encore", _watcher(**keys))
        assert res.scenario is not None and not res.diagnostics, codes(res)
        run = simulate(res.game, res.scenario)
        clock = sum(1 for e in run.entries for c in e.changes if c[:1] == ("move",) and c[-1] == "clock")
        resolved = [e for e in run.entries if e.event[:1] in (("resolve",), ("resolved",)) and "watch" in e.event]
        assert clock == 1
        assert len(resolved) == times, keys


def test_the_old_zone_key_is_read_as_while_in_with_a_located_warning(tmp_path):
    res, _ = variant(tmp_path, "ws/encore", _watcher(zone="stage"))
    assert res.scenario is not None and res.scenario.cards["a-aide"].abilities[0].zone == "stage"
    (d,) = located(res, "S206")
    assert d.severity == "warning" and "while_in" in d.message
    res, _ = variant(tmp_path, "ws/encore", _watcher(zone="stage", while_in="stage"))
    assert res.scenario is None and located(res, "S201")
    # 'to' on an event that moves no card is refused
    res, _ = variant(tmp_path, "ws/encore", lambda d: card(d, "a-aide").update(
        abilities=[{"kind": "auto", "event": "turn_start", "to": "stage"}]))
    assert res.scenario is None and located(res, "S201")


# --- choice data the run did not use ------------------------------------------------------------
def _choice_at(at, **extra):
    def edit(data):
        next(ch for ch in data["choices"] if ch.get("at") == at).update(extra)
    return edit


def test_choice_data_given_at_the_wrong_node_is_reported_with_its_location(tmp_path, cli):
    # main.3 is 'nothing' in the main phase: a card there is used by nothing
    res, path = variant(tmp_path, "ws/encore", _choice_at("main.3", card="a-aide"))
    run = simulate(res.game, res.scenario, strict=True)
    ((at, loc, keys),) = run.unused_choice_data
    assert at == "main.3" and keys == ("card",) and loc.line > 0
    assert path.read_text(encoding="utf-8").splitlines()[loc.line - 1].lstrip().startswith("- at: main.3")
    code, out, err = cli("simulate", path, "--rules", ROOT / "rules/ws/game.yaml")
    assert code == 0 and f"{path}:{loc.line}:{loc.col}: warning[R507]" in err
    code, out, err = cli("simulate", path, "--rules", ROOT / "rules/ws/game.yaml", "--strict")
    assert code == 1 and f"{path}:{loc.line}:{loc.col}: error[R507]" in err
    # the same card where the decision uses it is read: nothing to report
    res, _ = variant(tmp_path, "ws/encore", lambda d: None)
    assert simulate(res.game, res.scenario, strict=True).unused_choice_data == ()


# --- --strict: a forced single option is not a decision -------------------------------------------
def test_strict_takes_a_forced_single_option_without_a_choice(tmp_path):
    # without the Aide on her stage, Alice's only character is Phoenix: the attacker need not be scripted
    def alone(data):
        data["players"][0]["zones"]["stage"] = ["a-att"]
        data["expect"] = None

    def forced_attacker(data):
        alone(data)
        next(ch for ch in data["choices"] if ch.get("at") == "attack.declaration.3.attack.1").pop("card")
    res, _ = variant(tmp_path, "ws/encore", alone)
    scripted = simulate(res.game, res.scenario, strict=True)
    res, _ = variant(tmp_path, "ws/encore", forced_attacker)
    forced = simulate(res.game, res.scenario, strict=True)
    assert [e.event for e in forced.entries] == [e.event for e in scripted.entries]
    assert forced.policy_decisions == 0


def test_strict_passes_for_a_player_with_nothing_to_play(tmp_path):
    # nobody holds a card to play in the free timing of faction-check-order: its passes are forced
    res, _ = variant(tmp_path, "aquarian/faction-check-order", lambda d: None)
    scripted = simulate(res.game, res.scenario, strict=True)
    res, _ = variant(tmp_path, "aquarian/faction-check-order",
                     lambda d: d.update(choices=[ch for ch in d["choices"] if ch.get("at") != "faction.free"]))
    forced = simulate(res.game, res.scenario, strict=True)
    assert [e.event for e in forced.entries] == [e.event for e in scripted.entries]
    assert forced.policy_decisions == 0
    passes = [e for e in forced.entries if e.node == "faction.free" and e.event[:1] == ("pass",)]
    assert passes and all(e.decided_by is None for e in passes)


# --- the JSON Schemas: generated from the registries the checks read -------------------------------
def _schema(kind):
    import json
    return json.loads((ROOT / "schema" / f"tcgtiming-{kind}.schema.json").read_text(encoding="utf-8"))


def test_the_schemas_accept_every_shipped_file():
    from jsonschema_lite import errors
    scenario, rules = _schema("scenario"), _schema("rules")
    files = sorted((ROOT / "rules").glob("*/scenarios/*.yaml")) + sorted((ROOT / "tests/fixtures/mini/scenarios").glob("*.yaml"))
    assert len(files) >= 25
    for path in files:
        assert errors(load(str(path)).data, scenario) == [], path
    for path in sorted((ROOT / "rules").glob("*/game.yaml")) + [ROOT / "tests/fixtures/mini/game.yaml"]:
        assert errors(load(str(path)).data, rules) == [], path


def test_the_scenario_schema_refuses_what_the_checks_refuse(tmp_path):
    from jsonschema_lite import errors
    schema = _schema("scenario")
    base = load(str(ROOT / "rules/ws/scenarios/encore.yaml")).data

    def with_effect(effect):
        data = yaml.safe_load(yaml.safe_dump(base))
        own_encore(data)["effect"] = [effect]
        return data
    # card effects, not rule actions: negate, pending and damage are offered, rule actions are not
    for good in ("negate", "pending", {"pending": None}, {"damage": {"target": "defender", "amount": 2, "to": "waiting_room"}},
                 {"draw": {"who": "controller", "count": 0}}):
        assert errors(with_effect(good), schema) == [], good
    for bad in ("resolve_pending", {"rule_processing": None}, {"draw": {"who": "controller", "count": -5}},
                {"draw": {"who": "controller"}}, {"draw": {"who": "me", "count": 1}}, {"move": {"who": "controller", "from": "hand",
                                                                                              "to": "stock", "cnt": 1}},
                "draw", {"negate": {"what": 1}}):
        assert errors(with_effect(bad), schema), bad
        # and the front end refuses each as well
        path = tmp_path / "bad.yaml"
        path.write_text(yaml.safe_dump(with_effect(bad), allow_unicode=True), encoding="utf-8")
        assert compile_file(path, rules=str(ROOT / "rules/ws/game.yaml")).scenario is None, bad
    for key, value in ((("scenario", "turns"), 0), (("scenario", "max_steps"), -1)):
        data = yaml.safe_load(yaml.safe_dump(base))
        data[key[0]][key[1]] = value
        assert errors(data, schema), key


# --- refusals in the game's words, pointing at the scenario ----------------------------------------
def test_a_refused_attack_speaks_the_games_words_and_points_at_the_choice(tmp_path):
    from tcgtiming.runtime.engine.state import SimulationError

    def edit(data):
        data["cards"].append({"id": "a-new", "name": "Rookie", "type": "character", "stats": {"ap": 1, "dp": 1}})
        data["players"][0]["zones"]["hand"] = ["a-new"]
        next(ch for ch in data["choices"] if ch.get("at") == "battle.attack.declare.1")["card"] = "a-new"
    res, path = variant(tmp_path, "versus/battle-blocker-discarded", edit)
    assert res.scenario is not None, codes(res)
    try:
        simulate(res.game, res.scenario, strict=True)
        raise AssertionError("the attack by a card in the hand was carried out")
    except SimulationError as exc:
        assert exc.code == "R503"
        assert "stage" not in exc.message and "standing" not in exc.message, exc.message
        hand = res.game.zones["hand"].name.en
        assert f"in {hand}" in exc.message and "a-att" in exc.message  # where it is, and who could attack
        assert exc.loc.file == str(path)
        line = path.read_text(encoding="utf-8").splitlines()[exc.loc.line - 1]
        assert "battle.attack.declare.1" in line


def test_an_option_that_is_not_available_says_what_it_needs(tmp_path):
    from tcgtiming.runtime.engine.state import SimulationError
    # the attack side declares no attack: 'declare' needs a character that can attack
    res, _ = variant(tmp_path, "versus/battle-blocker-discarded", lambda d: d["players"][0]["zones"].pop("field"))
    try:
        simulate(res.game, res.scenario, strict=True)
        raise AssertionError("an unavailable option was taken")
    except SimulationError as exc:
        assert exc.code == "R503" and "declare" in exc.message
        node = res.game.nodes["battle.attack"]
        when = next(c.when for c in node.choices if c.id == "declare")
        from tcgtiming.core.text import cond_text
        assert exc.help and cond_text(when) in exc.help


def test_a_magic_card_without_a_state_cannot_pay_and_the_error_says_why(tmp_path):
    from tcgtiming.runtime.engine.state import SimulationError

    def edit(data):
        data["cards"].append({"id": "b-m9", "name": "Mana", "type": "magic"})  # no state: it starts in none
        data["players"][1]["zones"]["magic"] = ["b-m9"] + data["players"][1]["zones"]["magic"]
        next(ch for ch in data["choices"] if ch.get("at") == "place_character.pay")["card"] = "b-m9"
    res, path = variant(tmp_path, "versus/end-hand-limit-and-swap", edit)
    try:
        simulate(res.game, res.scenario, strict=True)
        raise AssertionError("paid with a card in no state")
    except SimulationError as exc:
        assert exc.code == "R503" and "b-m9" in exc.message
        assert "b-m9: no state" in exc.help and "state:" in exc.help
        assert "place_character.pay" in path.read_text(encoding="utf-8").splitlines()[exc.loc.line - 1]


# --- stage slots: a position is a slot, null an empty one ------------------------------------------
def test_an_empty_stage_slot_and_the_character_in_front(tmp_path):
    def edit(data):
        data["players"][1]["zones"]["stage"] = [None, "b-def"]  # Bob's Wall in the second slot
        data["expect"] = None
        keep = []
        for ch in data["choices"]:
            if ch.get("at") == "attack.declaration.3.attack.1":
                ch["card"] = "a-aide"  # Alice's second slot: the Wall is in front of it
            if ch.get("at") in ("attack.encore.3.reversed.1",):
                ch["card"] = "a-aide"
            if ch.get("at") not in ("attack.encore", "attack.encore.4.reversed.1"):  # no encore paid
                keep.append(ch)
        data["choices"] = keep
    res, _ = variant(tmp_path, "ws/encore", edit)
    assert res.scenario is not None, codes(res)
    run = simulate(res.game, res.scenario)
    zones = {pid: dict(zs) for pid, zs in run.zones}
    assert "a-aide" in zones["p1"]["waiting_room"]  # 1000 against the Wall's 3000: reversed, then gone
    assert zones["p2"]["stage"] == ("b-def",)
    battle = next(e for e in run.entries if e.node == "attack.battle.4")
    assert battle.event[0] == "battle_power" and battle.event[1:3] == (1000, 3000)
    # null is a stage slot only
    res, _ = variant(tmp_path, "ws/encore", lambda d: d["players"][1]["zones"].update(deck=[None, "b-d1", "b-d2", "b-d3"]))
    assert res.scenario is None and located(res, "S204")


def test_a_rule_naming_an_undeclared_card_word_is_refused(tmp_path):
    # the rules' own card words (keywords, card types) are the same lists' items
    for game, old, new, meant in (("versus", "keyword: hoju, zone: field}}", "keyword: hojuu, zone: field}}", "hoju"),
                                  ("ws", "revealed_is: {type: climax}", "revealed_is: {type: climaks}", "climax"),
                                  ("aquarian", "active_has: {trait: aggressive", "active_has: {trait: agressive", "aggressive")):
        text = (ROOT / "rules" / game / "game.yaml").read_text(encoding="utf-8")
        assert old in text
        path = tmp_path / f"{game}.yaml"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        res = compile_file(path)
        assert res.game is None
        (d,) = located(res, "C302")
        assert meant in (d.help or ""), d

"""Schema and semantic checks: each problem gets its code, its place and a useful hint."""

from conftest import MINI
from tcgtiming.core.model import Pred
from tcgtiming.frontend.pipeline import compile_file


def diags(path):
    res = compile_file(path)
    return res, [(d.code, d.line, d.message, d.help) for d in res.diagnostics]


def one(path, code):
    res, ds = diags(path)
    hits = [d for d in res.diagnostics if d.code == code]
    assert len(hits) == 1, ds
    assert res.game is None or hits[0].severity == "warning"
    return hits[0]


def line_of(path, needle):
    for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in ln:
            return i
    raise AssertionError(needle)


def test_fixture_compiles(tmp_path, variant):
    res, ds = diags(variant())
    assert ds == [] and res.game is not None


def test_unknown_key_with_suggestion(variant):
    p = variant(("          do: reset_damage", "          doo: reset_damage"))
    d = one(p, "S201")
    assert d.line == line_of(p, "doo:") and d.col == 11 and d.help == "did you mean 'do'?"


def test_missing_required_key(variant):
    p = variant(("    title: \"Mini: the fixture game's rules\"\n", ""))
    d = one(p, "S202")
    assert "'title'" in d.message and d.line == line_of(p, "  - id: mini")


def test_wrong_type(variant):
    p = variant(("  hand_limit: 5", "  hand_limit: [5]"))
    d = one(p, "S203")
    assert d.line == line_of(p, "hand_limit") and "found a list" in d.message


def test_bad_enum_value_with_suggestion(variant):
    p = variant(("              resolve: stack", "              resolve: stak"))
    d = one(p, "S204")
    assert d.help == "did you mean 'stack'?" and d.line == line_of(p, "resolve: stak")


def test_bad_id_pattern(variant):
    p = variant(("          id: play\n", "          id: pl.ay\n"))
    d = one(p, "S204")
    assert "not a valid id" in d.message


def test_unknown_kind(variant):
    p = variant(("        - {kind: trigger, event: turn_start}", "        - {kind: triger, event: turn_start}"))
    d = one(p, "S205")
    assert d.help == "did you mean 'trigger'?" and (d.line, d.col) == (line_of(p, "triger"), 18)


def test_schema_and_semantic_errors_in_one_run(variant):
    p = variant(("          do: reset_damage", "          doo: reset_damage"),
                ("          actor: turn_player\n          label: {ja: プレイ", "          actor: nobody\n          label: {ja: プレイ"))
    res, ds = diags(p)
    assert [d[0] for d in ds] == ["C302", "S201"], ds


def test_duplicate_id(variant):
    p = variant(("  - {id: hand, name: {ja: 手札, en: hand}, role: hand}", "  - {id: deck, name: {ja: 手札, en: hand}}"))
    d = one(p, "C301")
    assert "duplicate zone id 'deck'" in d.message


def test_duplicate_node_id(variant):
    p = variant(("        - {kind: check}\n        - kind: player", "        - {kind: check, id: play}\n        - kind: player"))
    d = one(p, "C301")
    assert "main.play" in d.message


def test_unknown_procedure_with_suggestion(variant):
    p = variant(("{kind: call, procedure: damage}", "{kind: call, procedure: damgae}"))
    res, _ = diags(p)
    d = next(d for d in res.diagnostics if d.code == "C302")
    assert d.help == "did you mean 'damage'?"


def test_unknown_event(variant):
    p = variant(("        - {kind: trigger, event: turn_start}", "        - {kind: trigger, event: turn_strat}"))
    res, _ = diags(p)
    d = next(d for d in res.diagnostics if d.code == "C302")
    assert d.help == "did you mean 'turn_start'?"


def test_unknown_source_and_section(variant):
    p = variant(('      cite: "mini#main"', '      cite: "mimi#main"'))
    d = one(p, "C303")
    assert d.message == "citation of unknown source 'mimi'" and d.help == "did you mean 'mini'?"


def test_label_missing_a_language(variant):
    p = variant(("label: {ja: ダメージ除去, en: damage is removed}", "label: {ja: ダメージ除去}"))
    d = one(p, "C304")
    assert "lacks the en text" in d.message


def test_label_missing(variant):
    p = variant(("          label: {ja: ダメージ除去, en: damage is removed}\n", ""))
    d = one(p, "C304")
    assert "has no label" in d.message


def test_unreachable_node_after_goto(variant):
    p = variant(('                - {kind: goto, target: "1", label: {ja: 1.へ戻る, en: back to 1.}}',
                 '                - {kind: goto, target: "1", label: {ja: 1.へ戻る, en: back to 1.}}\n'
                 '                - {kind: auto, label: {ja: 死んだ, en: dead}}'))
    d = one(p, "C305")
    assert "main.play.character.3" in d.message


def test_loop_with_no_way_out(variant):
    p = variant(
        ("    - id: end\n      label: {ja: エンドフェイズ, en: end phase}\n      cite: \"mini#end\"\n      nodes:\n",
         "    - id: end\n      label: {ja: エンドフェイズ, en: end phase}\n      cite: \"mini#end\"\n      nodes:\n"
         "        - {kind: auto, id: spin, label: {ja: 回る, en: spin}}\n"
         "        - {kind: goto, target: spin}\n"))
    res, _ = diags(p)
    d = next(d for d in res.diagnostics if d.code == "C306")
    assert "cycle: end.spin -> end.2 -> end.spin" in d.message
    assert res.game is None


def test_window_without_close(variant):
    p = variant(("              close: consecutive_passes\n", ""))
    d = one(p, "C308")
    assert "closing rule" in d.message


def test_unknown_predicate_with_suggestion(variant):
    p = variant(("when: attacker_present", "when: attacker_presnet"))
    d = one(p, "C309")
    assert d.help == "did you mean 'attacker_present'?"


def test_unknown_action(variant):
    p = variant(("do: reset_damage", "do: reset_damages"))
    d = one(p, "C310")
    assert d.help == "did you mean 'reset_damage'?"


def test_bad_action_argument(variant):
    p = variant(("do: {set_state: {player: turn_player, to: stand, zone: stage}}",
                 "do: {set_state: {player: turn_player, to: stnad, zone: stage}}"))
    d = one(p, "C311")
    assert d.help == "did you mean 'stand'?"


def test_unknown_integer_constant(variant):
    p = variant(("gt: hand_limit}}", "gt: hand_limt}}"))
    res, _ = diags(p)
    d = next(d for d in res.diagnostics if d.code == "C302")
    assert d.message == "unknown integer constant 'hand_limt'" and d.help == "did you mean 'hand_limit'?"


def test_comparison_required(variant):
    p = variant(("{count: {zone: hand, player: turn_player, gt: hand_limit}}", "{count: {zone: hand, player: turn_player}}"))
    d = one(p, "C311")
    assert "exactly one comparison" in d.message


def test_reserved_id(variant):
    p = variant(("          id: play\n", "          id: end\n"))
    res, _ = diags(p)
    assert any(d.code == "C312" for d in res.diagnostics)


def test_no_citation(variant):
    p = variant(('  cite: "mini#start"\n  phases:', "  phases:"), ('      cite: "mini#start"\n      nodes:', "      nodes:"))
    res, _ = diags(p)
    hits = [d for d in res.diagnostics if d.code == "C313"]
    assert len(hits) == 3  # the three nodes of the start phase


def test_unused_procedure_is_a_warning(variant):
    p = variant(("                        - {kind: call, procedure: damage}", "                        - {kind: auto, label: {ja: x, en: x}}"))
    res, _ = diags(p)
    assert [d.code for d in res.diagnostics] == ["C315"] and res.game is not None


def test_recursive_procedure(variant):
    p = variant(("        do: {deal_damage: {player: non_turn_player, amount: soul}}",
                 "        do: {deal_damage: {player: non_turn_player, amount: soul}}\n      - {kind: call, procedure: damage}"))
    res, _ = diags(p)
    assert any(d.code == "C317" for d in res.diagnostics)


def test_exit_loop_outside_loop(variant):
    p = variant(("        - kind: closed\n", "        - {kind: exit, from: loop}\n        - kind: closed\n"))
    res, _ = diags(p)
    assert any(d.code == "C307" and "outside any loop" in d.message for d in res.diagnostics)


def test_missing_check_timing_procedure(variant):
    p = variant(("check_timing: check\n", "check_timing: chek\n"))
    res, _ = diags(p)
    d = next(d for d in res.diagnostics if d.code == "C302")
    assert d.help == "did you mean 'check'?"


def test_every_problem_is_reported_not_just_the_first(variant):
    p = variant(("do: reset_damage", "do: reset_damages"), ("when: attacker_present", "when: attacker_presnet"),
                ('cite: "mini#main"', 'cite: "mini#mian"'), ("turn_start}\n        - {kind: check}", "turn_start}\n        - {kind: check, procedure: chekc}"))
    res, _ = diags(p)
    assert sorted(d.code for d in res.diagnostics) == ["C302", "C303", "C309", "C310"]


# --- C315: definitions nothing uses ----------------------------------------------------------
ROLES_END = "  - {id: non_turn_player, seat: non_turn, name: {ja: 非ターンプレイヤー, en: non-turn player}}\n"


def test_unused_role_is_a_warning_at_its_id(variant):
    p = variant((ROLES_END, ROLES_END + "  - {id: defender, seat: non_turn, name: {ja: 防御側, en: defender}}\n"))
    d = one(p, "C315")
    assert (d.line, d.col, d.severity) == (line_of(p, "id: defender"), 10, "warning")
    assert d.message == "role 'defender' is defined but nothing names it"
    assert compile_file(p).game is not None


def test_unused_source_section_is_a_warning_at_its_id(variant):
    p = variant(('      - {id: end, title: "5. End phase"}\n',
                 '      - {id: end, title: "5. End phase"}\n      - {id: extra, title: "6. Extra"}\n'))
    d = one(p, "C315")
    assert (d.line, d.col) == (line_of(p, "id: extra"), 14)
    assert d.message == "section 'extra' of source 'mini' is defined but no citation names it"


def test_a_misspelt_use_does_not_also_report_its_definition_unused(variant):
    p = variant((ROLES_END, ROLES_END + "  - {id: defender, seat: non_turn, name: {ja: 防御側, en: defender}}\n"),
                ("        - {kind: trigger, event: turn_start}", "        - {kind: trigger, event: turn_strat}"),
                ("          actor: turn_player\n          label: {ja: プレイ", "          actor: defnder\n          label: {ja: プレイ"))
    res, ds = diags(p)
    assert sorted(d.code for d in res.diagnostics) == ["C302", "C302"], ds


# --- terms: values of the wrong shape, scenario abilities ------------------------------------
def test_a_list_where_a_zone_is_expected_is_located_not_a_traceback(variant):
    p = variant(("do: {set_state: {player: turn_player, to: stand, zone: stage}}",
                 "do: {set_state: {player: turn_player, to: stand, zone: [stage]}}"))
    d = one(p, "C302")
    assert d.message == "unknown zone '['stage']'" and d.line == line_of(p, "zone: [stage]")


def test_a_null_action_of_a_rule_process_is_an_error(variant):
    p = variant(('cite: "mini#battle"}', 'cite: "mini#battle", do: [null]}'))
    d = one(p, "S203")
    assert d.message.startswith("an action is a name") and d.line == line_of(p, "do: [null]")


def scenario(tmp_path, variant, *pairs):
    """The fixture scenario, with replacements, beside the fixture game (tmp_path/game.yaml)."""
    variant()
    text = (MINI.parent / "scenarios" / "lanes.yaml").read_text(encoding="utf-8")
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (tmp_path / "scenarios").mkdir(exist_ok=True)
    path = tmp_path / "scenarios" / "lanes.yaml"
    path.write_text(text, encoding="utf-8")
    return path


HERALD = "{id: herald, kind: auto, event: turn_start, effect"


def test_an_ability_condition_is_resolved_with_the_card_roles(tmp_path, variant):
    res = compile_file(scenario(tmp_path, variant, (HERALD, "{id: herald, kind: auto, event: turn_start, if: {has_pending: opponent}, effect")))
    assert res.diagnostics == [] and res.scenario is not None
    herald = res.scenario.cards["a6"].abilities[0]
    assert herald.condition == Pred("has_pending", (("player", "opponent"),))


def test_an_ability_condition_and_effect_are_checked_and_located(tmp_path, variant):
    p = scenario(tmp_path, variant, (HERALD, "{id: herald, kind: auto, event: turn_start, if: {has_pending: oponent}, effect"),
                 ("effect: [{draw: {who: controller, count: 1}}]}\n  - {id: b1",
                  "effect: [{move: {who: controller, from: [hand], to: discard}}]}\n  - {id: b1"))
    res, ds = diags(p)
    assert [(d.code, d.message, d.help) for d in res.diagnostics] == [
        ("C302", "unknown role 'oponent'", "did you mean 'opponent'?"),
        ("C302", "unknown zone '['hand']'", None)], ds
    text = p.read_text(encoding="utf-8")
    first, second = res.diagnostics
    assert (first.line, first.col) == (line_of(p, "oponent"), text.splitlines()[first.line - 1].index("oponent") + 1)
    assert second.line == line_of(p, "from: [hand]")


def test_a_section_is_located_by_heading_or_by_label_and_lines(variant):
    ok = variant(('      - {id: end, title: "5. End phase"}\n', '      - {id: end, title: "what ends the turn", lines: [20, 24]}\n'))
    res, ds = diags(ok)
    assert res.game is not None and not res.errors, ds
    sec = res.game.sources["mini"].sections[-1]
    assert (sec.title, sec.lines) == ("what ends the turn", (20, 24))
    p = variant(('      - {id: end, title: "5. End phase"}\n', '      - {id: end, title: "what ends the turn", lines: [24, 20]}\n'))
    d = one(p, "S204")
    assert "end before they begin" in d.message and d.line == line_of(p, "lines: [24, 20]")
    p = variant(('      - {id: end, title: "5. End phase"}\n', '      - {id: end, title: "the end", lines: [3]}\n'))
    assert any(d.code == "S203" or d.code == "S204" for d in diags(p)[0].diagnostics)


READINGS = '''          readings:
            - {id: literal, says: {ja: 文面どおり, en: as written}, cite: "mini#main", runs: true}
            - {id: other, says: {ja: もう一つの読み, en: the other reading}}
'''


def test_readings_are_data_of_the_node_and_exactly_one_runs(variant):
    anchor = "          label: {ja: プレイするか選ぶ, en: choose a play}\n"
    res, ds = diags(variant((anchor, anchor + READINGS)))
    assert res.game is not None and not res.errors, ds
    (a, b) = res.game.nodes["main.play"].readings
    assert (a.id, a.runs, str(a.cites[0]), b.says.en, b.runs) == ("literal", True, "mini#main", "the other reading", False)
    p = variant((anchor, anchor + READINGS.replace("runs: true", "runs: false")))
    d = one(p, "S204")
    assert "0 with runs: true" in d.message and d.line == line_of(p, "readings:")
    p = variant((anchor, anchor + READINGS.replace("en: the other reading", "en: null").replace("cite: \"mini#main\"",
                                                                                                "cite: \"mini#nowhere\"")))
    assert sorted(d.code for d in diags(p)[0].diagnostics) == ["C303", "C304"]


def test_zone_roles_are_stored_and_held_once(variant):
    res, ds = diags(variant())
    assert ds == []
    roles = {z.id: z.get("role") for z in res.game.zones.values()}
    assert roles == {"deck": "deck", "hand": "hand", "stage": "stage", "discard": "discard"}
    assert res.game.zones["stage"].get("front") == 3
    p = variant(("{id: discard, name: {ja: 捨て札, en: discard pile}, role: discard}",
                 "{id: discard, name: {ja: 捨て札, en: discard pile}, role: hand}"))
    d = one(p, "C301")
    assert d.message == "zone role 'hand' is held by two zones: 'hand' and 'discard'" and d.line == line_of(p, "discard pile}, role: hand")


def test_zone_role_words_and_front(variant):
    d = one(variant(("role: discard}", "role: dicsard}")), "S204")
    assert "discard" in (d.help or "")
    d = one(variant(("{id: hand, name: {ja: 手札, en: hand}, role: hand}",
                     "{id: hand, name: {ja: 手札, en: hand}, role: hand, front: 2}")), "C311")
    assert d.message == "'front' is for the zone with role stage, not 'hand'"

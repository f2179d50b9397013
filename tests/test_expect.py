"""The expect language beyond visits, final zones and the result: the order of trace entries,
facts right after the n-th entry at a node, events, refusals; each failure located at the fact
(file:line:col) with expected vs found and the trace entry it concerns."""
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate
from tcgtiming.runtime.expect import Board, check, diagnostics, refusal
from tcgtiming.runtime.trace import as_text

ROOT = Path(__file__).resolve().parent.parent
ENCORE = ROOT / "rules/ws/scenarios/encore.yaml"
CHAIN = ROOT / "rules/gundam/scenarios/cut-in-chain.yaml"
LOSS = ROOT / "rules/ws/scenarios/loss-at-check-timing.yaml"


def compiled(path, rules=None):
    res = compile_file(str(path), rules=rules)
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res


def failures(path, rules=None):
    res = compiled(path, rules)
    return check(simulate(res.game, res.scenario, strict=True), res.scenario)


def variant(tmp_path, src: Path, *edits) -> Path:
    text = src.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    out = tmp_path / src.name
    out.write_text(text, encoding="utf-8")
    return out


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


@pytest.mark.parametrize("path", [ENCORE, CHAIN, LOSS], ids=lambda p: p.stem)
def test_shipped_scenarios_state_every_kind_and_it_holds(path):
    facts = compiled(path).scenario.expect.facts
    assert facts.order and facts.at and facts.events
    assert failures(path) == []


def test_facts_at_a_node_fail_located_with_the_entry(tmp_path):
    p = variant(tmp_path, ENCORE, ("cards: {a-att: {zone: stage, state: rest}}", "cards: {a-att: {zone: stage, state: stand}}"),
                ("zones: {p1: {stock: 0}}", "zones: {p1: {stock: 2}}"))
    fs = failures(p, str(ROOT / "rules/ws/game.yaml"))
    assert len(fs) == 1
    f = fs[0]
    assert (f.loc.file, f.loc.line, f.loc.col) == (str(p), line_of(p, "- node: check_timing.2.pending.1"), 7)
    assert f.entry.node == "check_timing.2.pending.1" and f.entry.event[0] == "resolve"
    assert "expected state stand, found rest" in f.message and "stock: expected 2 card(s), found 0" in f.message


def test_order_fails_when_reversed(tmp_path):
    p = variant(tmp_path, ENCORE, ("before: {resolved: a-att}}", "after: {resolved: a-att}}"))
    fs = failures(p, str(ROOT / "rules/ws/game.yaml"))
    assert [f.loc.line for f in fs] == [line_of(p, "after: {resolved: a-att}")]
    assert fs[0].entry.seq > 0 and "trace entry" in fs[0].message


def test_stack_priority_and_passes_are_checked(tmp_path):
    p = variant(tmp_path, CHAIN, ("stack: [supply, counter, jam], priority: p2", "stack: [supply, jam, counter], priority: p1"),
                ("nth: 4, passes: 1", "nth: 4, passes: 2"))
    fs = failures(p, str(ROOT / "rules/gundam/game.yaml"))
    by_line = {f.loc.line: f.message for f in fs}
    assert set(by_line) == {line_of(p, "nth: 3"), line_of(p, "nth: 4")}
    assert "stack" in by_line[line_of(p, "nth: 3")] and "priority: expected p1 to hold priority after the entry, found p2" in by_line[line_of(p, "nth: 3")]
    assert "passes: expected 2, found 1" in by_line[line_of(p, "nth: 4")]


def test_event_counts_and_rule_processes(tmp_path):
    p = variant(tmp_path, LOSS, ("{interrupt: refresh, count: 0}", "{interrupt: refresh, count: 1}"),
                ("{rule: loss_no_cards, actor: p1, count: 1}", "{rule: loss_no_cards, actor: p2}"))
    fs = failures(p, str(ROOT / "rules/ws/game.yaml"))
    assert sorted(f.loc.line for f in fs) == sorted([line_of(p, "interrupt: refresh"), line_of(p, "actor: p2")])


def test_refusal_expected_and_named(tmp_path):
    # Char's card first, while Amuro holds priority: the play is refused
    edits = [("  - {at: deploy.free, take: play, card: a-depot}\n", "")]
    tail = "  refused: {code: R503, names: [deploy.free, priority]}\n"
    p = variant(tmp_path, CHAIN, *edits)
    p.write_text(p.read_text(encoding="utf-8") + tail, encoding="utf-8")
    res = compiled(p, str(ROOT / "rules/gundam/game.yaml"))
    with pytest.raises(SimulationError) as exc:
        simulate(res.game, res.scenario, strict=True)
    assert refusal(res.scenario, exc.value) == []
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(p.read_text(encoding="utf-8").replace("names: [deploy.free, priority]", "names: [reroll.free]"), encoding="utf-8")
    res = compiled(wrong, str(ROOT / "rules/gundam/game.yaml"))
    fs = refusal(res.scenario, exc.value)
    assert len(fs) == 1 and "reroll.free" in fs[0].message and fs[0].loc.line == line_of(wrong, "refused:")
    # a refusal expected of a run that goes to the end
    ok = variant(tmp_path, CHAIN)
    ok.write_text(ok.read_text(encoding="utf-8") + tail, encoding="utf-8")
    res = compiled(ok, str(ROOT / "rules/gundam/game.yaml"))
    fs = check(simulate(res.game, res.scenario, strict=True), res.scenario)
    assert [f.loc.line for f in fs] == [line_of(ok, "refused:")]


def test_cli_refusal_exit_codes(tmp_path, cli):
    p = variant(tmp_path, CHAIN, ("  - {at: deploy.free, take: play, card: a-depot}\n", ""))
    base = p.read_text(encoding="utf-8")
    code, _, _ = cli("simulate", p, "--rules", ROOT / "rules/gundam/game.yaml")
    assert code == 1  # refused and not expected
    p.write_text(base + "  refused: {code: R503, names: [deploy.free]}\n", encoding="utf-8")
    code, _, err = cli("simulate", p, "--rules", ROOT / "rules/gundam/game.yaml")
    assert code == 0 and "R505" not in err


def test_cli_r505_has_line_and_column(tmp_path, cli):
    p = variant(tmp_path, ENCORE, ("result: ongoing", "result: lose"),
                ("{moved: {card: a-att, from: waiting_room, to: stage}, count: 1}",
                 "{moved: {card: a-att, from: waiting_room, to: stage}, count: 2}"))
    for extra in ((), ("--format", "json"), ("--brief",)):
        code, _, err = cli("simulate", p, "--rules", ROOT / "rules/ws/game.yaml", *extra)
        assert code == 1
        assert f"{p}:{line_of(p, 'result: lose')}:11: error[R505]" in err
        assert f"{p}:{line_of(p, 'count: 2')}:7: error[R505]" in err
        assert "expected 2 entries" in err and "found 1" in err


def test_unknown_ids_in_expectations_are_located(tmp_path):
    p = variant(tmp_path, ENCORE, ("{resolved: a-att, before:", "{resolved: a-atx, before:"),
                ("- node: attack.battle.4 ", "- node: attack.battel.4 "),
                ("{damage: {amount: 1}, count: 1}", "{damage: {amount: 1}, count: -1}"))
    res = compile_file(str(p), rules=str(ROOT / "rules/ws/game.yaml"))
    got = {(d.code, d.line) for d in res.errors}
    assert ("C302", line_of(p, "a-atx")) in got
    assert ("C302", line_of(p, "attack.battel.4")) in got
    assert ("S204", line_of(p, "count: -1")) in got
    helps = " ".join(d.help or "" for d in res.errors)
    assert "a-att" in helps and "attack.battle.4" in helps


def test_facts_at_a_node_are_worked_out_from_the_records():
    """The board at a node is replayed from the starting layout and each entry's changes; the final
    board equals the engine's final zones."""
    for path in sorted((ROOT / "rules").glob("*/scenarios/*.yaml")):
        res = compiled(path)
        run = simulate(res.game, res.scenario, strict=True)
        board = Board(run.program, res.scenario)
        for e in run.entries:
            board.apply(e)
        for pid, zones in run.zones:
            for z, ids in zones:
                assert board.cards_in(pid, z) == sorted(ids), (path.name, pid, z)


def test_the_damage_amount_is_a_number_in_both_languages():
    res = compiled(ENCORE)
    run = simulate(res.game, res.scenario, strict=True)
    calls = [e for e in run.entries if e.event[0] == "call" and len(e.event) > 2]
    assert [e.event[2] for e in calls] == [1]  # the soul of the attacker, as a number
    en, ja = as_text(run, lang="en"), as_text(run, lang="ja")
    assert "amount=soul" not in en and "amount=soul" not in ja


def test_diagnostics_note_the_entry_in_the_chosen_language(tmp_path):
    p = variant(tmp_path, ENCORE, ("{moved: {card: b-def, from: waiting_room, to: stage}, count: 0}",
                                   "{moved: {card: b-def, from: stage, to: waiting_room}, count: 0}"))
    res = compiled(p, str(ROOT / "rules/ws/game.yaml"))
    fs = check(simulate(res.game, res.scenario, strict=True), res.scenario)
    (d,) = diagnostics(fs, res.game, res.scenario, "en")
    assert d.code == "R505" and d.line == line_of(p, "from: stage, to: waiting_room}, count: 0") and d.col == 7
    assert d.notes and "attack.encore.4.reversed.1" in d.notes[0] and "Wall" in d.notes[0]


def test_interrupts_in_order_and_the_board_after_them(tmp_path):
    """Bob's clock holds 6: the damage makes it 7 and the level up interrupts at once (its entry comes
    before the entry of the move that caused it, like every entry made inside a node's work); the
    clock card chosen goes to the level zone, six to the waiting room."""
    clock = ", ".join(f"b-k{i}" for i in range(1, 7))
    cards = "".join(f"  - {{id: b-k{i}, name: Clock, type: character}}\n" for i in range(1, 7))
    p = variant(tmp_path, ENCORE, ("      stock: [b-s1, b-s2]\n", f"      stock: [b-s1, b-s2]\n      clock: [{clock}]\n"),
                ("  - {id: b-s1, name: Stock, type: character}\n", cards + "  - {id: b-s1, name: Stock, type: character}\n"),
                ("choices:\n", "choices:\n  - {at: level_up, card: b-k3}\n"))
    text = p.read_text(encoding="utf-8")
    text = text[:text.index("expect:")] + (
        "expect:\n"
        "  order:\n"
        "    - {interrupt: level_up, actor: p2, before: {node: attack.damage.4}}\n"
        "    - {moved: {card: b-d1, from: deck, to: resolution}, before: {interrupt: level_up}}\n"
        "  at:\n"
        "    - {node: attack.damage.4, zones: {p2: {level: [b-k3], clock: 0}}, cards: {b-d1: {zone: waiting_room}}}\n"
        "  events:\n"
        "    - {interrupt: level_up, count: 1}\n"
        "    - {moved: {card: b-k3, from: clock, to: level}, count: 1}\n")
    p.write_text(text, encoding="utf-8")
    res = compiled(p, str(ROOT / "rules/ws/game.yaml"))
    run = simulate(res.game, res.scenario, strict=True)
    assert any(e.kind == "interrupt" and e.event[1] == "level_up" for e in run.entries)
    assert check(run, res.scenario) == []
    board = Board(run.program, res.scenario)  # the board replayed equals the engine's at the end
    for e in run.entries:
        board.apply(e)
    assert [(z, board.cards_in("p2", z)) for z, _ in dict(run.zones)["p2"]] == \
        [(z, sorted(ids)) for z, ids in dict(run.zones)["p2"]]
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("before: {node: attack.damage.4}", "after: {node: attack.damage.4}")
                   .replace("level: [b-k3]", "level: [b-k1]"), encoding="utf-8")
    res = compiled(bad, str(ROOT / "rules/ws/game.yaml"))
    fs = check(simulate(res.game, res.scenario, strict=True), res.scenario)
    assert sorted(f.loc.line for f in fs) == sorted([line_of(bad, "after: {node: attack.damage.4}"), line_of(bad, "level: [b-k1]")])


def test_facts_from_elsewhere_about_a_scenario(tmp_path):
    """A ruling states its own facts about a shipped scenario: check(run, scenario, expect=...)."""
    res = compiled(ENCORE)
    run = simulate(res.game, res.scenario, strict=True)
    other = compiled(variant(tmp_path, ENCORE, ("{damage: {amount: 1}, count: 1}", "{damage: {amount: 2}, count: 1}")),
                     str(ROOT / "rules/ws/game.yaml")).scenario.expect
    assert check(run, res.scenario) == []
    fs = check(run, res.scenario, expect=other)
    assert len(fs) == 1 and "amount: 2" in fs[0].message

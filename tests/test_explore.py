"""``tcgtiming explore``: every combination of a scenario's open decisions, merged by state.

The facts asserted: the number of distinct states and runs for k independent pending abilities
(2^k - k - 1 decision states, far fewer runs than k! orders), the same outcomes (and the same
number of combinations per outcome) with and without merging, each outcome's example choices
reproducing that outcome when added to the scenario, card picks explored like any other decision, the
limit, and the command's exits."""
from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from tcgtiming.core.scenario import Choice
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import simulate
from tcgtiming.runtime.explore import _outcome, explore

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini" / "game.yaml"
FIX = ROOT / "tests" / "fixtures" / "explore"
HEAD = "scenario: {id: k, game: mini, title: {ja: 独立, en: independent}, turn_player: p1, seed: 1}\n"
PASSES = "choices:\n  - {at: main.play, take: pass}\n  - {at: battle.free.1, take: pass}\n  - {at: battle.free.1, take: pass}\n"


def _load(path: Path, rules: Path = MINI):
    res = compile_file(str(path), rules=str(rules))
    assert res.scenario is not None, [(d.code, d.message) for d in res.diagnostics]
    return res.game, res.scenario


def independent(k: int, tmp_path: Path):
    """k cards whose abilities trigger together and change nothing: every order ends the same."""
    ids = [f"t{i}" for i in range(k)]
    cards = [f"  - {{id: {c}, name: Ticker, type: character, abilities: [{{id: tick, kind: auto, event: turn_start, "
             "effect: [{draw: {who: controller, count: 0}}]}]}" for c in ids]
    p = tmp_path / f"k{k}.yaml"
    p.write_text(HEAD + "players:\n" f"  - {{id: p1, name: Alice, zones: {{discard: [{', '.join(ids)}]}}}}\n"
                 "  - {id: p2, name: Bob, zones: {}}\ncards:\n" + "\n".join(cards) + "\n" + PASSES, encoding="utf-8")
    return _load(p)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_independent_abilities_grow_with_states_not_orders(k, tmp_path):
    game, sc = independent(k, tmp_path)
    merged = explore(game, sc)
    brute = explore(game, sc, merge=False)
    assert merged.complete and brute.complete
    assert merged.states == 2 ** k - k - 1  # the sets of abilities still pending, two or more of them
    assert brute.runs == math.factorial(k)
    assert [r.combinations for r in merged.outcomes] == [math.factorial(k)]
    assert not merged.matters
    if k >= 4:
        assert merged.runs < brute.runs
    assert merged.runs <= k * 2 ** (k - 1)


def _replay(game, sc, example):
    """The scenario with an outcome's example choices added: the run must end in that outcome."""
    extra = tuple(Choice(at, *_fields(alt), loc=sc.choices[0].loc if sc.choices else None) for at, alt in example)
    return simulate(game, dataclasses.replace(sc, choices=sc.choices + extra))


def _fields(alt):
    """(take, card, cards, ability, target) of a scenario choice for an alternative."""
    if alt[0] in ("take", "pay"):
        return alt[1], None, (), None, None
    if alt[0] == "ability":
        return None, alt[1], (), alt[2], None
    if alt[0] == "cards":  # a card pick: one card, or several
        return (None, alt[1][0], (), None, None) if len(alt[1]) == 1 else (None, None, alt[1], None, None)
    return "play", alt[1], (), alt[2], alt[3]


@pytest.mark.parametrize("name", ["order-matters", "window-open"])
def test_outcomes_match_brute_force_and_replay(name):
    game, sc = _load(FIX / f"{name}.yaml")
    merged, brute = explore(game, sc), explore(game, sc, merge=False, limit=20000)
    assert merged.complete
    as_set = lambda ex: {r.outcome: r.combinations for r in ex.outcomes}  # noqa: E731
    if brute.complete:  # the same outcomes; the same counts unless a choice can repeat (brute force follows
        # the loop until the step budget stops it; merging sees the state again and takes the other alternatives)
        looped = {o for o in as_set(brute) if o.error[:1] == ("R502",)}
        assert bool(looped) == bool(merged.cycles)
        assert set(as_set(merged)) == set(as_set(brute)) - looped
        if not merged.cycles:
            assert as_set(merged) == as_set(brute)
    for r in merged.outcomes:
        run = _replay(game, sc, r.example)
        assert _outcome(run.machine) == r.outcome


def test_the_order_of_a_draw_and_a_mill_matters():
    game, sc = _load(FIX / "order-matters.yaml")
    ex = explore(game, sc)
    assert ex.matters and len(ex.outcomes) == 2
    hands = sorted(tuple(c[2] for c in r.outcome.cards if c[1] == "hand") for r in ex.outcomes)
    assert hands == [("a1",), ("a2",)]  # Herald first draws Spark; Miller first leaves Gem on top
    assert {r.example[0][1][1] for r in ex.outcomes} == {"a6", "a7"}


def test_the_limit_stops_and_says_so():
    game, sc = _load(FIX / "window-open.yaml")
    ex = explore(game, sc, limit=2)
    assert ex.runs == 2 and not ex.complete


def test_open_sets_a_scripted_choice_aside():
    game, sc = _load(ROOT / "rules" / "ws" / "scenarios" / "both-players-pending.yaml", ROOT / "rules" / "ws" / "game.yaml")
    assert explore(game, sc).states == 0
    ex = explore(game, sc, open_at=("stand",))  # the choice is keyed to the phase it is made in
    assert ex.states == 1 and sum(r.combinations for r in ex.outcomes) == 2


def test_at_leaves_earlier_decisions_to_the_policy():
    game, sc = _load(FIX / "window-open.yaml")
    everything = explore(game, sc)
    later = explore(game, sc, at="battle.free.1")
    assert later.reached_at and later.complete
    assert later.states < everything.states
    assert all(at == "battle.free.1" for r in later.outcomes for at, _ in r.example)
    nowhere = explore(game, sc, at="check.2.1.1")  # one pending ability only: no decision is made there
    assert not nowhere.reached_at and nowhere.states == 0


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "tcgtiming", "explore", *args], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT / "generator"), "PATH": "/usr/bin:/bin"}, timeout=120)


def test_cli_exits_and_json():
    p = _cli(str(FIX / "order-matters.yaml"), "--rules", str(MINI), "--format", "json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["matters"] and data["complete"] and len(data["outcomes"]) == 2
    assert {d["card"] for d in data["differences"]} == {"a1", "a2"}
    assert _cli(str(FIX / "window-open.yaml"), "--rules", str(MINI), "--limit", "2").returncode == 3
    bad = _cli(str(FIX / "window-open.yaml"), "--rules", str(MINI), "--at", "battle.fre.1")
    assert bad.returncode == 2 and "U402" in bad.stderr and "battle.free.1" in bad.stderr
    again = _cli(str(FIX / "order-matters.yaml"), "--rules", str(MINI), "--format", "json")
    assert again.stdout == p.stdout


def test_japanese_text_has_no_english_words():
    p = _cli(str(FIX / "order-matters.yaml"), "--rules", str(MINI), "--lang", "ja")
    assert p.returncode == 0
    import re
    body = p.stdout
    for name in ("Alice", "Bob", "Spark", "Gem", "Herald", "Miller"):
        body = body.replace(name, "")
    body = re.sub(r"- \{[^}]*\}", "", body)  # the example choices are scenario syntax (ids), not narration
    body = re.sub(r"\[[a-z0-9_.-]+\]", "", body)  # card ids
    assert not re.search(r"[A-Za-z]{2,}", body), body


def test_card_picks_are_explored_and_match_brute_force():
    # the hand adjustment of the Gundam War turn end: 8 cards in hand, limit 7. With the choice set aside,
    # which card is discarded is explored: one outcome per card, as brute force finds, each replayable
    rules = ROOT / "rules" / "gundam" / "game.yaml"
    game, sc = _load(ROOT / "rules" / "gundam" / "scenarios" / "turn-end-sequence.yaml", rules)
    ex = explore(game, sc, open_at=("battle.return.hand_adjustment",))
    brute = explore(game, sc, open_at=("battle.return.hand_adjustment",), merge=False)
    assert ex.complete and brute.complete and ex.states == 1
    as_set = lambda e: {r.outcome: r.combinations for r in e.outcomes}  # noqa: E731
    assert as_set(ex) == as_set(brute) and len(ex.outcomes) == 8
    junk = sorted(next(c[2] for c in r.outcome.cards if c[1] == "junk_yard") for r in ex.outcomes)
    assert junk == sorted(["a-h1", "a-h2", "a-h3", "a-h4", "a-h5", "a-h6", "a-d1", "a-d2"])
    base = dataclasses.replace(sc, choices=tuple(c for c in sc.choices if c.at != "battle.return.hand_adjustment"))
    for r in ex.outcomes:
        assert [alt[0] for _, alt in r.example] == ["cards"]
        assert _outcome(_replay(game, base, r.example).machine) == r.outcome
    # a pick of several cards: every set of them once (limit 3: 5 of the 8 cards go, C(8, 5) sets)
    cut = dataclasses.replace(game, constants={**game.constants, "hand_limit": 3})
    many = explore(cut, sc, open_at=("battle.return.hand_adjustment",))
    assert many.complete and len(many.outcomes) == math.comb(8, 5)

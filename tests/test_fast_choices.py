"""The scripted choices as the fast tier takes them (``placed``, ``wingen``): a choice taken off its
list with what the decision read of it, the test that a list's next choice was taken already written
only when the scenario lists a choice twice. Both tiers keep the same diagnostics (choices never
used, data a choice gave that no decision read) and the same entries."""
from __future__ import annotations

import dataclasses

import pytest

from test_codegen import SCENARIOS, load, outcome
from test_wingen import both

WINDOWED = [p for p in SCENARIOS if p.parent.parent.name != "ws"]  # the games with priority windows


def window_passes(game, sc) -> list[int]:
    """The indices of the choices that pass in a window (keyed to the window's node)."""
    return [i for i, ch in enumerate(sc.choices)
            if ch.take == "pass" and ch.at in game.nodes and game.nodes[ch.at].kind == "window"]


@pytest.mark.parametrize("path", WINDOWED, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_choice_listed_twice_runs_alike_on_both_tiers(path):
    """A choice listed twice (one object, twice in the list): the second time it comes up it was
    taken already, and is skipped as the machine skips it; both tiers alike."""
    game, sc = load(path)
    twice = dataclasses.replace(sc, choices=tuple(ch for ch in sc.choices for _ in (0, 1)))
    for how in (dict(strict=True), dict(strict=True, trace=False), dict(policy="first")):
        both(game, twice, **how)


@pytest.mark.parametrize("path", [p for p in WINDOWED if window_passes(*load(p))],
                         ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_pass_that_names_a_card_is_reported_on_both_tiers(path):
    """A pass in a window that names a card: the decision never reads the card, and both tiers say so."""
    game, sc = load(path)
    i = window_passes(game, sc)[0]
    card = next(iter(sc.cards))
    chs = list(sc.choices)
    chs[i] = dataclasses.replace(chs[i], card=card)
    named = dataclasses.replace(sc, choices=tuple(chs))
    got = both(game, named, strict=True)
    assert got[0] != "error"
    assert (chs[i].at, chs[i].loc, ("card",)) in got[8]
    assert (chs[i].at, chs[i].loc, ("card",)) not in outcome(game, sc, False, strict=True)[8]


def test_the_taken_test_is_written_only_for_a_choice_listed_twice():
    """The generated decision tests whether a list's next choice was taken only when a choice is
    listed twice."""
    from tcgtiming.runtime.engine import program_for, simulate
    path = next(p for p in WINDOWED if window_passes(*load(p)))
    game, sc = load(path)
    prog = program_for(game, len(sc.players))
    prog.__dict__.pop("_fast_turns", None)
    prog.__dict__.pop("fast_sources", None)
    simulate(game, sc, strict=True, program=prog)
    once = "".join(prog.fast_sources.values())
    simulate(game, dataclasses.replace(sc, choices=sc.choices + sc.choices[:1]), strict=True, program=prog)
    twice = "".join(v for v in prog.fast_sources.values() if v not in once)
    assert "not in wUC" not in once and "not in wUC" in twice


def test_a_window_action_that_only_says_so_is_in_its_before_priority_entry(tmp_path):
    """A window's own action that does nothing but say so (``pass``): its event is one of what the
    actions did, each time before priority, on both tiers."""
    from test_wingen import ROOT, edited, scenario
    rules = tmp_path / "game.yaml"
    bp = "before_priority: [rule_processing, end_if_lost, stack_pending]"
    rules.write_text(edited((ROOT / "rules" / "mtg" / "game.yaml").read_text(encoding="utf-8"),
                            [(bp, bp.replace("[", "[pass, "))]), encoding="utf-8")
    game, sc = scenario("mtg/scenarios/respond-one-at-a-time.yaml", rules=rules)
    for how in (dict(strict=True), dict(strict=True, trace=False), dict(policy="first")):
        got = both(game, sc, **how)
    done = [e.event[1] for e in got[0] if e.event[0] == "before_priority"]
    assert done and all(d[0] == ("label",) for d in done)

"""Priority windows written in place in the fast tier (``runtime.engine.wingen``): no shipped
scenario calls the machine's window loop on the fast tier, the scripted plays and passes and the
forced passes are made in place, and the two tiers record the same facts on windows with plays,
responses, a reopening window, the stack resolved one object at a time, three players, on windows
the rule file states otherwise (who may act, priority kept, closing rules, resolving at once, the
window's own actions), and on the errors a window raises (an unscripted decision, a refused play, a
step budget run out in a window)."""
from __future__ import annotations

import dataclasses

import pytest

from tcgtiming.frontend.loader import load_bytes
from tcgtiming.frontend.pipeline import compile_document
from tcgtiming.runtime.engine import program_for, simulate
from tcgtiming.runtime.engine.windows import Windows
from test_codegen import ROOT, SCENARIOS, load, outcome

WINDOWED = [p for p in SCENARIOS if p.parent.parent.name != "ws"]  # the games with priority windows


def edited(text: str, edits) -> str:
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return text


def scenario(rel: str, *edits, rules=None):
    """A shipped scenario with its text edited (each old text replaced wherever it is), on its
    game's rule file or another one (``rules``)."""
    path = ROOT / "rules" / rel
    text = edited(path.read_text(encoding="utf-8"), edits)
    res = compile_document(load_bytes(text.encode(), str(path.relative_to(ROOT))),
                           rules=str(rules or path.parent.parent / "game.yaml"))
    assert res.scenario is not None, [(d.code, d.message) for d in res.diagnostics]
    return res.game, res.scenario


def both(game, sc, **how):
    """The run on both tiers (entries, result, zones, fingerprint...; or the error), which must agree."""
    slow, fast = outcome(game, sc, True, **how), outcome(game, sc, False, **how)
    if slow[0] != "error" and how.get("trace", True):
        assert len(fast[0]) == len(slow[0])
        for a, b in zip(fast[0], slow[0]):
            assert a == b
    assert fast == slow
    return fast


@pytest.fixture
def counted(monkeypatch):
    """How often the run called each of the machine's window methods."""
    calls: dict = {}
    for name in ("window", "window_decision", "unscripted_priority", "scripted_play", "window_play"):
        orig = getattr(Windows, name)

        def wrap(self, *a, _orig=orig, _name=name):
            calls[_name] = calls.get(_name, 0) + 1
            return _orig(self, *a)
        monkeypatch.setattr(Windows, name, wrap)
    return calls


@pytest.mark.parametrize("path", WINDOWED, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_no_shipped_window_runs_the_machines_loop_on_the_fast_tier(path, counted):
    game, sc = load(path)
    for trace in (True, False):
        run = simulate(game, sc, strict=True, trace=trace)
        assert run.result in ("ongoing", "lose", "draw")
    assert "window" not in counted
    src = "".join(program_for(game, len(sc.players)).fast_sources.values())
    assert "st.window(" not in src and "while True:" in src and "wn = 0" in src
    # taken in place: the passes and plays a choice keyed to the window names
    if any(ch.at in game.nodes and game.nodes[ch.at].kind == "window" for ch in sc.choices):
        assert "window_decision" not in counted and "scripted_play" not in counted


def test_forced_passes_are_made_in_place(counted):
    """No card of a kind the window allows, nothing scripted: every pass is forced, without a call."""
    game, sc = load(ROOT / "rules" / "mtg" / "scenarios" / "apnap-upkeep-triggers.yaml")
    run = simulate(game, sc, strict=True)
    passes = [e for e in run.entries if e.event[0] == "pass"]
    assert len(passes) == 18 and all(e.decided_by is None for e in passes)
    assert counted == {}


def test_plays_and_responses_in_a_reopening_window():
    """Gundam's free timing: each player plays, the stack resolves newest first, the window reopens."""
    game, sc = load(ROOT / "rules" / "gundam" / "scenarios" / "chart-turn.yaml")
    entries = both(game, sc, strict=True)[0]
    kinds = [e.event[0] for e in entries if e.kind == "window"]
    assert kinds.count("window_play") == 24 and kinds.count("stack_resolved") == 12 and kinds.count("window_closes") == 12
    both(game, sc, strict=True, trace=False)


@pytest.mark.parametrize("rel", ["mtg/scenarios/respond-one-at-a-time.yaml", "mtg/scenarios/three-player-responses.yaml"])
def test_responses_resolve_one_at_a_time(rel):
    """MTG: priority goes round (two or three players), the top object resolves, the window reopens
    after its before-priority actions; choices keyed by the step, not the window."""
    game, sc = load(ROOT / "rules" / rel)
    entries = both(game, sc, strict=True)[0]
    resolved = [e.event[2] for e in entries if e.kind == "resolve"]
    assert resolved[:3] == ["negate", "counterspell", "opt"]
    assert len({e.actor for e in entries if e.event[0] == "window_play"}) == len(sc.players)
    for how in (dict(strict=True, trace=False), dict(policy="first"), dict(policy="random", trace=False)):
        both(game, sc, **how)


CHART = "gundam/scenarios/chart-turn.yaml"
RESPOND = "mtg/scenarios/respond-one-at-a-time.yaml"


@pytest.mark.parametrize("edits, code", [
    # a card of the other player's: refused where the choice is taken
    (((CHART, "{at: reroll.free, take: play, card: a-t1}", "{at: reroll.free, take: play, card: b-t1}"),), "R503"),
    # a card of a kind the window does not allow (a land in response)
    (((RESPOND, "take: play, card: counterspell}", "take: play, card: b1}"),), "R503"),
    # a kind only the turn player's side may play (by), played by the other side
    (((CHART, "id: b-order1\n    label: {ja: 攻撃力+1（ターン終了時まで）, en: +1 attack until the end of the turn}\n"
              "    kind: activated\n    play: text", "id: b-order1\n    kind: activated\n    play: own_turn_text"),), "R503"),
    # a kind whose condition (when) does not hold: a sorcery in response
    (((RESPOND, "{id: counter, kind: activated, play: instant", "{id: counter, kind: activated, play: sorcery"),), "R503"),
    # no choice where a card could be played: --strict refuses the decision
    (((CHART, "{at: reroll.free, ", "{at: draw.free_before, "),), "R501"),
    # the step budget runs out inside a window: the cycle named, as on the closure tier
    (((CHART, "  seed: 1\n", "  seed: 1\n  max_steps: 60\n"),), "R502"),
], ids=["other-players-card", "kind-not-allowed", "by-another-role", "when-fails", "unscripted", "budget"])
def test_a_windows_errors_are_the_same_on_both_tiers(edits, code):
    rel = edits[0][0]
    game, sc = scenario(rel, *[(old, new) for _, old, new in edits])
    for trace in (True, False):
        got = both(game, sc, strict=True, trace=trace)
        assert got[:2] == ("error", code)



NO_PASSES = [("\n              passes: 2", ""), ("\n          passes: 2", "")]  # a pass count is for consecutive passes
MTG_WINDOW = "        first: active_player\n        plays: [instant, sorcery, land]"


@pytest.mark.parametrize("rel, edits", [
    # who may act: a set of players (three players: the two nonactive ones), the others pass by themselves
    ("mtg/scenarios/three-player-turn-order.yaml",
     [(MTG_WINDOW, MTG_WINDOW.replace("plays:", "who: [nonactive_player]\n        plays:"))]),
    ("mtg/scenarios/three-player-responses.yaml",
     [(MTG_WINDOW, MTG_WINDOW.replace("plays:", "who: [nonactive_player]\n        plays:"))]),
    ("versus/scenarios/standby-newest-first.yaml", [("who: [attack_side, block_side]", "who: [attack_side]")]),
    # how the window goes on: priority kept after a play, the top object only, closing after resolving,
    # everyone passing, plays resolving at once, no actions of its own before priority
    (CHART, [("after_play: alternate", "after_play: keep")]),
    (CHART, [("resolve: stack", "resolve: top")]),
    (CHART, [("after_resolve: reopen", "after_resolve: close")]),
    (CHART, [("close: consecutive_passes", "close: all_pass"), *NO_PASSES]),
    (CHART, [("close: consecutive_passes", "close: first_pass"), *NO_PASSES]),
    (CHART, [("resolve: stack", "resolve: immediate")]),
    (RESPOND, [("        before_priority: [rule_processing, end_if_lost, stack_pending]\n", "")]),
    (RESPOND, [("before_priority: [rule_processing, end_if_lost, stack_pending]", "before_priority: []")]),
], ids=["3p-who-set", "3p-who-set-responses", "who-one", "keep", "top", "close", "all-pass", "first-pass", "immediate",
        "default-before", "nothing-before"])
def test_windows_the_rule_file_states_otherwise(rel, edits, tmp_path):
    """Windows of other shapes (the rule file edited): both tiers alike, traced and not, strict and
    by a policy."""
    rules = tmp_path / "game.yaml"
    rules.write_text(edited((ROOT / "rules" / rel.split("/")[0] / "game.yaml").read_text(encoding="utf-8"), edits),
                     encoding="utf-8")
    game, sc = scenario(rel, rules=rules)
    src_before = dict(program_for(game, len(sc.players)).__dict__.get("fast_sources", {}))
    for how in (dict(strict=True), dict(strict=True, trace=False), dict(policy="random"), dict(policy="first", trace=False)):
        both(game, sc, **how)
    # the windows' decisions left to the policy (the scenario's choices there were made for the shipped rules)
    free = dataclasses.replace(sc, choices=tuple(c for c in sc.choices if c.at not in game.containers and not (
        c.at in game.nodes and game.nodes[c.at].kind == "window")))  # keyed by a step or phase, or to a window: left out
    plays = 0
    for how in (dict(policy="random"), dict(policy="first"), dict(policy="first", trace=False)):
        got = both(game, free, **how)
        plays += sum(1 for e in got[0] if e.event[0] == "window_play") if got[0] != "error" else 0
    assert plays > 0 or rel.endswith("turn-order.yaml")  # the policy plays in these windows
    src = "".join(v for k, v in program_for(game, len(sc.players)).fast_sources.items() if k not in src_before)
    assert "st.window(" not in src and "def WIN0(st, ni, nid, nd):" in src


def test_the_lethal_damage_test_a_window_runs_before_priority_agrees_with_its_closure():
    """MTG's rule processing before each priority tests damage_reaches: written as an expression (in
    the rule scan and in place), it finds what the predicate's closure finds - damage at or over the
    value, the value lowered by a modifier, a card without the value, another zone, another player."""
    from types import SimpleNamespace

    from tcgtiming.runtime.engine.conditions import PREDICATES
    from tcgtiming.runtime.engine.state import card as make_card

    game, sc = load(ROOT / "rules" / "mtg" / "scenarios" / "double-block.yaml")
    cx = program_for(game, 2).cx
    test = PREDICATES["damage_reaches"](cx, {"player": "self", "zone": "battlefield", "stat": "toughness"})
    spec = next(iter(sc.cards.values()))
    cases = []
    lowered = [("toughness", -1)]
    for damage, toughness, mods, zone, owner in [
            (2, 2, [], "battlefield", "p1"), (1, 2, [], "battlefield", "p1"), (1, 2, lowered, "battlefield", "p1"),
            (0, 1, lowered, "battlefield", "p1"), (5, None, [], "battlefield", "p1"), (3, 2, [], "graveyard", "p1"),
            (3, 2, [], "battlefield", "p2")]:
        card = make_card(spec, owner, {} if toughness is None else {"toughness": toughness}, zone)
        card.damage, card.mods = damage, mods
        zones = {p: {z: [] for z in game.zones} for p in ("p1", "p2")}
        zones[owner][zone].append(card)
        st = SimpleNamespace(zones=zones, seat=["p1", "p2", "p1", "p2"])
        held = test(st)
        assert eval(test.expr, {"st": st}) is held
        cases.append(held)
    assert cases == [True, False, True, True, False, False, False]

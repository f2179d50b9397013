"""The engine itself: compiled once per game, the same state with and without a trace, the state's
fingerprint, one step budget for every loop it runs (each stops with its cycle named, in bounded
memory), pending abilities and the stack traced without copying them per entry, streaming."""
import dataclasses
import gc
import io
import time
import tracemalloc
from pathlib import Path

import pytest

from conftest import MINI, ROOT
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, program_for, simulate
from tcgtiming.runtime.trace import Stream, as_jsonl, as_text

SCENARIOS = sorted((ROOT / "rules").glob("*/scenarios/*.yaml"))
LANES = ROOT / "tests" / "fixtures" / "mini" / "scenarios" / "lanes.yaml"
GUNDAM = ROOT / "rules" / "gundam"


def load(path, rules=None):
    res = compile_file(path, rules=str(rules) if rules else None)
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res.game, res.scenario


# --- compiled once ---------------------------------------------------------------------------------
def test_a_game_is_compiled_once_and_its_code_once_per_mode():
    game, sc = load(LANES, MINI)
    prog = program_for(game)
    assert program_for(game) is prog
    assert prog.turn(True) is prog.turn(True) and prog.turn(False) is prog.turn(False)
    simulate(game, sc)
    assert program_for(game) is prog and prog.setup(sc) is prog.setup(sc)
    # the code is Python: one function per container, the nodes' indices in it
    assert prog.sources[True].count("\ndef F") + 1 == len(game.containers)


# --- the same run, with or without a trace -------------------------------------------------------------
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_without_a_trace_the_run_ends_in_the_same_state(path):
    game, sc = load(path)
    traced, fast = simulate(game, sc, strict=True), simulate(game, sc, strict=True, trace=False)
    assert fast.entries == () and traced.entries
    assert fast.fingerprint == traced.fingerprint
    assert (fast.result, fast.losers, fast.zones) == (traced.result, traced.losers, traced.zones)
    hash(traced.fingerprint)


def test_the_fingerprint_is_canonical_and_tells_states_apart():
    game, sc = load(ROOT / "rules" / "ws" / "scenarios" / "first-turn-one-attack.yaml")
    a, b = simulate(game, sc, strict=True), simulate(game, sc, strict=True)
    assert a.fingerprint == b.fingerprint and hash(a.fingerprint) == hash(b.fingerprint)
    other = simulate(game, dataclasses.replace(sc, choices=()))  # no attack (the policy passes): another state
    assert other.fingerprint != a.fingerprint
    fp = a.fingerprint
    zones = dict(fp[4])["p2"]
    assert dict(zones)["clock"] == (("b-d1", None, None, 0, (), False), ("b-d2", None, None, 0, (), False))
    assert fp[8] is None and fp[9] == ()  # no priority, no procedure running: the turn is over


def test_the_fingerprint_is_the_same_in_every_process():
    """A run that draws random numbers (the random policy) fingerprints alike in two processes with
    different hash seeds: the random state enters as values, not as the hash of a tuple holding None."""
    import os
    import subprocess
    import sys
    code = ("import sys; sys.path.insert(0, 'generator'); sys.path.insert(0, 'tests'); from test_engine import load; "
            "from tcgtiming.runtime.engine import simulate; "
            "g, s = load(__import__('pathlib').Path('rules/ws/scenarios/first-turn-one-attack.yaml')); "
            "r = simulate(g, __import__('dataclasses').replace(s, choices=()), policy='random'); assert r.machine._rng is not None; print(repr(r.fingerprint))")
    out = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")]
    assert out[0] == out[1] and out[0].strip()


# --- one step budget for every loop ---------------------------------------------------------------------
def bounded(run, limit_mib=24, limit_s=60):
    """Run, and require that it stops (with R502) within the time and the memory given."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(SimulationError) as exc:
            run()
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert time.perf_counter() - t0 < limit_s
    assert peak < limit_mib * 2 ** 20, f"peak {peak / 2 ** 20:.1f} MiB"
    assert exc.value.code == "R502" and exc.value.loc is not None
    return exc.value.message


def test_a_loop_of_nodes_stops_with_its_cycle(tmp_path, mini_text):
    game = tmp_path / "game.yaml"
    game.write_text(mini_text.replace("while: {count: {zone: hand, player: turn_player, gt: hand_limit}}",
                                      "while: {count: {zone: hand, player: turn_player, ge: 0}}")
                    .replace("do: {move: {player: turn_player, from: hand, to: discard, count: 1, which: chosen}}",
                             "do: pass"), encoding="utf-8")
    g, sc = load(LANES, game)
    for trace in (True, False):
        msg = bounded(lambda: simulate(g, dataclasses.replace(sc, max_steps=40_000), trace=trace))
        assert "repeats the cycle end.2 -> end.2.1 -> end.2" in msg


def hang(tmp_path):
    """Issue 14's hang: a Gundam War card whose two auto abilities move it from field to field, one at
    the start of the reroll phase (resolved at once, in a closed timing), one whenever it enters."""
    text = (GUNDAM / "scenarios" / "reroll-start-no-cut-in.yaml").read_text(encoding="utf-8")
    card = """  - id: a-loop
    name: Shuttle
    type: unit
    abilities:
      - {id: launch, kind: auto, event: reroll_phase_start, effect: [{move: {who: controller, from: field, to: field, which: self}}]}
      - {id: again, kind: auto, event: entered, effect: [{move: {who: controller, from: field, to: field, which: self}}]}
"""
    text = text.replace("      field: [a-office]", "      field: [a-office, a-loop]").replace("cards:\n", "cards:\n" + card, 1)
    text = text.split("\nexpect:")[0] + "\n"
    p = tmp_path / "hang.yaml"
    p.write_text(text, encoding="utf-8")
    return load(p, GUNDAM / "game.yaml")


def test_abilities_resolved_at_once_in_a_closed_timing_count_against_the_budget(tmp_path):
    game, sc = hang(tmp_path)
    cycle = "repeats the cycle reroll.start[resolve a-loop/again] -> reroll.start[resolve a-loop/again]"
    # without a trace, or streamed: memory does not grow with the steps taken
    assert cycle in bounded(lambda: simulate(game, dataclasses.replace(sc, max_steps=40_000), trace=False), limit_mib=12)
    # a trace kept in memory grows with the steps taken, up to the budget
    assert cycle in bounded(lambda: simulate(game, dataclasses.replace(sc, max_steps=8_000)), limit_mib=24)
    # streamed, the same
    lines = []
    few = dataclasses.replace(sc, max_steps=8_000)
    msg = bounded(lambda: simulate(game, few, sink=Stream(program_for(game), few, lambda s: lines.append(1) if not lines else None)),
                  limit_mib=16)
    assert cycle in msg and lines


RULE = """  - id: stay
    type: {kind}
    name: {{ja: 居座る, en: stays}}
    when: {{count: {{zone: hand, player: self, ge: 0}}}}
    do: [pass]"""


@pytest.mark.parametrize("kind,where", [("check", "check.1[rule stay]"), ("interrupt", "[interrupt stay]")])
def test_rules_that_keep_applying_count_against_the_budget(variant, kind, where):
    game_path = variant(('  - {id: lose_check, type: check, name: {ja: 敗北判定, en: loss check}, cite: "mini#battle"}',
                         RULE.format(kind=kind)))
    game, sc = load(LANES, game_path)
    msg = bounded(lambda: simulate(game, dataclasses.replace(sc, max_steps=50_000)))
    assert where in msg and "repeats the cycle" in msg


def chain(tmp_path, plays):
    """A cut-in chain in the fixture's free timing: the players alternate, ``plays`` cards in all."""
    cards, hand1, hand2, choices = [], [], [], ["  - {at: main.play, take: pass}"]
    for i in range(plays):
        who, hand = ("a", hand1) if i % 2 == 0 else ("b", hand2)
        cid = f"{who}q{i}"
        hand.append(cid)
        cards.append(f"  - {{id: {cid}, name: Quick, type: event, abilities: "
                     "[{id: q, kind: activated, play: quick, cost: [{move: {who: controller, from: hand, to: discard, which: self}}], "
                     "effect: [negate]}]}")
        choices.append(f"  - {{at: battle.free.1, take: play, card: {cid}}}")
    choices += ["  - {at: battle.free.1, take: pass}"] * 4
    body = f"""scenario: {{id: chain, game: mini, title: {{ja: 連鎖, en: chain}}, turn_player: p1, seed: 1}}
players:
  - {{id: p1, name: Alice, zones: {{hand: [{', '.join(hand1)}]}}}}
  - {{id: p2, name: Bob, zones: {{hand: [{', '.join(hand2)}]}}}}
cards:
{chr(10).join(cards)}
choices:
{chr(10).join(choices)}
"""
    p = tmp_path / f"chain{plays}.yaml"
    p.write_text(body, encoding="utf-8")
    return load(p, MINI)


def test_a_window_has_no_cap_but_the_budget(tmp_path):
    game, sc = chain(tmp_path, 300)  # the interpreter stopped at 200 decisions in a window
    run = simulate(game, sc, strict=True)
    window = [e for e in run.entries if e.node == "battle.free.1"]
    plays = [e for e in window if e.event[0] == "window_play"]
    assert len(plays) == 300 and len(plays[-1].stack) == 300
    resolved = [e for e in window if e.kind == "resolve"]
    assert len(resolved) == 300 and resolved[0].event[2] == "bq299"  # newest first
    assert run.unused_choices == ()
    msg = bounded(lambda: simulate(game, dataclasses.replace(sc, max_steps=250), strict=True))
    assert "battle.free.1 -> battle.free.1" in msg


def test_a_pending_ability_snapshot_is_not_changed_by_later_entries():
    game, sc = load(ROOT / "rules" / "ws" / "scenarios" / "both-players-pending.yaml")
    es = simulate(game, sc, strict=True).entries
    trig = next(e for e in es if e.node == "stand.1")
    later = [e for e in es if e.seq > trig.seq and e.node == "check_timing.2.pending.1"]
    assert dict(trig.pending)["p2"] == (("b-sniper", "sniper"), ("b-watcher", "watcher"))  # as it was then
    assert dict(later[0].pending)["p1"] == ()


# --- streaming -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_streamed_trace_is_the_kept_one(lang):
    game, sc = load(ROOT / "rules" / "gundam" / "scenarios" / "cut-in-chain.yaml")
    run = simulate(game, sc, strict=True)
    for fmt, kept in (("json", as_jsonl(run, lang)), ("text", as_text(run, None, lang))):
        out = io.StringIO()
        stream = Stream(program_for(game), sc, out.write, fmt, lang)
        streamed = simulate(game, sc, strict=True, sink=stream)
        stream.finish(streamed)
        assert out.getvalue() == kept
        assert streamed.records is None and streamed.fingerprint == run.fingerprint


def test_a_long_run_streams_in_flat_memory():
    game, sc = load(LANES, MINI)

    def peak(turns):
        written = [0]

        def write(s):
            written[0] += len(s)
        sc2 = dataclasses.replace(sc, turns=turns, choices=(), max_steps=10 ** 9)
        tracemalloc.start()
        simulate(game, sc2, sink=Stream(program_for(game), sc2, write))
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top, written[0]

    peak(20)  # the first run compiles the game's code and fills the caches of names and words
    gc.freeze()  # the objects of earlier tests aside, so that the collector's timing does not move the peaks
    try:
        (small, written_small), (large, written_large) = peak(40), peak(800)
    finally:
        gc.unfreeze()
    assert written_large > 15 * written_small  # twenty times the turns written ...
    assert large < 2 * small + 64 * 1024, (small, large)  # ... in about the same memory

"""The rulings of every game cover the judges' topics (issue: at least one ruling each on the check-timing
order, priority and cut-ins, closed timings, loops and repeats, costs, and the game's end), and every game
has a closed-timing refusal: a ruling whose run stops with R503 at a play that the timing does not admit,
the refusal naming that timing (a node id of the game)."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (ROOT / "rules").iterdir() if (p / "game.yaml").is_file())
REQUIRED = ("check_timing", "priority", "closed", "loop", "cost", "game_end")
# Topics a game cannot have a ruling on yet, with the reason; an entry must go once a ruling covers it.
KNOWN_GAPS = {
    "mtg": {"game_end": "life totals are not modelled, so no player can lose yet (issue 15)"},
}


@pytest.fixture(scope="module")
def rulings():
    out = defaultdict(list)
    for path in sorted((ROOT / "rules").glob("*/rulings/*.yaml")):
        res = compile_file(path)
        assert res.ruling is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
        out[res.ruling.game].append(res)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_required_topic_has_a_ruling(game, rulings):
    seen = {t for res in rulings[game] for t in res.ruling.topics}
    gaps = set(KNOWN_GAPS.get(game, {}))
    assert not set(REQUIRED) - seen - gaps, f"{game}: no ruling on {sorted(set(REQUIRED) - seen - gaps)}"
    assert not gaps & seen, f"{game}: {sorted(gaps & seen)} now covered: remove them from KNOWN_GAPS"


@pytest.mark.parametrize("game", GAMES)
def test_a_closed_timing_play_is_refused_naming_the_timing(game, rulings):
    found = []
    for res in rulings[game]:
        r = res.ruling
        refused = r.expect.facts.refused if r.expect.facts is not None else None
        if "closed" not in r.topics or refused is None or refused.code != "R503":
            continue
        nodes = [n for n in refused.names if n in res.game.nodes]
        if nodes:
            found.append((r.id, nodes))
    assert found, f"{game}: no closed-timing ruling expects a refusal (R503) naming a timing"


def test_ws_only_standing_front_row_characters_may_attack():
    """ws-en#who-attacks: standing and in the three foremost positions. After one front-row character has
    attacked (and rested), the back-row attacker is refused, and of the other two only the front-row
    character still standing is offered; that one may attack."""
    import dataclasses

    from tcgtiming.runtime.engine import SimulationError, simulate

    res = compile_file(ROOT / "rules" / "ws" / "rulings" / "only-standing-centre-stage-attacks.yaml")
    game, sc = res.game, res.ruling.scenario
    with pytest.raises(SimulationError) as err:
        simulate(game, sc, strict=True)
    assert err.value.code == "R503"
    named = {c for c in ("a-front", "a-second", "a-back") if c in err.value.message}
    assert named == {"a-back", "a-second"}  # the refused card, and the only one that could attack
    # the same turn with the front-row character still standing: it attacks, and two attacks were made
    choices = tuple(dataclasses.replace(c, card="a-second") if c.card == "a-back" else c for c in sc.choices)
    run = simulate(game, dataclasses.replace(sc, choices=choices), strict=True)
    declared = [e.event[2][1] for e in run.entries if e.node == "attack.declaration.3.attack.1" and e.event
                and e.event[0] == "choose"]
    assert declared == ["a-front", "a-second"]


def test_a_rule_that_decides_a_loss_records_who_loses():
    """The rule process defeat (Gundam War) records the loss as its result, narrated from the catalogue,
    without a destination (no card moved)."""
    from tcgtiming.core.words import word
    from tcgtiming.runtime.engine import simulate
    from tcgtiming.runtime.trace import as_text

    res = compile_file(ROOT / "rules" / "gundam" / "rulings" / "nation-runs-out-loses.yaml")
    run = simulate(res.game, res.ruling.scenario, strict=True)
    rules = [e for e in run.entries if e.event[0] == "interrupt"]
    assert [(e.event[1], e.event[2], e.event[3]) for e in rules] == [("defeat", "p1", (("loses", ("p1",)),))]
    assert run.result == "lose" and run.losers == ("p1",)
    for lang in ("ja", "en"):
        line = next(ln for ln in as_text(run, {"p1": "Amuro", "p2": "Char"}, lang).splitlines()
                    if word("event.loses", lang, "Amuro") in ln)
        to = word("trace.went", lang, "\x00", "\x01").split("\x00")[1].split("\x01")[0]  # " (to: " in en
        assert word("event.loses", lang, "Amuro") + to not in line

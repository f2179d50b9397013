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
    assert not set(REQUIRED) - seen, f"{game}: no ruling on {sorted(set(REQUIRED) - seen)}"


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

"""A play kind limited by the plays made this turn (``played_this_turn``; MTG: one land a turn, CR
305.2): the second land of a turn is refused naming the condition, the count is the player's own and
starts again the next turn; the checks know the play kinds the predicate names."""
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate

ROOT = Path(__file__).resolve().parent.parent
MTG = ROOT / "rules" / "mtg"
ONE = MTG / "rulings" / "one-land-a-turn.yaml"


def scenario_of(path: Path):
    res = compile_file(path, str(path), rules=str(MTG / "game.yaml"))
    assert res.ruling is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res.game, res.ruling.scenario


def variant(tmp_path, *pairs) -> Path:
    text = ONE.read_text(encoding="utf-8")
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / ONE.name
    path.write_text(text, encoding="utf-8")
    return path


def lands_played(run):
    return [(e.turn, e.actor, e.event[1]) for e in run.entries if e.event and e.event[0] == "window_play"]


def test_a_second_land_in_a_turn_is_refused_naming_the_limit():
    with pytest.raises(SimulationError) as err:
        simulate(*scenario_of(ONE), strict=True)
    assert err.value.code == "R503" and "plains" in err.value.message and "played_this_turn" in err.value.message


def test_the_count_starts_again_next_turn(tmp_path):
    # turn 1 Alice plays the Forest; turn 2 is Bob's; turn 3 Alice plays the Plains
    path = variant(tmp_path, ("  seed: 1\n", "  seed: 1\n  turns: 3\n"),
                   ("library: [a1]", "library: [a1, a2, a3]"), ("library: [b1]", "library: [b1, b2]"),
                   ("  - {id: b1, name: Swamp, type: land}\n",
                    "  - {id: b1, name: Swamp, type: land}\n  - {id: b2, name: Swamp, type: land}\n"
                    "  - {id: a2, name: Forest, type: land}\n  - {id: a3, name: Forest, type: land}\n"),
                   ("  - {at: main1, take: pass}\n  - {at: main2, take: play, card: plains}\n",
                    "  - {at: main1, take: pass}\n" * 4 + "  - {at: main1, take: play, card: plains}\n"))
    run = simulate(*scenario_of(path), strict=False)
    assert lands_played(run) == [(1, "p1", "forest"), (3, "p1", "plains")]
    assert "plains" in dict(dict(run.zones)["p1"])["battlefield"]


def test_the_policy_does_not_offer_a_second_land(tmp_path):
    path = variant(tmp_path, ("  seed: 1\n", "  seed: 1\n  policy: first\n"),
                   ("  - {at: main1, take: pass}\n  - {at: main2, take: play, card: plains}\n", ""))
    run = simulate(*scenario_of(path), strict=False)
    assert lands_played(run) == [(1, "p1", "forest")]


def test_the_play_kind_a_limit_names_is_checked(tmp_path):
    text = (MTG / "game.yaml").read_text(encoding="utf-8")
    old = "{played_this_turn: {player: self, kind: land, lt: 1}}"
    assert text.count(old) == 1
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(old, old.replace("kind: land", "kind: lnad")), encoding="utf-8")
    ds = [d for d in compile_file(path).diagnostics if d.severity == "error"]
    assert [d.code for d in ds] == ["C302"] and "lnad" in ds[0].message and "land" in (ds[0].help or "")

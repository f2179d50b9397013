"""Rules the game decides, not the scenario (issue 11, section 1; issue 16, item 4).

Each test runs a shipped scenario, or a copy of one with one line changed, and asserts what the
rules make of it: an error located at the scenario line that asks for something the rules refuse,
or the state the rules put a card in whatever the scenario says.
"""
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import SimulationError, simulate

ROOT = Path(__file__).resolve().parent.parent


def compiled(path: Path, game: str):
    res = compile_file(path, str(path), rules=str(ROOT / "rules" / game / "game.yaml"))
    assert res.scenario is not None, [(d.code, d.line, d.message) for d in res.diagnostics]
    return res


def variant(tmp_path, game: str, name: str, old: str, new: str) -> tuple[Path, int]:
    """A copy of a shipped scenario with one text replaced; the line (1-based) of the replacement."""
    text = (ROOT / "rules" / game / "scenarios" / name).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, text[: text.index(new)].count("\n") + 1


def refused(path: Path, game: str, strict: bool) -> SimulationError:
    res = compiled(path, game)
    with pytest.raises(SimulationError) as info:
        simulate(res.game, res.scenario, strict=strict)
    return info.value


def run(path: Path, game: str, strict: bool = True):
    res = compiled(path, game)
    return simulate(res.game, res.scenario, strict=strict)


def zones(r):
    return {pid: dict(z) for pid, z in r.zones}


# --- discards: the number the rules ask for, exactly --------------------------------------------
@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("named", ["[b-h1, b-h2, b-h3]", "[b-h1]", "[b-h1, a-h1]"])
def test_a_discard_naming_the_wrong_number_of_cards_is_a_located_error(tmp_path, strict, named):
    path, line = variant(tmp_path, "versus", "end-hand-limit-discard.yaml",
                         "{at: end.hand.1, cards: [b-h1, b-h2]}", "{at: end.hand.1, cards: " + named + "}")
    err = refused(path, "versus", strict)
    assert err.code == "R503" and err.loc is not None and err.loc.line == line


def test_a_discard_naming_the_right_cards_discards_exactly_those():
    r = run(ROOT / "rules" / "versus" / "scenarios" / "end-hand-limit-discard.yaml", "versus")
    assert zones(r)["p2"]["discard"] == ("b-h1", "b-h2")

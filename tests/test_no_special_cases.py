"""The presentation (charts, tables, site) and the command line draw every game from its rule file:
their code names no game of the shipped ones, none of their zones, phases, steps, procedures,
events or play kinds.

A string constant of the presentation code that equals such an id is a special case, unless the
word is one of the language itself (the core and front end use it too: a node kind such as
``end``, a zone role such as ``damage``, a list id such as ``card_types``). The site's own files
(templates, script, style) are searched for the game ids and the ids with an underscore, which
cannot be ordinary words. ``special_cases`` is tested on a planted module, so the test can fail.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import ROOT
from tcgtiming.frontend.pipeline import compile_file

PKG = ROOT / "generator" / "tcgtiming"
PRESENTING = ("present", "cli")
LANGUAGE = ("core", "frontend")
# words of Python or HTML that a game also uses as an id, with where the code uses them
ORDINARY = {"main": "the command line's entry point; the HTML element <main>"}


def shipped_ids() -> dict[str, set[str]]:
    """Every game-specific id of the shipped rule files -> where it comes from ('mtg zone')."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / "rules").glob("*/game.yaml")):
        game = compile_file(str(path)).game
        assert game is not None, path
        kinds = {"game": [game.id], "zone": game.zones, "event": game.events, "play": game.plays,
                 "container": [c for c in game.containers if c != "turn"]}
        for kind, names in kinds.items():
            for name in names:
                out.setdefault(name, set()).add(f"{game.id} {kind}")
    return out


def constants(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def language_words() -> set[str]:
    """The words the language's own code (core, front end) uses as string constants."""
    return {v for sub in LANGUAGE for p in (PKG / sub).rglob("*.py") for _, v in constants(p)} | set(ORDINARY)


def special_cases(files: list[Path], ids: dict[str, set[str]], language: set[str]) -> list[str]:
    out = []
    for path in files:
        if path.suffix == ".py":
            for line, value in constants(path):
                if value in ids and value not in language:
                    out.append(f"{path.name}:{line}: {value!r} ({', '.join(sorted(ids[value]))})")
        else:
            text = path.read_text(encoding="utf-8")
            for name in ids:
                if ("_" in name or any(s.endswith(" game") for s in ids[name])) and \
                        re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
                    out.append(f"{path.name}: {name!r} ({', '.join(sorted(ids[name]))})")
    return out


def presenting_files() -> list[Path]:
    return sorted(p for sub in PRESENTING for p in (PKG / sub).rglob("*")
                  if p.is_file() and p.suffix in (".py", ".html", ".js", ".css") and "guide" not in p.parts)


@pytest.fixture(scope="module")
def ids():
    return shipped_ids()


def test_the_shipped_games_have_ids_to_look_for(ids):
    games = {s.split()[0] for where in ids.values() for s in where}
    assert {"ws", "versus", "gundam", "aquarian", "mtg"} <= games
    assert any(name.endswith("step") or "_" in name for name in ids)
    assert len(presenting_files()) > 40


def test_the_presentation_names_no_game_zone_or_phase_of_a_shipped_game(ids):
    assert special_cases(presenting_files(), ids, language_words()) == []


def test_a_planted_special_case_is_caught(tmp_path, ids):
    zone = next(n for n, where in ids.items() if "mtg zone" in where and n not in language_words())
    mod = tmp_path / "chart.py"
    mod.write_text(f'def colour(game, zone):\n    if game.id == "mtg" or zone == "{zone}":\n        return "red"\n')
    page = tmp_path / "page.js"
    page.write_text('if (document.body.dataset.game === "gundam") { hide(); }\n')
    found = special_cases([mod, page], ids, language_words())
    assert len(found) == 3, found
    assert any("'mtg'" in f for f in found) and any(repr(zone) in f for f in found)
    assert any("'gundam'" in f and f.startswith("page.js") for f in found)

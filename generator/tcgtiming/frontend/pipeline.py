"""The front end: file -> loaded YAML -> schema -> semantic checks -> compiled model.

Like a compiler's front end (scan, parse, resolve), each layer runs only on what the previous one
accepted, but every layer reports all it finds. Nothing is returned as a model when any error was
found (warnings do not block).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from . import checks, flow, shape
from . import lowering as compiler
from . import scenario as scenario_mod
from ..core.diagnostics import Diagnostic
from .loader import Document, load
from ..core.model import Game

YAML_SUFFIXES = (".yaml", ".yml")


@dataclass
class Result:
    file: str
    doc: Document | None
    game: Game | None = None
    scenario: object | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]


def compile_document(doc: Document, rules: str | None = None) -> Result:
    res = Result(doc.file, doc, diagnostics=list(doc.diagnostics))
    if doc.data is None:  # the YAML could not be read at all
        return _done(res)
    if scenario_mod.is_scenario(doc.data):
        return compile_scenario(doc, rules, res)
    rf, diags = shape.validate(doc)
    res.diagnostics += diags
    placeholders: tuple = ()
    if rf is None:
        if any(d.code == "S200" for d in diags):
            return _done(res)
        rf, placeholders = shape.recover(doc)
        if rf is None:
            return _done(res)
    later = checks.check_file(rf, doc)
    game, diags = compiler.build(rf, doc)
    later += diags
    if placeholders:  # problems inside a replaced node are artefacts of the recovery
        later = [d for d in later if not any(_inside(doc, d, p) for p in placeholders)]
    res.diagnostics += later
    if game is not None and not res.errors:
        res.diagnostics += flow.check_graph(game)
    if not res.errors:
        res.game = game
    return _done(res)


def _inside(doc: Document, d: Diagnostic, path: tuple) -> bool:
    span = doc.span(path)
    return (d.line, d.col) >= (span.line, span.col) and (d.line < span.end_line or
                                                       (d.line == span.end_line and d.col < span.end_col))


def _done(res: Result) -> Result:
    seen = set()
    unique = []
    for d in sorted(res.diagnostics, key=Diagnostic.sort_key):
        k = (d.code, d.line, d.col, d.message)
        if k not in seen:
            seen.add(k)
            unique.append(d)
    res.diagnostics = unique
    return res


def compile_file(path: str | os.PathLike, display: str | None = None, rules: str | None = None) -> Result:
    return compile_document(load(path, display), rules)


_GAMES: dict[tuple, Result] = {}


def rules_for(game_id: str, scenario_file: str, rules: str | None) -> str | None:
    """Where the rule file of a scenario's game is: --rules (a file, or a folder holding
    <game>/game.yaml or game.yaml), else the game.yaml above the scenario's scenarios/ folder,
    else rules/<game>/game.yaml below the current folder."""
    cands = []
    if rules:
        cands += [rules, os.path.join(rules, game_id, "game.yaml"), os.path.join(rules, "game.yaml")]
    here = os.path.dirname(os.path.abspath(scenario_file))
    cands += [os.path.join(here, "..", "game.yaml"), os.path.join(here, "game.yaml"),
              os.path.join("rules", game_id, "game.yaml")]
    for c in cands:
        if os.path.isfile(c):
            return c
    return None


def compile_scenario(doc: Document, rules: str | None, res: Result) -> Result:
    sf, diags = scenario_mod.validate(doc)
    res.diagnostics += diags
    if sf is None:
        return _done(res)
    path = rules_for(sf.scenario.game, doc.file, rules)
    if path is None:
        res.diagnostics.append(doc.diag("R506", f"no rule file for game '{sf.scenario.game}'", ("scenario", "game"),
                                        help="pass --rules DIR, or keep the scenario in rules/<game>/scenarios/"))
        return _done(res)
    key = (os.path.abspath(path), os.path.getmtime(path))
    game_res = _GAMES.get(key)
    if game_res is None:
        game_res = _GAMES[key] = compile_file(path, os.path.relpath(path))
    if game_res.game is None:
        res.diagnostics.append(doc.diag("R506", f"the rule file {os.path.relpath(path)} of game '{sf.scenario.game}' is invalid "
                                        f"({len(game_res.errors)} errors): validate it first", ("scenario", "game")))
        return _done(res)
    res.diagnostics += scenario_mod.ScenarioChecks(sf, game_res.game, doc).run()
    if not res.errors:
        res.game = game_res.game
        res.scenario = scenario_mod.build(sf, doc)
    return _done(res)


def find_rule_files(path: str) -> list[str]:
    """A file as given, or every YAML file below a directory (sorted)."""
    if os.path.isdir(path):
        found = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found += [os.path.join(root, f) for f in sorted(files) if f.endswith(YAML_SUFFIXES)]
        return found
    return [path]

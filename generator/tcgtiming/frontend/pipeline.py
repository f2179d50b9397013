"""The front end: file -> loaded YAML -> schema -> semantic checks -> compiled model.

Like a compiler's front end (scan, parse, resolve), each layer runs only on what the previous one
accepted, but every layer reports all it finds. Nothing is returned as a model when any error was
found (warnings do not block).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from . import checks, flow, shape
from . import lowering as compiler
from . import ruling as ruling_mod
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
    ruling: object | None = None
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
        return finish(res)
    if ruling_mod.is_ruling(doc.data):
        return ruling_mod.compile_ruling(doc, rules, res)
    if scenario_mod.is_scenario(doc.data):
        return compile_scenario(doc, rules, res)
    rf, diags = shape.validate(doc)
    res.diagnostics += diags
    placeholders: tuple = ()
    if rf is None:
        if any(d.code == "S200" for d in diags):
            return finish(res)
        rf, placeholders = shape.recover(doc)
        if rf is None:
            return finish(res)
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
    return finish(res)


def _inside(doc: Document, d: Diagnostic, path: tuple) -> bool:
    span = doc.span(path)
    return (d.line, d.col) >= (span.line, span.col) and (d.line < span.end_line or
                                                       (d.line == span.end_line and d.col < span.end_col))


def finish(res: Result) -> Result:
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
        return finish(res)
    path = rules_for(sf.scenario.game, doc.file, rules)
    if path is None:
        res.diagnostics.append(doc.diag("R506", f"no rule file for game '{sf.scenario.game}'", ("scenario", "game"),
                                        help="pass --rules DIR, or keep the scenario in rules/<game>/scenarios/"))
        return finish(res)
    key = (os.path.abspath(path), os.path.getmtime(path))
    game_res = _GAMES.get(key)
    if game_res is None:
        game_res = _GAMES[key] = compile_file(path, os.path.relpath(path))
    if game_res.game is None:
        res.diagnostics.append(doc.diag("R506", f"the rule file {os.path.relpath(path)} of game '{sf.scenario.game}' is invalid "
                                        f"({len(game_res.errors)} errors): validate it first", ("scenario", "game")))
        return finish(res)
    res.diagnostics += scenario_mod.ScenarioChecks(sf, game_res.game, doc).run()
    if not res.errors:
        res.game = game_res.game
        res.scenario = scenario_mod.build(sf, doc, game_res.game)
    return finish(res)


def find_rule_files(path: str) -> list[str]:
    """A file as given, or every YAML file below a directory (sorted)."""
    if os.path.isdir(path):
        found = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found += [os.path.join(root, f) for f in sorted(files) if f.endswith(YAML_SUFFIXES)]
        return found
    return [path]


# --- what several input files must not share -------------------------------------------------------

_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
# names a page of the site already has, or that some systems reserve for devices
_RESERVED_NAMES = {"index", "con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def _stem(path: str) -> str:
    name = os.path.basename(path)
    for suffix in YAML_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def unsafe_output_name(path: str) -> Diagnostic | None:
    """A located error when a scenario file's name cannot name its outputs (``<name>.txt``, its site
    page, its links): ``index`` (the scenario list page), a space, ``#``, ``%``, a character other
    than ASCII letters, digits, '-', '_', '.'; None when the name is safe."""
    stem = _stem(path)
    if stem.lower() in _RESERVED_NAMES:
        why = f"'{stem}' is the name of a page the site makes" if stem.lower() == "index" else f"'{stem}' names a device on some systems"
    elif not _SAFE_NAME.fullmatch(stem):
        bad = sorted({c for c in stem if not (c.isascii() and (c.isalnum() or c in "_.-"))})
        shown = ", ".join("a space" if c == " " else repr(c) for c in bad)
        why = (f"it holds {shown}" if bad else "it starts with '.' or '-'" if stem else "it is empty") \
            if len(stem) <= 100 else "it is longer than 100 characters"
    else:
        return None
    return Diagnostic("C320", f"the scenario file name '{os.path.basename(path)}' cannot name its outputs: {why}",
                      path, 0, 0, help="rename the file: ASCII letters, digits, '-', '_' and '.', such as 'first-turn.yaml'")


def add_collisions(results: list[Result]) -> None:
    """Add located errors to the results of files read together: a rule file with the game id of an
    earlier one (C319); a scenario file with an unsafe name, or with the same outputs as an earlier
    scenario of its game (C320: 'a.yaml' and 'a.yml', 'A.yaml' and 'a.yaml'). Idempotent: the
    results of a command that reads its files one by one can be given again as they grow."""
    games: dict[str, Result] = {}
    outputs: dict[tuple[str, str], Result] = {}
    for r in results:
        data = r.doc.data if r.doc is not None else None
        if not isinstance(data, dict):
            continue
        if scenario_mod.is_scenario(data):
            found = unsafe_output_name(r.file)
            game = data["scenario"].get("game") if isinstance(data["scenario"], dict) else None
            key = (game, _stem(r.file).lower())
            if found is None and isinstance(game, str) and key in outputs:
                found = Diagnostic("C320", f"the scenario file name '{os.path.basename(r.file)}' names the same outputs as "
                                   f"{outputs[key].file} (game '{game}')", r.file, 0, 0,
                                   help="rename one of them")
            outputs.setdefault(key, r)
        else:
            gid = data.get("game", {}).get("id") if isinstance(data.get("game"), dict) else None
            if not isinstance(gid, str):
                continue
            first = games.setdefault(gid, r)
            same = os.path.realpath(first.file) == os.path.realpath(r.file)  # one file named twice
            found = None if same else r.doc.diag(
                "C319", f"game id '{gid}' is also the id of the game in {first.file}: their outputs would overwrite "
                "each other", ("game", "id"), help="give each game its own id")
        if found is not None and found not in r.diagnostics:
            r.diagnostics.append(found)
            r.diagnostics.sort(key=Diagnostic.sort_key)
            r.game = r.scenario = None

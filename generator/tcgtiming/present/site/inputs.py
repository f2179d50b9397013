"""What the site is made from: the compiled rule files and the runs of the shipped scenarios.

``collect`` compiles each rule file once and runs each scenario once (strictly, its expectations
checked). It prints nothing: when anything is invalid it raises ``InputError`` carrying what the
front end found and the runs that failed, and the command line reports them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ...core.diagnostics import Diagnostic
from ...core.model import Game

SKIP_DIRS = {"scenarios", "rulings"}  # below a game's folder: not rule files


@dataclass
class ScenarioRun:
    path: str  # the scenario file
    stem: str  # its file name without .yaml: the page name
    scenario: object  # core.scenario.Scenario
    run: object  # runtime.engine.Run
    text: str  # the file's text
    shown: str  # the file as its page names it: relative to the folder holding the rules folder

    @property
    def names(self) -> dict[str, str]:
        """Player id -> the player's name."""
        return {pid: name for pid, name, _ in self.scenario.players}


@dataclass
class RulingRun:
    """A ruling checked during the build (only passing ones are kept: a failing one stops it)."""
    path: str
    stem: str
    ruling: object  # core.ruling.Ruling
    run: object  # runtime.engine.Run (None when the ruling expects a refusal)
    text: str
    shown: str
    facts: int  # the facts it checks (all hold)

    @property
    def scenario(self):
        return self.ruling.scenario

    @property
    def names(self) -> dict[str, str]:
        return {pid: name for pid, name, _ in self.ruling.scenario.players}

    @property
    def scenario_stem(self) -> str:
        return Path(self.ruling.uses).stem if self.ruling.uses else ""


@dataclass
class Inputs:
    games: list[Game]  # by id
    runs: dict[str, list[ScenarioRun]]  # game id -> its scenarios' runs, by file name
    rulings: dict[str, list[RulingRun]] = field(default_factory=dict)  # game id -> its rulings, by file name


@dataclass(eq=False)
class InputError(Exception):
    """Invalid rules or scenarios, in the order they were found: the front end's results with the files
    they cover (reported like 'validate' reports them), then the runs that failed (located diagnostics,
    each with its source line) out of ``scenarios`` scenario files."""

    invalid: list[tuple[list, list[str]]] = field(default_factory=list)
    failed: list[tuple[Diagnostic, str | None]] = field(default_factory=list)
    scenarios: int = 0

    def __str__(self) -> str:
        return "invalid rules or scenarios"


def rule_files(rules_dir: str) -> list[str]:
    from ...frontend.pipeline import find_rule_files

    files = find_rule_files(rules_dir)
    if os.path.isdir(rules_dir):
        files = [f for f in files if not set(Path(os.path.relpath(f, rules_dir)).parts[:-1]) & SKIP_DIRS]
    return files


def scenario_files(rules_dir: str) -> list[str]:
    if not os.path.isdir(rules_dir):
        return []
    return sorted(str(p) for p in Path(rules_dir).glob("*/scenarios/*.yaml"))


def in_folders(path: str, rules_dir: str, folders: set[str] | None) -> bool:
    """The file is in one of the game folders (the first folder below the rules folder); None: all."""
    return folders is None or Path(os.path.relpath(path, rules_dir)).parts[0] in folders


def collect(rules_dir: str, folders: set[str] | None = None) -> Inputs:
    """Compile every rule file and run every shipped scenario (strict, expectations checked); raise
    InputError when anything is invalid. folders: only the games (rule files, scenarios and rulings)
    in these folders of the rules folder (a rebuild after a change in them)."""
    from ...frontend.pipeline import add_collisions, compile_file
    from ...runtime.engine import SimulationError, simulate
    from ...runtime.expect import check, diagnostics, expects_refusal, refusal

    files = [f for f in rule_files(rules_dir) if in_folders(f, rules_dir, folders)]
    results = [compile_file(f) for f in files]
    add_collisions(results)  # a game id given twice would lose a game's pages: an error, located
    if any(r.errors for r in results):
        raise InputError(invalid=[([r for r in results if r.diagnostics], files)])
    games: dict[str, Game] = {}
    for r in results:
        games.setdefault(r.game.id, r.game)
    # the games a scenario may be run with as compiled here: those whose file name is the one the
    # front end would give them (a relative path), so that every location reads the same
    compiled = {os.path.abspath(r.file): r.game for r in results if r.file == os.path.relpath(r.file)}
    scenarios = [f for f in scenario_files(rules_dir) if in_folders(f, rules_dir, folders)]
    runs: dict[str, list[ScenarioRun]] = {}
    error = InputError(scenarios=len(scenarios))
    shown_from = Path(rules_dir).resolve().parent
    checked: list = []
    for path in scenarios:
        res = compile_scenario(path, rules_dir, compiled)
        checked.append(res)
        add_collisions(checked)  # an unsafe name, or two files naming the same pages: located errors
        if res.errors or res.scenario is None:
            error.invalid.append(([res], [path]))
            continue
        sc = res.scenario
        try:
            run = simulate(res.game, sc, strict=True)
        except SimulationError as exc:
            if expects_refusal(sc):  # a refusal the scenario expects: checked, nothing to show
                error.failed += [(d, _line_of(f.loc)) for d, f in zip(diagnostics(refusal(sc, exc), res.game, sc),
                                                                      refusal(sc, exc))]
                continue
            loc = exc.loc
            d = Diagnostic(exc.code, exc.message, loc.file if loc else sc.file, loc.line if loc else 0,
                           loc.col if loc else 0, help=exc.help)
            error.failed.append((d, _line_of(loc)))
            continue
        failed = check(run, sc)
        error.failed += [(d, _line_of(f.loc)) for d, f in zip(diagnostics(failed, res.game, sc), failed)]
        if sc.game not in games:
            error.failed.append((Diagnostic("R506", f"the game '{sc.game}' of the scenario is not among the rules "
                                            f"in {rules_dir}", sc.file, 0, 0), None))
            continue
        text = Path(path).read_text(encoding="utf-8")
        shown = Path(os.path.relpath(Path(path).resolve(), shown_from)).as_posix()
        runs.setdefault(sc.game, []).append(ScenarioRun(path, Path(path).stem, sc, run, text, shown))
    made = {os.path.abspath(sr.path): sr.run for game_runs in runs.values() for sr in game_runs}
    rulings = collect_rulings(rules_dir, games, shown_from, error, made, folders)
    if error.invalid or error.failed:
        raise error
    return Inputs(sorted(games.values(), key=lambda g: g.id), runs, rulings)


def ruling_files(rules_dir: str) -> list[str]:
    if not os.path.isdir(rules_dir):
        return []
    return sorted(str(p) for p in Path(rules_dir).glob("*/rulings/*.yaml"))


def collect_rulings(rules_dir: str, games: dict, shown_from: Path, error, made: dict | None = None,
                    folders: set[str] | None = None) -> dict[str, list[RulingRun]]:
    """Check every ruling (``tcgtiming check``): the passing ones, by game; a failing or invalid one
    goes into ``error`` (the build stops). ``made``: the shipped scenarios' runs (absolute path ->
    run), which a ruling that ``uses`` one checks instead of running it again."""
    from ...frontend.pipeline import compile_file
    from ...runtime.expect import diagnostics
    from ...runtime.rulings import check_ruling

    out: dict[str, list[RulingRun]] = {}
    files = [f for f in ruling_files(rules_dir) if in_folders(f, rules_dir, folders)]
    error.scenarios += len(files)
    for path in files:
        res = compile_file(path, rules=rules_dir)
        if res.errors or res.ruling is None:
            error.invalid.append(([res], [path]))
            continue
        r = res.ruling
        if r.game not in games:
            error.failed.append((Diagnostic("R506", f"the game '{r.game}' of the ruling is not among the rules in "
                                            f"{rules_dir}", path, 0, 0), None))
            continue
        used = os.path.abspath(os.path.join(os.path.dirname(path), r.uses)) if r.uses else None
        v = check_ruling(r, res.game, (made or {}).get(used))
        if not v.passed:
            error.failed += [(d, _line_of(f.loc)) for d, f in zip(diagnostics(v.failures, res.game, r.scenario), v.failures)]
            continue
        text = Path(path).read_text(encoding="utf-8")
        shown = Path(os.path.relpath(Path(path).resolve(), shown_from)).as_posix()
        out.setdefault(r.game, []).append(RulingRun(path, Path(path).stem, r, v.run, text, shown, _count(r.expect)))
    return out


def _count(ex) -> int:
    """The facts a ruling's expect states."""
    n = sum(1 for x in (ex.visits, ex.never, ex.zones, ex.result, ex.loser) if x)
    f = ex.facts
    if f is not None:
        n += len(f.order) + len(f.at) + len(f.events) + (1 if f.refused is not None else 0)
    return n


def compile_scenario(path: str, rules_dir: str, compiled: dict[str, Game]):
    """``compile_file(path, rules=rules_dir)``, without compiling the game's rule file again when it
    is among ``compiled`` (absolute path -> game). Whenever the front end has anything to say about
    the scenario, it is compiled the front end's own way, so that every diagnostic reads the same."""
    from ...frontend import scenario as scenario_file
    from ...frontend.loader import load
    from ...frontend.pipeline import Result, compile_file, rules_for

    doc = load(path)
    if doc.data is not None and not doc.diagnostics and scenario_file.is_scenario(doc.data):
        sf, diags = scenario_file.validate(doc)
        if sf is not None and not diags:
            rules = rules_for(sf.scenario.game, doc.file, rules_dir)
            game = compiled.get(os.path.abspath(rules)) if rules is not None else None
            if game is not None and not scenario_file.ScenarioChecks(sf, game, doc).run():
                return Result(doc.file, doc, game, scenario_file.build(sf, doc, game))
    return compile_file(path, rules=rules_dir)


def _line_of(loc) -> str | None:
    if loc is None:
        return None
    try:
        lines = Path(loc.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    return lines[loc.line - 1] if 0 < loc.line <= len(lines) else None

"""Properties under fuzzing (issue 14): a command line near a valid one, and a mutated scenario of any
shipped game, run through the command line, end with exit code 0, 1 or 2, never a traceback, and
every diagnostic they print says where it is. ``make fuzz`` runs the same mutations longer (seeded)
and counts (tests/fuzz/run.py)."""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz"))

from mutate import ROOT, SCENARIOS, Drawn, located_output, mutate_argv, mutate_text, workspace  # noqa: E402

from tcgtiming.cli.main import main  # noqa: E402

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture
def run_cli(tmp_path, monkeypatch, capsys):
    """Run a command line in a fresh copy of the workspace: (exit code, stdout + stderr)."""
    monkeypatch.setenv("TCGTIMING_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HOME", str(tmp_path))

    def run(argv, prepare=None):
        base = Path(tempfile.mkdtemp(dir=tmp_path))
        ws = workspace(base / "a" / "b" / "ws")  # '../../x' stays inside base
        if prepare:
            prepare(ws)
        monkeypatch.chdir(ws)
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: usage errors, --help, --version
            code = exc.code
        out = capsys.readouterr()
        shutil.rmtree(base, ignore_errors=True)
        return code, out.out + out.err

    return run


@FUZZ
@given(st.composite(lambda draw: mutate_argv(Drawn(draw)))())
def test_mutated_command_lines_end_in_0_1_or_2_and_locate_what_they_report(run_cli, argv):
    code, out = run_cli(argv)  # an exception here is the traceback a user would see
    assert code in (0, 1, 2), (argv, out)
    assert "Traceback" not in out
    assert located_output(out) == [], (argv, out)


@st.composite
def scenario_mutant(draw):
    c = Drawn(draw)
    path = c.choice(SCENARIOS)
    return path, mutate_text(c, path.read_text(encoding="utf-8"))


@FUZZ
@given(scenario_mutant(), st.sampled_from(["text", "json", "markdown"]), st.booleans())
def test_mutated_scenarios_of_every_game_validate_and_simulate_through_the_cli(run_cli, mutant, fmt, strict):
    path, text = mutant
    game = path.parent.parent.name
    rel = f"rules/{game}/scenarios/{path.name}"

    def prepare(ws: Path) -> None:
        (ws / "rules" / game / "scenarios").mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "rules" / game / "game.yaml", ws / "rules" / game / "game.yaml")
        (ws / rel).write_bytes(text.encode("utf-8", "surrogatepass"))

    for argv in (["validate", rel], ["simulate", rel, "--format", fmt] + (["--strict"] if strict else [])):
        code, out = run_cli(argv, prepare)
        assert code in (0, 1, 2), (argv, out)
        assert "Traceback" not in out and located_output(out) == [], (argv, out)

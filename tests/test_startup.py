"""Start-up: each command imports only what it needs (the time is in benchmarks/startup.py)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT

HEAVY = ("argparse", "pydantic", "yaml", "tcgtiming.frontend.pipeline", "tcgtiming.runtime.engine",
         "tcgtiming.present.charts", "tcgtiming.present.site", "jinja2")


def _loaded(*args: str) -> set[str]:
    code = ("import json, sys\n"
            "from tcgtiming.cli import main\n"
            f"code = main({list(args)!r})\n"
            f"sys.stderr.write(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT / "generator"), "PATH": "/usr/bin:/bin"})
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def test_version_loads_no_parser_and_no_library():
    assert _loaded("--version") == set()


@pytest.mark.parametrize("args, allowed", [
    (("codes",), {"argparse"}),
    (("validate", "tests/fixtures/mini/game.yaml"), {"argparse", "pydantic", "yaml", "tcgtiming.frontend.pipeline"}),
    (("schema",), {"argparse", "pydantic", "yaml", "tcgtiming.frontend.pipeline"}),
])
def test_a_command_loads_only_what_it_needs(args, allowed):
    loaded = _loaded(*args)
    assert "argparse" in loaded  # the probe works: a parsed command has loaded the parser
    assert loaded <= allowed, sorted(loaded - allowed)

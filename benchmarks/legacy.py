"""The interpreter as it was before the compiled, event-sourced engine: the baseline that
``benchmarks/engines.py`` and ``benchmarks/anchor_turn.py`` run beside the engine, to compare
their traces entry by entry and their speed side by side in one run.

It is not copied into the repository: it is read from the project's own history (commit
``aed5723``, ``generator/tcgtiming/runtime/engine/``) into a temporary package, its imports of
the package's core made absolute so that it runs on today's compiled models and scenarios.

    from legacy import simulate   # the old interpreter's simulate(game, scenario, strict=...)
"""
from __future__ import annotations

import atexit
import importlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

COMMIT = "aed5723d1393b9eb08dbff9f88f3ca9eb38b5b38"
SOURCE = "generator/tcgtiming/runtime/engine"
ROOT = Path(__file__).resolve().parent.parent


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout


def load():
    """The old engine package, written from the history into a temporary folder and imported."""
    folder = Path(tempfile.mkdtemp(prefix="tcgtiming-legacy-"))
    atexit.register(shutil.rmtree, folder, True)
    package = folder / "tcgtiming_legacy" / "engine"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("", encoding="utf-8")
    for name in _git("ls-tree", "--name-only", f"{COMMIT}:{SOURCE}").split():
        if name.endswith(".py"):
            text = _git("show", f"{COMMIT}:{SOURCE}/{name}")
            (package / name).write_text(re.sub(r"from \.\.\.core\b", "from tcgtiming.core", text), encoding="utf-8")
    sys.path.insert(0, str(folder))
    return importlib.import_module("tcgtiming_legacy.engine")


simulate = load().simulate

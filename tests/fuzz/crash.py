"""Run the command line and kill it (SIGKILL, as kill -9 does) just before its K-th file-system
operation: a crash at an exact, repeatable point. K = 0 runs to the end and writes how many
operations there were to the file named by $TCGTIMING_CRASH_COUNT.

    python tests/fuzz/crash.py K render rules/ws/game.yaml --out build/charts

The operations counted: every rename, replace, link, symlink, unlink, rmdir, mkdir, os.write, the
swap of an output set (present.outputs.exchange) and every open of a file for writing.
"""
from __future__ import annotations

import io
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "generator"))

from tcgtiming.cli.main import main  # noqa: E402

try:
    from tcgtiming.present import outputs  # noqa: E402
except ImportError:  # a version without output sets (to show what the crash tests catch)
    outputs = None

_COUNT = [0]
_AT = int(sys.argv[1])


def _step() -> None:
    _COUNT[0] += 1
    if _COUNT[0] == _AT:
        os.kill(os.getpid(), signal.SIGKILL)


def _wrap(owner, name: str, writes_only: bool = False) -> None:
    real = getattr(owner, name)

    def op(*args, **kwargs):
        mode = args[1] if len(args) > 1 else kwargs.get("mode", "r")
        if not writes_only or any(c in str(mode) for c in "wax+"):
            _step()
        return real(*args, **kwargs)

    setattr(owner, name, op)


for _name in ("rename", "replace", "link", "symlink", "unlink", "remove", "rmdir", "mkdir", "write"):
    _wrap(os, _name)
if outputs is not None:
    _wrap(outputs, "exchange")
_wrap(io, "open", writes_only=True)

if __name__ == "__main__":
    try:
        code = main(sys.argv[2:])
    finally:
        if os.environ.get("TCGTIMING_CRASH_COUNT"):
            Path(os.environ["TCGTIMING_CRASH_COUNT"]).write_text(str(_COUNT[0]))
    sys.exit(code)

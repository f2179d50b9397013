"""The command line: ``tcgtiming validate | compile | render | site | simulate | schema | codes | reference``.

Exit codes: 0 success (valid input), 1 invalid input (diagnostics printed), 2 usage error.
Only this package prints; each command lives in its own module, imported when it runs.
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--version"]:  # the quickest answer: no argument parser, no command module
        from .. import __version__

        sys.stdout.write(f"tcgtiming {__version__}\n")
        return 0
    import importlib

    from .parser import parser

    p = parser()
    args = p.parse_args(argv)
    if not getattr(args, "command_module", None):
        p.print_help(sys.stderr)
        return 2
    try:
        command = importlib.import_module(f".{args.command_module}", __package__)
        code = command.run(args)
        sys.stdout.flush()  # here, not at the interpreter's exit: a reader gone by now is caught below
        return code
    except BrokenPipeError:  # e.g. piped into head: end quietly
        return _quiet_broken_pipe()
    except OSError as exc:  # an output that cannot be written: a usage error, never a traceback
        from .common import os_error_text

        where = exc.filename or "output"
        sys.stderr.write(f"tcgtiming {args.command}: error: cannot write {where}: {os_error_text(exc)}\n")
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        return 130


def _quiet_broken_pipe() -> int:
    """The reader went away: send the rest of our output nowhere, so the interpreter's final flush
    does not complain, and exit as a pipeline's early-closed writer conventionally does."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

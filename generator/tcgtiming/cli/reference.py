"""tcgtiming reference: print or refresh the generated reference tables."""
from __future__ import annotations

import sys
from pathlib import Path

from ..present.reference import BLOCKS, refresh
from .common import report_current, write_atomic


def run(args) -> int:
    if not args.file:
        for name, make in BLOCKS.items():
            sys.stdout.write(f"## {name}\n\n{make(Path.cwd())}\n\n")
        return 0
    try:
        with open(args.file, encoding="utf-8") as fh:
            current = fh.read()
    except OSError as exc:
        sys.stderr.write(f"cannot read {args.file}: {exc.strerror}\n")
        return 2
    fresh = refresh(current, Path(args.file).resolve().parent)
    if args.check:
        return report_current(fresh == current, f"{args.file}: generated reference tables are current",
                               f"{args.file}: generated reference tables are stale: run "
                               f"'tcgtiming reference --update {args.file}'")
    if fresh != current:
        write_atomic(args.file, fresh)
        sys.stderr.write(f"updated {args.file}\n")
    return 0

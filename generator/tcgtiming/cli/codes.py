"""tcgtiming codes: every diagnostic code."""
from __future__ import annotations

import json
import sys

from ..core.diagnostics import CODES


def run(args) -> int:
    if args.format == "json":
        sys.stdout.write(json.dumps([{"code": c.code, "name": c.name, "severity": c.severity, "summary": c.summary}
                                     for c in CODES.values()], indent=2) + "\n")
    else:
        for c in CODES.values():
            sys.stdout.write(f"{c.code}  {c.severity:<7}  {c.name:<18}  {c.summary}\n")
    return 0

"""tcgtiming coverage: which nodes and edges of each game the shipped scenarios visit, and why each
node none visits cannot be visited (``present.coverage``)."""
from __future__ import annotations

import json
import os
import sys

from ..core.diagnostics import Diagnostic
from ..core.text import visible
from ..present import coverage
from .common import print_usage_problems


def visits(inputs) -> list[coverage.Visit]:
    """Every input whose path counts: the shipped scenarios' runs (more kinds of input join this list)."""
    return coverage.all_visits(inputs)


def run(args) -> int:
    from ..present.site import InputError, collect, rule_files
    from .site import report_invalid

    if not os.path.isdir(args.rules) or not rule_files(args.rules):
        print_usage_problems([Diagnostic("U401", f"no rule file under {args.rules}", args.rules, 0, 0)])
        return 2
    try:
        inputs = collect(args.rules)
    except InputError as exc:
        report_invalid(exc)
        return 1
    games = inputs.games
    if args.game:
        known = {g.id for g in games}
        unknown = [x for x in args.game if x not in known]
        if unknown:
            from ..core.diagnostics import did_you_mean

            hint = did_you_mean(unknown[0], known)
            sys.stderr.write(f"tcgtiming coverage: error: no game '{unknown[0]}' under {args.rules}"
                             + (f": {hint}" if hint else "") + "\n")
            return 2
        games = [g for g in games if g.id in args.game]
    vs = visits(inputs)
    covs = [coverage.coverage(g, vs) for g in games]
    if args.format == "json":
        sys.stdout.write(json.dumps(coverage.as_data(covs), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(visible(coverage.as_text(covs, args.lang)))
    return 0

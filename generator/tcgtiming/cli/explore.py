"""tcgtiming explore: does the order matter? Every combination of a scenario's open decisions."""
from __future__ import annotations

import os
import sys
from difflib import get_close_matches

from ..core.diagnostics import Diagnostic
from ..frontend.pipeline import compile_file
from ..present.explore import as_json, as_text
from ..present.report import format_text
from ..runtime.explore import explore
from .common import print_diags


def run(args) -> int:
    def fail(code: str, message: str, path: str) -> int:
        sys.stderr.write(format_text(Diagnostic(code, message, path, 0, 0), None) + "\n")
        return 2

    if not os.path.isfile(args.scenario):
        return fail("U401", f"no such file: {args.scenario}", args.scenario)
    if args.rules and not os.path.exists(args.rules):
        return fail("U401", f"no such file or directory: {args.rules}", args.rules)
    if args.limit < 1:
        sys.stderr.write("tcgtiming explore: --limit must be at least 1\n")
        return 2
    res = compile_file(args.scenario, rules=args.rules)
    if res.errors or res.scenario is None:
        print_diags([res], "text", [args.scenario])
        return 1
    game, sc = res.game, res.scenario
    for node in ([args.at] if args.at is not None else []) + args.open:
        if node not in game.nodes:
            near = get_close_matches(node, list(game.nodes), n=1)
            sys.stderr.write(format_text(Diagnostic("U402", f"no node '{node}' in {game.id}", args.scenario, 0, 0,
                                                    help=f"did you mean '{near[0]}'?" if near else None), None) + "\n")
            return 2
    ex = explore(game, sc, at=args.at, limit=args.limit, open_at=tuple(args.open))
    sys.stdout.write(as_json(ex, sc, args.at) if args.format == "json" else as_text(ex, game, sc, args.lang, args.at))
    return 0 if ex.complete else 3

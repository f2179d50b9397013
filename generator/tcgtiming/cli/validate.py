"""tcgtiming validate: check rule files and report every problem."""
from __future__ import annotations

from ..frontend.pipeline import add_collisions, compile_file
from .common import inputs, print_diags, print_usage_problems


def run(args) -> int:
    files, problems = inputs(args.paths)
    if problems:
        print_usage_problems(problems)
        return 2
    results = [compile_file(f) for f in files]
    add_collisions(results)
    print_diags(results, args.format, files)
    bad = any(r.errors for r in results) or (args.strict and any(r.warnings for r in results))
    return 1 if bad else 0

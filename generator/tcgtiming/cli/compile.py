"""tcgtiming compile: the compiled model as JSON."""
from __future__ import annotations

import json

from ..core.model import as_data
from ..frontend.pipeline import add_collisions, compile_file
from .common import emit, inputs, print_diags, print_usage_problems


def run(args) -> int:
    files, problems = inputs([args.rules])
    if problems:
        print_usage_problems(problems)
        return 2
    results = [compile_file(f) for f in files]
    add_collisions(results)
    if any(r.errors for r in results):
        print_diags(results, "text", files)
        return 1
    games = {r.game.id: as_data(r.game) for r in results}
    text = json.dumps(games if len(games) != 1 else next(iter(games.values())), ensure_ascii=False, indent=2,
                      sort_keys=False) + "\n"
    emit(text, args.out)
    return 0

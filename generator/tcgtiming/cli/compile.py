"""tcgtiming compile: the compiled model as JSON."""
from __future__ import annotations

import json

from ..core.model import as_data
from .common import compiled, emit


def run(args) -> int:
    results, status = compiled([args.rules])
    if status:
        return status
    games = {r.game.id: as_data(r.game) for r in results}
    text = json.dumps(games if len(games) != 1 else next(iter(games.values())), ensure_ascii=False, indent=2,
                      sort_keys=False) + "\n"
    emit(text, args.out)
    return 0

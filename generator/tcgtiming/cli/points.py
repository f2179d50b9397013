"""tcgtiming points: every decision point of a game (node id, who decides, the options, how a
scenario answers it), as text or JSON, so that a scenario writer need not read the rule file."""
from __future__ import annotations

import json
import os

from ..present.points import as_data, as_text
from .common import compiled, emit


def run(args) -> int:
    target = args.game
    if not os.path.exists(target) and os.path.isfile(os.path.join("rules", target, "game.yaml")):
        target = os.path.join("rules", target, "game.yaml")  # a game id: its rule file under ./rules
    results, status = compiled([target])
    if status:
        return status
    games = [r.game for r in results if r.game is not None]
    if args.format == "json":
        data = [p for g in games for p in as_data(g)]
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    else:
        text = "\n".join(as_text(g, args.lang) for g in games)
    emit(text, args.out)
    return 0

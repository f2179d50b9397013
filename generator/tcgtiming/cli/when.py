"""tcgtiming when: may I play now? Every timing of a game's turn where a kind of play is allowed, and
every closed timing, in time order, read from the compiled model (``present.when``)."""
from __future__ import annotations

import json
import os
import sys

from ..core.diagnostics import Diagnostic
from ..core.text import visible
from ..frontend.pipeline import compile_file
from ..present import when
from .common import print_diags, print_usage_problems


def game_file(game: str, rules: str) -> str | None:
    """GAME as a rule file, or as a game id: <rules>/<game>/game.yaml."""
    for cand in (game, os.path.join(rules, game, "game.yaml")):
        if os.path.isfile(cand):
            return cand
    return None


def compile_game(name: str, args):
    """The compiled game GAME names, or an exit code (its diagnostics printed)."""
    path = game_file(name, args.rules)
    if path is None:
        games = sorted(d for d in os.listdir(args.rules) if os.path.isfile(os.path.join(args.rules, d, "game.yaml"))) \
            if os.path.isdir(args.rules) else []
        from ..core.diagnostics import did_you_mean, one_of

        hint = did_you_mean(name, games) or (one_of(games) if games else None)
        print_usage_problems([Diagnostic("U401", f"no game '{name}' (a rule file, or a game id under {args.rules})",
                                         name, 0, 0, help=hint)])
        return 2
    res = compile_file(path)
    if res.errors:
        print_diags([res], "text", [path])
        return 1
    return res.game


def run(args) -> int:
    game = compile_game(args.game, args)
    if isinstance(game, int):
        return game
    f = when.Filter(tuple(args.play or ()), args.player, args.phase)
    try:
        rows = when.rows(game, f)
    except when.WhenError as exc:
        sys.stderr.write(f"tcgtiming when: error: {exc}\n")
        return 2
    if args.format == "json":
        sys.stdout.write(json.dumps(when.as_data(game, rows, f, args.lang), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(visible(when.as_text(game, rows, f, args.lang)))
    return 0

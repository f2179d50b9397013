"""The visual language of the charts: colours, node and edge styles, the order of the legend, and the
charts' words.

The colours follow the Weiß Schwarz source: player actions green (#009f00), check timings red
(#ff0000), and everything the rules do by themselves blue (#0000ff): automatic actions, trigger
points, decisions by the rules and their cases, loops, go-tos and exits, as the source colours its
"back to …" and "go to the … step" items. Shapes tell these apart (a box acts, a diamond decides, a
hexagon repeats, an arrow goes elsewhere), and the edges going back stay purple and bold, so that
loops show at a glance.
"""
from __future__ import annotations

from ...core.model import Game, Node
from ...core.words import word


GREEN, BLUE, RED = "#009f00", "#0000ff", "#ff0000"  # the colours of the Weiß Schwarz source
PURPLE = "#7030a0"  # the edges going back (loops)
PALE_BLUE, LIGHT_BLUE = "#f1f1ff", "#e4e4ff"  # fills of the automatic family
ORANGE = "#b36200"  # priority windows
GREY = "#7f7f7f"
HIGHLIGHT = "#d4007f"  # trace overlay
FADE = "55"  # alpha of what a trace did not visit


def ui(key: str, lang: str, *args) -> str:
    """A word of the charts, from the catalogue."""
    return word(f"chart.{key}", lang, *args)


# --- the visual language --------------------------------------------------------------------------

# style key -> DOT attributes (colour keys: color = border, fontcolor = text, fillcolor)
NODE_STYLE: dict[str, dict[str, str]] = {
    "begin": {"shape": "box", "style": "rounded,filled", "color": "#404040", "fillcolor": "#404040",
              "fontcolor": "#ffffff"},
    "player": {"shape": "box", "style": "rounded,filled,bold", "color": GREEN, "fillcolor": "#effaef",
               "fontcolor": GREEN},
    "choice": {"shape": "diamond", "style": "filled,bold", "color": GREEN, "fillcolor": "#effaef",
               "fontcolor": GREEN},
    "auto": {"shape": "box", "style": "filled", "color": BLUE, "fillcolor": PALE_BLUE, "fontcolor": BLUE},
    "check": {"shape": "box", "style": "filled,bold", "color": RED, "fillcolor": "#fff1f1", "fontcolor": RED,
              "peripheries": "2"},
    "call": {"shape": "box", "style": "filled", "color": BLUE, "fillcolor": PALE_BLUE, "fontcolor": BLUE,
             "peripheries": "2"},
    "call_mixed": {"shape": "box", "style": "filled", "color": "#202020", "fillcolor": "#ffffff",
                   "fontcolor": "#202020", "peripheries": "2"},
    "trigger": {"shape": "cds", "style": "filled", "color": BLUE, "fillcolor": PALE_BLUE, "fontcolor": BLUE,
                "margin": "0.16,0.11"},
    "window": {"shape": "tab", "style": "filled,bold", "color": ORANGE, "fillcolor": "#fff4d6",
               "fontcolor": "#6b3a00"},
    "closed": {"shape": "box", "style": "filled,dashed", "color": "#606060", "fillcolor": "#d9d9d9",
               "fontcolor": "#404040"},
    # what the rules do by themselves: the automatic (blue) family, told apart by shape
    "branch": {"shape": "diamond", "style": "filled", "color": BLUE, "fillcolor": "#ffffff", "fontcolor": BLUE},
    "loop": {"shape": "hexagon", "style": "filled,bold", "color": BLUE, "fillcolor": LIGHT_BLUE,
             "fontcolor": BLUE},
    # an arrow's shaft is only as tall as its label: a margin keeps a number and two lines off its edges
    "goto": {"shape": "rarrow", "style": "filled,bold", "color": BLUE, "fillcolor": LIGHT_BLUE, "fontcolor": BLUE,
             "margin": "0.16,0.11"},
    "exit": {"shape": "rarrow", "style": "filled", "color": BLUE, "fillcolor": PALE_BLUE, "fontcolor": BLUE,
             "margin": "0.16,0.11"},
    "end_game": {"shape": "doubleoctagon", "style": "filled", "color": "#000000", "fillcolor": "#000000",
                 "fontcolor": "#ffffff"},
    "stub": {"shape": "box", "style": "rounded,dashed", "color": GREY, "fillcolor": "#ffffff",
             "fontcolor": "#404040"},
    "phase": {"shape": "box", "style": "rounded,filled,bold", "color": "#000000", "fillcolor": "#f4f4f4",
              "fontcolor": "#000000"},
    "step": {"shape": "box", "style": "rounded,filled", "color": "#000000", "fillcolor": "#ffffff",
             "fontcolor": "#000000"},
}

EDGE_STYLE: dict[str, dict[str, str]] = {
    "next": {"color": "#000000"},
    "option": {"color": GREEN, "fontcolor": GREEN},
    "case": {"color": BLUE, "fontcolor": BLUE},
    "else": {"color": BLUE, "fontcolor": BLUE, "style": "dashed"},
    "loop": {"color": BLUE, "fontcolor": BLUE},
    "exit": {"color": BLUE, "style": "dashed", "fontcolor": BLUE},
    "back": {"color": PURPLE, "fontcolor": PURPLE, "penwidth": "2", "style": "bold"},
    "jump": {"color": "#404040", "style": "dashed", "penwidth": "1.5"},  # a go-to's long way ahead
    "after": {"color": "#000000"},
    "call": {"color": RED, "style": "dashed", "fontcolor": RED},
    "return": {"color": GREY, "style": "dashed"},
    "turn": {"color": "#000000", "penwidth": "2.5", "style": "bold"},
    "order": {"style": "invis"},  # not drawn: keeps the steps of an overview in their order
}

KIND_ORDER = ("begin", "player", "choice", "auto", "trigger", "check", "call", "call_mixed", "window", "closed", "branch",
              "loop", "goto", "exit", "end_game", "phase", "step", "stub")
EDGE_ORDER = ("next", "option", "case", "else", "loop", "exit", "back", "jump", "after", "call", "return",
              "turn")


def style_key(game: Game, node: Node) -> str:
    k = node.kind
    if k == "end":
        return "begin"
    if k == "player" and node.choices:
        return "choice"
    if k == "foreach":
        return "loop"
    if k == "check":
        return "check"
    if k == "call":
        if node.callee and node.callee == game.check_timing:
            return "check"
        return "call_mixed" if node.callee and _players_act_in(game, node.callee) else "call"
    if k == "goto":
        return "goto" if any(e.kind == "back" for e in game.successors(node.id)) else "exit"
    return k


def _players_act_in(game: Game, procedure: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a player acts or may play inside a procedure (or a procedure it calls)."""
    c = game.containers.get(procedure)
    if c is None or procedure in seen:
        return False
    for n in c.nodes:
        node = game.nodes[n]
        if node.kind in ("player", "window"):
            return True
        if node.kind == "call" and node.callee and _players_act_in(game, node.callee, seen | {procedure}):
            return True
    return False

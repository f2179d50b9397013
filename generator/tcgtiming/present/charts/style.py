"""The visual language of the charts: colours, node and edge styles, the order of the legend, and the
charts' words.

The colours follow the Weiß Schwarz source: player actions green (#009f00), automatic actions blue
(#0000ff), check timings red (#ff0000).
"""
from __future__ import annotations

from ...core.model import Game, Node
from ...core.words import word


GREEN, BLUE, RED = "#009f00", "#0000ff", "#ff0000"  # the colours of the Weiß Schwarz source
PURPLE = "#7030a0"  # loops: loop nodes, back edges
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
    "auto": {"shape": "box", "style": "filled", "color": BLUE, "fillcolor": "#f1f1ff", "fontcolor": BLUE},
    "check": {"shape": "box", "style": "filled,bold", "color": RED, "fillcolor": "#fff1f1", "fontcolor": RED,
              "peripheries": "2"},
    "call": {"shape": "box", "style": "filled", "color": "#202020", "fillcolor": "#ffffff",
             "fontcolor": "#202020", "peripheries": "2"},
    "trigger": {"shape": "cds", "style": "filled", "color": BLUE, "fillcolor": "#f1f1ff", "fontcolor": BLUE,
                "margin": "0.16,0.11"},
    "window": {"shape": "tab", "style": "filled,bold", "color": ORANGE, "fillcolor": "#fff4d6",
               "fontcolor": "#6b3a00"},
    "closed": {"shape": "box", "style": "filled,dashed", "color": "#606060", "fillcolor": "#d9d9d9",
               "fontcolor": "#404040"},
    "branch": {"shape": "diamond", "style": "filled", "color": "#000000", "fillcolor": "#ffffff",
               "fontcolor": "#000000"},
    "loop": {"shape": "hexagon", "style": "filled,bold", "color": PURPLE, "fillcolor": "#f6effb",
             "fontcolor": PURPLE},
    "goto": {"shape": "rarrow", "style": "filled", "color": PURPLE, "fillcolor": "#f6effb", "fontcolor": PURPLE},
    "exit": {"shape": "rarrow", "style": "filled", "color": GREY, "fillcolor": "#f4f4f4", "fontcolor": "#404040"},
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
    "case": {"color": "#000000"},
    "else": {"color": "#000000", "style": "dashed"},
    "loop": {"color": PURPLE, "fontcolor": PURPLE},
    "exit": {"color": GREY, "style": "dashed", "fontcolor": "#404040"},
    "back": {"color": PURPLE, "fontcolor": PURPLE, "penwidth": "2", "style": "bold"},
    "jump": {"color": "#404040", "style": "dashed", "penwidth": "1.5"},
    "after": {"color": "#000000"},
    "call": {"color": RED, "style": "dashed", "fontcolor": RED},
    "return": {"color": GREY, "style": "dashed"},
    "turn": {"color": "#000000", "penwidth": "2.5", "style": "bold"},
}

KIND_ORDER = ("begin", "player", "choice", "auto", "trigger", "check", "call", "window", "closed", "branch",
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
        return "check" if node.callee and node.callee == game.check_timing else "call"
    if k == "goto":
        return "goto" if any(e.kind == "back" for e in game.successors(node.id)) else "exit"
    return k

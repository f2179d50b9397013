"""Narration of what a branch tested (``engine.witness``): for each case tried, the value each
predicate of its condition found and whether it held, in the narrator's language."""
from __future__ import annotations

from ..core.words import WORDS


def value(n, v, node=None) -> str:
    """A tested value: a number, yes/no, a card (its name), an option of ``node`` (its label), or none."""
    if v is None:
        return n.w("trace.none")
    if isinstance(v, bool):
        return n.w("tested.yes" if v else "tested.no")
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        return " / ".join(value(n, x) for x in v)
    if node is not None:
        return n.option(node, v)
    return n.card(v) if v in n.cards else str(v)


def fact(n, f) -> str:
    name, pid, v, extra, held = f
    key = f"tested.{name}"
    if name == "chose":
        node = n.game.nodes.get(extra[0])
        text = n.w(key, n.text(node.label, extra[0]) if node is not None else extra[0], value(n, v, node))
    elif name == "stat_at_least":
        who, stat, than, than_stat = extra
        a, b = v if v is not None else (None, None)
        text = n.w(key, n.w(f"cond.{who}"), n.stat(stat), value(n, a), n.w(f"cond.{than}"), n.stat(than_stat), value(n, b))
    elif name == "count":
        text = n.w(key, n.player(pid), n.zone(extra[0]), v)
    elif name == "player_value":
        pv = (n.game.player_values or {}).get(extra[0])
        text = n.w(key, n.player(pid), n.text(pv.name if pv is not None else None, extra[0]), v)
    elif name == "has_state":
        text = n.w(key, n.player(pid), n.zone(extra[0]), v, n.state(extra[1]))
    elif key in WORDS and pid is not None:
        text = n.w(key, n.player(pid), value(n, v))
    elif key in WORDS:
        text = n.w(key, value(n, v))
    elif f"cond.{name}" in WORDS and "{" not in WORDS[f"cond.{name}"][1]:  # a condition without arguments
        text = n.w("tested.fact", n.w(f"cond.{name}"), value(n, v))
    else:
        text = n.w("tested.fact", n.w("tested.other"), value(n, v))
    return n.w("tested.fact", text, n.w("tested.holds" if held else "tested.fails"))


def cases(n, node, tested) -> str:
    """Each case tried: its label and its facts (a loop's condition: its facts alone)."""
    out = []
    for cid, facts in tested:
        if cid is None:
            out.append(n.list([fact(n, f) for f in facts]) if facts else n.w("tested.always"))
            continue
        label = n.option(node, cid) if node is not None else cid
        out.append(n.w("tested.case", label, n.list([fact(n, f) for f in facts]) if facts else n.w("tested.always")))
    return n.w("trace.sep").join(out)


__all__ = ["cases", "fact", "value"]

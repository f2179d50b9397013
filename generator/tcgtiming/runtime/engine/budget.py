"""The step budget's message: the cycle of node ids (and of the rules and abilities applied inside
them) that a run repeats when it runs out of steps, found in its most recent entries."""
from __future__ import annotations

TOKEN_KINDS = {"rule": "rule", "interrupt": "interrupt", "resolved": "resolve"}


def token(prog, rec) -> str:
    """A recent entry as one word of the cycle: its node id, and for an entry made inside a node's
    work, what it applied or resolved (``end.2[resolve c1/bounce]``)."""
    ni, ev = rec[0], rec[1]
    kind = TOKEN_KINDS.get(ev[0]) if isinstance(ev, tuple) and ev else None
    if kind is None:
        return prog.ids[ni]
    what = ev[1] if kind != "resolve" else f"{ev[2]}/{ev[3]}"
    return f"{prog.ids[ni]}[{kind} {what}]"


def budget_message(prog, max_steps: int, ring) -> str:
    recent = []
    for r in reversed(ring):  # the last 400 entries (the ring may be a whole trace)
        if type(r[0]) is int:
            recent.append(r)
            if len(recent) == 400:
                break
    tail = [token(prog, r) for r in reversed(recent)]
    for period in range(1, len(tail) // 3 + 1):
        cyc = tail[-period:]
        if tail[-2 * period:-period] == cyc and tail[-3 * period:-2 * period] == cyc:
            order = {nid: i for i, nid in enumerate(prog.ids)}
            k = min(range(len(cyc)), key=lambda i: (order.get(cyc[i].split("[")[0], 0), cyc[i]))
            cyc = cyc[k:] + cyc[:k]  # start at the node defined first, so the message is stable
            shown = " -> ".join(cyc + [cyc[0]])
            return f"step budget of {max_steps} exceeded: the run repeats the cycle {shown}"
    return f"step budget of {max_steps} exceeded (no short repeating cycle; last nodes: {' -> '.join(tail[-6:])})"

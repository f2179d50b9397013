"""The scenario's firing functions: for each event some card of the scenario listens to, a function
``(st, subject)`` that does what ``Abilities.fire`` does for it, written for its listener (made once
per scenario at run setup, cached on the scenario's ``Setup``). An event with one listener gets its
tests in place (every n-th firing, the zone, its own card, the destination, the condition); an event
with several calls ``Abilities.fire``, which orders what they trigger."""
from __future__ import annotations

from .abilities import CARD_EVENTS, marker
from .state import Pending


def firers(prog, st) -> dict:
    setup = prog.setup(st.sc)
    made = setup.__dict__.get("_firers")
    if made is None:
        made = setup.__dict__["_firers"] = _make(prog, setup)
    return made


def _generic(event: str):
    return lambda st, subject: st.fire(event, subject)


def _make(prog, setup) -> dict:
    watched = prog.cx.__dict__.setdefault("watched", set())  # the events 'untriggered' reads (may grow)
    out = {}
    for event, items in setup.listen:
        if len(items) != 1:
            out[event] = _generic(event)
            continue
        _, ab, every, zone, own, cond = items[0]
        ns = {"AB": ab, "COND": cond, "W": watched, "marker": marker, "Pending": Pending}
        lines = ["def f(st, subject):", "    counts = st.event_counts",
                 f"    n = counts[{event!r}] = counts.get({event!r}, 0) + 1"]
        if every:
            lines.append(f"    if n % {every!r}: return")
        lines += [f"    c = st.listen[{event!r}][0][0]", "    z = c.zone",
                  f"    if z is None or z == {setup.deck!r}: return"]
        if zone is not None:
            lines.append(f"    if z != {zone!r}: return")
        if own and event in CARD_EVENTS:
            lines.append("    if subject is not c: return")
        if ab.to is not None:
            lines.append(f"    if subject is None or subject.zone != {ab.to!r}: return")
        if cond is not None:
            lines.append("    if not st.holds_for(COND, c): return")
        lines += [f"    if {event!r} in W: counts[marker({event!r}, c, AB)] = n",
                  "    if st.out is None:", "        st.pending[c.owner].append(Pending(AB, c, c.owner))",
                  "    else:", "        st.add_pending(Pending(AB, c, c.owner))"]
        exec(compile("\n".join(lines) + "\n", f"<tcgtiming firing of {event}>", "exec"), ns)
        out[event] = ns["f"]
    return out

"""The scenario's firing functions: for each event some card of the scenario listens to, a function
``(st, subject)`` that does what ``Abilities.fire`` does for it, written for its listener (made once
per scenario at run setup, cached on the scenario's ``Setup``). An event with one listener gets its
tests in place (every n-th firing, the zone, its own card, the destination, the condition); an event
with several calls ``Abilities.fire``, which orders what they trigger."""
from __future__ import annotations

from .abilities import CARD_EVENTS, marker
from .state import Pending


def firers(prog, setup) -> dict:
    """The scenario's firing functions (``setup``: its ``template.Setup``), event -> function."""
    made = setup.__dict__.get("_firers")
    if made is None:
        made = setup.__dict__["_firers"] = _make(prog, setup)
    return made


def shapes(prog, st) -> frozenset:
    """What the code of the firing of an event with one listener depends on, for each such event:
    (event, every n-th, zone, never without a subject, a condition, the deck zone)."""
    out = []
    for event, items in st.setup.listen:
        if len(items) == 1:
            _, ab, every, zone, own, cond = items[0]
            out.append((event, every, zone, bool(own and event in CARD_EVENTS) or ab.to is not None,
                        cond is not None, st.deck))
    return frozenset(out)


def names(prog) -> dict:
    """What the code of ``in_place`` reads."""
    return {"WATCHED": prog.cx.__dict__.setdefault("watched", set()), "marker": marker, "Pending": Pending}


def in_place(shape, traced: bool) -> list[str]:
    """The firing of an event with no subject and one listener, as lines of the program's code (what
    ``f(st, None)`` of ``_make`` does; it reads ``names``)."""
    event, every, zone, never, cond, deck = shape
    lines = [f"en = EC[{event!r}] = EC.get({event!r}, 0) + 1"]  # EC: the run's event counts (a local name)
    if never:  # it fires for a card's own event or a destination only: never without a subject
        return lines
    tests = ["ez is not None", f"ez != {deck!r}"] + ([f"ez == {zone!r}"] if zone is not None else [])
    if cond:
        tests.append("st.holds_for(ei[5], ei[0])")
    body = [f"ei = st.listen[{event!r}][0]", "ez = ei[0].zone", f"if {' and '.join(tests)}:",
            f"    if {event!r} in WATCHED: EC[marker({event!r}, ei[0], ei[1])] = en"]
    # appended to its owner's queue (``Queue.append``)
    body += ["    c = ei[0]", "    q = st.pending[c.owner]", "    q.log.append(Pending(ei[1], c, c.owner))", "    q.n += 1"]
    if traced:  # as ``add_pending``: the context of the entries changes
        body.append("    st.context()")
    if every:
        return lines + [f"if not en % {every!r}:"] + ["    " + x for x in body]
    return lines + body


def _generic(event: str):
    return lambda st, subject: st.fire(event, subject)


def _make(prog, setup) -> dict:
    watched = names(prog)["WATCHED"]  # the events 'untriggered' reads (may grow)
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

"""What each state obligation of the floor costs: the floor (floor.py, floor_trace.py) with one
obligation dropped at a time (its functions swapped for ones without it), timed against the
hand-written anchor (c) in one interleaved run (CPU time, the least of the rounds). The variants
are measurements only: they drop state the engine must keep, so they are not checked against it (the
floor itself is, by benchmarks/anchor_turn.py). Two rows keep all the state and go faster, as a
compile for the one scenario could: the check timing written for its one ticker, and that without
the end-of-turn sweep (they must end in the floor's state).

    .venv/bin/python benchmarks/anchor/floor_variants.py [--rounds 15] [--turns 400]
"""
from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
from contextlib import contextmanager
from operator import itemgetter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("TCGTIMING_SHARED", HERE.parent.parent.parent / "shared"))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(SHARED / "bench" / "anchors"))

import floor  # noqa: E402
import floor_trace  # noqa: E402


# --- replacements, each without one obligation ----------------------------------------------------
def check_no_budget(s, k):
    n = s.count = s.count + 1
    for card, ability, every, queue in s.listeners:
        if not n % every:
            floor.trigger(card, ability, queue)
    tq, nq = s.tq, s.nq
    while True:
        if tq.n:
            q = tq
        elif nq.n:
            q = nq
        else:
            return
        q.head, q.n = q.head + 1, q.n - 1


def steps_none(s, n):
    pass


def trigger_count(card, ability, queue):
    """No pending objects: a queue is its count."""
    z = card.zone
    if z is not None and z != "deck":
        queue.n += 1
        return True
    return False


def trigger_tuple(card, ability, queue):
    """A pending ability as a tuple (ability, card, controller) instead of an object."""
    z = card.zone
    if z is not None and z != "deck":
        queue.log.append((ability, card, card.owner))
        queue.n += 1
        return True
    return False


def decide_unrecorded(s, script, ni, last):
    """The scripted option, the decision kept nowhere (no position, no decisions, no count)."""
    return next(script, last)


def end_of_turn_seats(s):
    """No sweep of the cards (modifiers, used flags): the seats and the decisions only."""
    s.seat = (s.seat[1], s.seat[0])
    s.decisions.clear()


_first = itemgetter(0)


# no card objects: a zone is a list of card ids; a card knows nothing (zone, state, slot, ...)
def start_ids(plan, out=None):
    s = floor.Turn()
    zones = s.zones = {}
    for pid, layout in plan.layout:
        zones[pid] = pz = {}
        for z, cards in layout:
            pz[z] = list(map(_first, cards)) if cards else []
    return floor.rest(s, plan, zones, out)


def trigger_ids(card, ability, queue):
    queue.log.append(floor.Pending(ability, card, None))
    queue.n += 1
    return True


def top_ids(src, dest, to):
    if src:
        c = src[0]
        del src[0]
        dest.append(c)
        return c
    return None


def move_ids(card, dest, to):
    dest.append(card)


def to_stage_ids(src, stage):
    return top_ids(src, stage, "stage")


def stand_ids(s):
    floor.check(s, 3)
    floor.check(s, 3)  # the cards know no state: nothing to stand


def no_context(s):
    pass


def specialised_check(plan):
    """``floor.check`` as a compile for one scenario could write it when the scenario has one ticker,
    the turn player's: its period a constant, the other player's queue never looked at (nothing can
    fill it). Same state, same budget."""
    (pid, _, _, ability), = plan.listen
    assert pid == plan.seat[0], "the turn player's ticker only"
    every, out_of_steps, pending = ability.every, floor.out_of_steps, floor.Pending

    def check(s, k):
        n = s.count = s.count + 1
        if not n % every:
            card, ability, _, queue = s.listeners[0]
            z = card.zone
            if z is not None and z != "deck":
                queue.log.append(pending(ability, card, card.owner))
                queue.n += 1
        tq = s.tq
        if tq.n:
            left = s.left - k - 3 - 4 * tq.n  # ct.begin, (rule processing, branch, resolve, goto) per ability, ...
            h = tq.head + tq.n
            tq.head, tq.n = h, 0
            if h > 64 and h * 2 > len(tq.log):
                tq.log, tq.head = tq.log[h:], 0
            left = s.left = left - 1  # ... the last rule processing and branch, ct.end
        else:
            left = s.left = s.left - k - 4
        if left < 0:
            out_of_steps(s)
    return check


VARIANTS = {  # name -> (what is dropped, the floor's functions replaced)
    "no_budget": ("the step budget", {floor: {"check": check_no_budget, "steps": steps_none}}),
    "no_pending_objects": ("pending abilities as objects (a queue is a count)", {floor: {"trigger": trigger_count}}),
    "pending_tuples": ("(representation) a pending ability as a tuple, not an object",
                       {floor: {"trigger": trigger_tuple}}),
    "no_decision_state": ("decisions kept in the state (node, decisions, count)", {floor: {"decide": decide_unrecorded}}),
    "no_turn_sweep": ("the end-of-turn sweep of every card", {floor: {"end_of_turn": end_of_turn_seats}}),
    "no_card_objects": ("card objects (zones of card ids; no zone, state, slot per card)",
                        {floor: {"start": start_ids, "trigger": trigger_ids, "top": top_ids, "move": move_ids,
                                 "to_stage": to_stage_ids, "stand": stand_ids, "end_of_turn": end_of_turn_seats}}),
}
def count_only(card, ability, queue):
    queue.n += 1
    return True


VARIANTS["none_of_these"] = ("any of these (zones of card ids, queues as counts, no budget, no decision state)", {floor: {
    **VARIANTS["no_budget"][1][floor], **VARIANTS["no_decision_state"][1][floor],
    **VARIANTS["no_card_objects"][1][floor], "trigger": count_only}})
TRACED_VARIANTS = {
    "no_context": ("the context records (pending snapshots)", {floor_trace: {"context": no_context}}),
}
SHARED_NAMES = ("trigger", "top", "to_stage", "decide", "end_of_turn", "start")  # floor_trace's copies of floor's


@contextmanager
def variant(patches):
    """The floor's functions replaced (``patches``: module -> name -> function) while inside."""
    targets = []
    for mod, fns in patches.items():
        for k, fn in fns.items():
            targets.append((mod, k, fn))
            if mod is floor and k in SHARED_NAMES:
                targets.append((floor_trace, k, fn))
    saved = [(mod, k, getattr(mod, k)) for mod, k, _ in targets]
    for mod, k, fn in targets:
        setattr(mod, k, fn)
    try:
        yield
    finally:
        for mod, k, fn in saved:
            setattr(mod, k, fn)


def timed(fn, plan, turns):
    gc.collect()
    t0 = time.process_time()
    for _ in range(turns):
        fn(plan)
    return (time.process_time() - t0) / turns


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--turns", type=int, default=400)
    args = ap.parse_args()
    from scenario import DEFAULT
    from ws_turn_handwritten import HandwrittenEngine

    plan = floor.Plan(DEFAULT)
    hand = HandwrittenEngine(DEFAULT)
    rows = [("c", "hand-written anchor (counters only)", {}, lambda p: hand.run_turn()),
            ("f", "floor, no trace", {}, floor.run),
            ("start", "floor: the run's set-up alone (cards, zones, queues)", {}, floor.start),
            ("start_ids", "floor: the set-up alone, zones of card ids (no card objects)", {}, start_ids)]
    rows += [(name, f"floor without {what}", patches, floor.run) for name, (what, patches) in VARIANTS.items()]
    special = {"check": specialised_check(plan)}
    rows += [("specialised", "floor, its check timing written for this scenario's one ticker (all state kept)",
              {floor: special}, floor.run),
             ("specialised_no_sweep", "the same, and no end-of-turn sweep (nothing in this game sets what it resets)",
              {floor: special | {"end_of_turn": end_of_turn_seats}}, floor.run)]
    rows += [("f'", "floor, the engine's records", {}, floor_trace.run_traced)]
    rows += [(f"f' {name}", f"floor, records, without {what}", patches, floor_trace.run_traced)
             for name, (what, patches) in TRACED_VARIANTS.items()]
    base = floor.run(plan)
    for _, _, patches, _ in rows[-2:]:  # these keep all the state: they must end where the floor ends
        with variant(patches):
            fast = floor.run(plan)
        assert (floor.fingerprint(fast), fast.left) == (floor.fingerprint(base), base.left)
    times = {name: [] for name, *_ in rows}
    for _ in range(args.rounds):
        for name, _, patches, fn in rows:
            with variant(patches):
                times[name].append(timed(fn, plan, args.turns))
    c, f = min(times["c"]), min(times["f"])
    print(f"date {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, Python {platform.python_version()}, "
          f"nproc {os.cpu_count()}, scenario {DEFAULT}, {args.rounds} rounds x {args.turns} turns interleaved, "
          "the least CPU time per turn of the rounds (the machine is shared)")
    print("\n| row | what | time/turn | vs (c) | vs (f) |\n|---|---|---:|---:|---:|")
    for name, what, _, _ in rows:
        t = min(times[name])
        print(f"| {name} | {what} | {t * 1e6:,.2f} us | {c / t:.3f}x | {(t - f) * 1e6:+,.2f} us |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

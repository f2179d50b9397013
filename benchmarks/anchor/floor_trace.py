"""(f'): the semantic floor (floor.py) recording the engine's record stream, record for record.

A record is what the engine's machine emits (runtime/engine/machine.py): an entry ``(node, event[,
actor[, decided_by]])``, a change ``("move", card, from, to)`` / ``("state", card, old, new)`` before
the entry it belongs to, and the context ``(None, (turn, turn player, pending, stack, priority))``
whenever a pending queue changes, its queues as O(1) snapshots ``(log, head, end)``. Records that are
the same at every visit are made once (module constants) and appended as they are; a check timing
with nothing pending appends its five records in one ``extend``.
"""
from __future__ import annotations

from floor import (HAND_LIMIT, N, PLAYERS, Turn, decide, discard, end_of_turn, out_of_steps, start, to_stage, top,
                   trigger)

CALL = ("call", ())
TP, NTP = PLAYERS  # the turn player and the other, in every anchor scenario


def _r(nid, *event):
    """A record that is the same at every visit: (node, event)."""
    return (N[nid], event)


def _phase(name, trigger="phase_start"):
    """A phase's begin and start records, and its end record."""
    return (_r(f"{name}.begin", "begin"), _r(f"{name}.start", "trigger", trigger, ())), _r(f"{name}.end", "end")


IDLE = _r("ct.2", "otherwise", (("tp", (("has_pending", TP, 0, (), False),)),
                                 ("ntp", (("has_pending", NTP, 0, (), False),))))
CT_BEGIN, CT_END, RULES = _r("ct.begin", "begin"), _r("ct.end", "end"), _r("ct.rule_processing", "rule_processing", 0)


def _case_tp(n):
    """The check timing's branch when the turn player has ``n`` pending abilities."""
    return _r("ct.2", "case", "tp", (("tp", (("has_pending", TP, n, (), True),)),))


def _case_ntp(n):
    """... when only the other player has (``n``)."""
    return _r("ct.2", "case", "ntp", (("tp", (("has_pending", TP, 0, (), False),)),
                                      ("ntp", (("has_pending", NTP, n, (), True),))))


TP_ONE, NTP_ONE = _case_tp(1), _case_ntp(1)  # the usual case: one pending ability


def _check(nid):
    """A check node's records when nothing is pending: its call, then the procedure's."""
    return (_r(nid, *CALL), CT_BEGIN, RULES, IDLE, CT_END)


def context(s):
    """The context record: turn, turn player, each player's pending abilities as an O(1) snapshot,
    the stack, priority."""
    a, b = s.order
    s.out((None, (0, s.seat[0], ((a.log, a.head, len(a.log)), (b.log, b.head, len(b.log))), None, None)))


def check_t(s, seq, k, tp_goto=_r("ct.2.tp.2", "label"), ntp_goto=_r("ct.2.ntp.2", "label"),
            tp_resolve=N["ct.2.tp.resolve_tp"], ntp_resolve=N["ct.2.ntp.resolve_ntp"]):
    """``floor.check`` recording: ``seq`` is ``_check`` of the check node."""
    n = s.count = s.count + 1
    for card, ability, every, queue in s.listeners:
        if not n % every and trigger(card, ability, queue):
            context(s)
    tq, nq = s.tq, s.nq
    if not (tq.n or nq.n):
        s.ext(seq)
        left = s.left = s.left - k - 4
        if left < 0:
            out_of_steps(s)
        return
    o = s.out
    o(seq[0])
    o(CT_BEGIN)
    left = s.left - k - 1
    while True:
        left -= 2
        o(RULES)
        if tq.n:
            o(TP_ONE if tq.n == 1 else _case_tp(tq.n))
            q, who, at, goto = tq, TP, tp_resolve, tp_goto
        elif nq.n:
            o(NTP_ONE if nq.n == 1 else _case_ntp(nq.n))
            q, who, at, goto = nq, NTP, ntp_resolve, ntp_goto
        else:
            o(IDLE)
            break
        left -= 2
        h = q.head
        p = q.log[h]
        q.head, q.n = h + 1, q.n - 1
        if h + 1 > 64 and (h + 1) * 2 > len(q.log):
            q.log, q.head = q.log[h + 1:], 0
        context(s)
        o((at, ("resolve", who, p.card.id, p.ability.id, ()), who))
        o(goto)
        if left < 0:
            out_of_steps(s)
    left = s.left = left - 1
    o(CT_END)
    if left < 0:
        out_of_steps(s)


def top_t(s, z, frm, to, ni, who):
    """A move of the top card of zone ``frm`` to ``to`` (not the stage), and its entry at node ``ni``."""
    c = top(z[frm], z[to], to)
    if c is None:
        s.out((ni, ("nothing_to_move", frm), who))
    else:
        s.out(("move", c.id, frm, to))
        s.out((ni, ("move", (c.id,), frm, to), who))


def draw_t(s, n, ni):
    z = s.z1
    deck, hand = z["deck"], z["hand"]
    drawn = []
    for _ in range(n):
        c = top(deck, hand, "hand")
        if c is None:
            break
        s.out(("move", c.id, "deck", "hand"))
        drawn.append(c.id)
    s.out((ni, ("draw", TP, tuple(drawn)), TP))


def decide_t(s, script, ni, last):
    used = s.used
    take = decide(s, script, ni, last)
    s.out((ni, ("choose", take, None), TP, "scenario" if s.used > used else "policy:pass"))
    return take


def stand_t(s, r=_phase("stand", "turn_start"), c1=_check("stand.2"), c2=_check("stand.4"), at=N["stand.action"]):
    s.ext(r[0])
    check_t(s, c1, 3)
    cards = s.z1["stage"]
    for c in cards:
        if c.state != "stand":
            s.out(("state", c.id, c.state, "stand"))
            c.state = "stand"
    s.out((at, ("set_state", tuple(c.id for c in cards), "stand"), TP))
    check_t(s, c2, 3)
    s.out(r[1])


def action_phase_t(s, r, act):
    """``floor.action_phase`` recording: ``r``, the phase's records (``_action_phase``); ``act(s)`` does
    the action and records its entry."""
    s.ext(r[0])
    check_t(s, r[2], 3)
    act(s)
    check_t(s, r[3], 3)
    s.out(r[1])


def _action_phase(name):
    return _phase(name) + (_check(f"{name}.2"), _check(f"{name}.4"))


def draw_one_t(s, ni=N["draw.action"]):
    draw_t(s, 1, ni)


def place_climax_t(s, ni=N["climax.action"]):
    top_t(s, s.z1, "hand", "climax", ni, TP)


DRAW_PHASE, CLIMAX_PHASE = _action_phase("draw"), _action_phase("climax")


def clock_t(s, r=_phase("clock"), c1=_check("clock.2"), c2=_check("clock.5"), at=N["clock.action"],
            draw2=N["clock.draw2"]):
    s.ext(r[0])
    check_t(s, c1, 3)
    top_t(s, s.z1, "hand", "clock", at, TP)
    draw_t(s, 2, draw2)
    check_t(s, c2, 4)
    s.out(r[1])


def main_phase_t(s, r=_phase("main"), c1=_check("main.2"), c2=_check("main.choose.play.2"),
                 goto=_r("main.choose.play.3", "label"), play=N["main.choose.play.play"], choose=N["main.choose"]):
    o = s.out
    s.ext(r[0])
    check_t(s, c1, 3)
    hand, stage = s.z1["hand"], s.z1["stage"]
    while True:
        s.left -= 1
        if decide_t(s, s.main, choose, "stop") == "stop":
            break
        c = to_stage(hand, stage)
        if c is not None:
            o(("move", c.id, "hand", "stage"))
            o((play, ("move", (c.id,), "hand", "stage"), TP))
        else:
            o((play, ("nothing_to_move", "hand"), TP))
        check_t(s, c2, 3)
        o(goto)
    s.left -= 1
    o(r[1])


def _steps(way, *names):
    """The step triggers of an attack and the check nodes after them."""
    return tuple((_r(f"attack.choose.{way}.{a}", "trigger", "step_start", ()), _check(f"attack.choose.{way}.{b}"))
                 for a, b in names)


def attack_t(s, r=_phase("attack"), c1=_check("attack.2"),
             front=_steps("front", ("declare", "2"), ("trigger", "4"), ("counter", "6"), ("damage", "8")),
             side=_steps("side", ("declare", "2"), ("trigger", "4"), ("damage", "6")),
             battle=(N["attack.choose.front.battle"], _check("attack.choose.front.10")),
             gotos=(_r("attack.choose.front.11", "label"), _r("attack.choose.side.7", "label")),
             encore=_steps("stop", ("encore", "2"))[0], loop=N["attack.choose.stop.3"],
             body=(N["attack.choose.stop.3.encore_remove"], _check("attack.choose.stop.3.2")), choose=N["attack.choose"]):
    o = s.out
    s.ext(r[0])
    check_t(s, c1, 3)
    z2 = s.z2
    while True:
        s.left -= 1
        take = decide_t(s, s.attack, choose, "stop")
        if take == "front":
            for trigger, call in front:
                o(trigger)
                check_t(s, call, 2)
            top_t(s, z2, "stage", "reversed", battle[0], NTP)
            check_t(s, battle[1], 3)
            o(gotos[0])
        elif take == "side":
            for trigger, call in side:
                o(trigger)
                check_t(s, call, 2)
            s.left -= 1
            o(gotos[1])
        else:
            break
    o(encore[0])
    check_t(s, encore[1], 2)
    reversed_ = z2["reversed"]
    while True:
        s.left -= 1
        n = len(reversed_)
        o((loop, ("loop", n > 0, ((None, (("count", NTP, n, ("reversed",), n > 0),)),))))
        if not n:
            break
        top_t(s, z2, "reversed", "waiting_room", body[0], NTP)
        check_t(s, body[1], 2)
    s.left -= 1
    o(r[1])


def end_phase_t(s, r=_phase("end"), c1=_check("end.2"), c2=_check("end.5"), goto=_r("end.6.1.1", "label"),
                at=N["end.discard"], cleanup=N["end.cleanup"], branch=N["end.6"]):
    o = s.out
    o(r[0][0])
    z = s.z1
    hand, waiting = z["hand"], z["waiting_room"]
    k = 1  # the phase's begin
    while True:
        o(r[0][1])
        check_t(s, c1, k + 2)
        excess = len(hand) - HAND_LIMIT
        if excess > 0:
            for c in hand[:-excess - 1:-1]:
                o(("move", c.id, "hand", "waiting_room"))
            o((at, ("discard", excess, tuple(c.id for c in discard(s, hand, waiting))), TP))
        else:
            o((at, ("within_limit", len(hand), HAND_LIMIT), TP))
        top_t(s, z, "returning", "hand", cleanup, TP)
        check_t(s, c2, 3)
        k = 2  # the branch, then the goto or the phase's end
        over, waiting_any = len(hand) > HAND_LIMIT, s.tq.n > 0 or s.nq.n > 0
        facts = (("1", (("count", TP, len(hand), ("hand",), over), ("has_pending", TP, s.tq.n, (), waiting_any),
                        ("has_pending", NTP, s.nq.n, (), waiting_any))),)
        if not (over or waiting_any):
            o((branch, ("otherwise", facts)))
            break
        o((branch, ("case", "1", facts)))
        o(goto)
    s.left -= 2
    o(r[1])


def run_traced(plan, turn=(_r("turn.begin", "begin"), _r("turn.end", "end"))) -> Turn:
    """(f'): one turn, recording the engine's records (``Turn.records``)."""
    s = start(plan, [])
    context(s)
    s.left -= 1
    s.out(turn[0])
    stand_t(s)
    action_phase_t(s, DRAW_PHASE, draw_one_t)
    clock_t(s)
    main_phase_t(s)
    action_phase_t(s, CLIMAX_PHASE, place_climax_t)
    attack_t(s)
    end_phase_t(s)
    s.left -= 1
    if s.left < 0:
        out_of_steps(s)
    s.out(turn[1])
    end_of_turn(s)
    return s


def plain(rec):
    """A record with the pending queues' snapshots of a context record made plain ((card, ability), ...),
    so that the records of two runs compare."""
    if rec[0] is not None or rec[1] is None:
        return rec
    turn, tp, queues, stack, prio = rec[1]
    return None, (turn, tp, tuple(tuple((p.card.id, p.ability.id) for p in log[h:e]) for log, h, e in queues), stack, prio)

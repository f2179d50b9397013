"""A priority window of the semantic floor of shipped scenarios, with the stack: the work the engine's
generated window loop (``wingen``) does for a window whose decisions are all scripted, written by
hand - each decision a scripted choice taken from the node's deque (used; kept with the keys it read, as
the engine's fast tier keeps it where nothing reads through it later: no ``Taken`` object), a
pass counted, a play checked (its card's owner, the card's activated ability, the window's play
kinds, the seat a timed play needs), put on the stack, the stack resolved newest first when both
players pass in a row, and the window closed or opened again. ``window_t`` records the engine's
records; ``window_u`` records nothing.

Paths these scenarios never take (an unscripted decision, a play with a cost or paid with cards,
pending abilities waiting when the window opens) raise ``NotImplementedError``: the floor is written
for the scenarios it is checked on."""
from __future__ import annotations

from shipped_floor import StackItem, context, out_of_steps, queues

PASS_READ = frozenset({"take"})
PLAY_READ = frozenset({"take", "card", "ability", "cards", "target"})


def _play(st, ch, p, plays, timed, when):
    """A scripted play checked as the engine checks it: (card, ability, target); the choice kept with
    what it read."""
    k = st.cards.get(ch.card)
    a = None
    if k is not None and k.owner == p:
        want = ch.ability
        for a in k.spec.abilities:
            if a.kind == "activated" and (want is None or want == a.id):
                break
        else:
            a = None
    if a is None or a.play not in plays or (timed and a.play in timed and p != st.seat[timed[a.play]]):
        raise NotImplementedError("a scripted play refused")
    if a.play in when:
        raise NotImplementedError("a play kind with a condition of its own")
    st.taken.append((ch, PLAY_READ))
    st.pay_with = tuple(ch.cards) if ch.cards else ()
    if st.pay_with or a.cost:
        raise NotImplementedError("a play with a cost")
    g = ch.target
    return k, a, st.cards.get(g) if g else None


def _count_play(st, p, a):
    if st.play_turn != st.turn_index:
        st.play_counts, st.play_turn = {}, st.turn_index
    pc = st.play_counts
    key = (p, a.play)
    pc[key] = pc.get(key, 0) + 1


def negate_t(st, item, args):
    """The negate effect: the item answered is negated; the stack's snapshot made again from the top
    down to it (the cells below are shared)."""
    ans = item.answers
    if ans is None:
        return ("nothing_to_negate",)
    ans.negated = True
    above, snap = [], st.ssnap
    for x in reversed(st.stack):
        above.append(x)
        snap = snap[1]
        if x is ans:
            break
    else:
        return ("negate", ans.card.id, ans.ability.id)
    for x in reversed(above):
        snap = (x.ref, snap)
    st.ssnap = snap
    context(st)
    return ("negate", ans.card.id, ans.ability.id)


def negate_u(st, item, args):
    ans = item.answers
    if ans is None:
        return ("nothing_to_negate",)
    ans.negated = True
    return ("negate", ans.card.id, ans.ability.id)


def window_t(st, ni, nid, first, reopen, effects, plays=frozenset(), timed=None, when=frozenset()):
    """A window at node ``ni`` (its choices keyed ``nid``), priority first to ``first``; ``reopen``: it
    opens again after the stack resolves; ``effects``: effect name -> function(st, item, args)."""
    o = st.out
    # the context records made in place, as the engine's window makes them: turn and turn player read
    # once, the queues' snapshot made again only after effects resolve (nothing else here changes them)
    ti, tp = st.turn_index, st.seat[0]
    st.at = st.node = ni
    if st.queues[0].n or st.queues[1].n:
        raise NotImplementedError("pending abilities when a window opens")
    qs = queues(st)
    players = st.players
    lst = st.choices.get(nid)
    used, keep = st.used_choices, st.taken.append
    if st.priority != first:
        st.priority = first
        o((None, (ti, tp, qs, st.ssnap, st.priority)))
    n = 0
    while True:
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        p = st.priority
        st.pay_with = ()
        if not lst:  # (no choice is listed twice: the engine tests for a choice taken already only then)
            raise NotImplementedError("an unscripted decision")
        ch = lst.popleft()  # taken as the engine takes it: used, kept with what it read
        used.add(id(ch))
        if ch.take == "pass":
            keep((ch, PASS_READ))
            n += 1
            o((ni, ("pass", n), p, "scenario"))
            st.priority = players[p == players[0]]
            o((None, (ti, tp, qs, st.ssnap, st.priority)))
            if n < 2:
                continue
            st.priority = None
            o((None, (ti, tp, qs, st.ssnap, st.priority)))
            stack = st.stack
            if not stack:
                o((ni, ("window_closes",)))
                return
            r = 0
            while stack:
                st.left -= 1
                if st.left < 0:
                    out_of_steps(st)
                item = stack.pop()
                st.ssnap = st.ssnap[1]
                o((None, (ti, tp, qs, st.ssnap, st.priority)))
                o((None, None))
                done = None if item.negated else tuple([effects[e if type(e) is str else e[0]](st, item, e)
                                                        for e in item.ability.effect])
                qs = queues(st)
                o((st.at, ("resolved", item.controller, item.card.id, item.ability.id, done)))
                r += 1
            o((ni, ("stack_resolved", r)))
            if not reopen:
                return
            n = 0
            if st.priority != first:
                st.priority = first
                o((None, (ti, tp, qs, st.ssnap, st.priority)))
            continue
        if not ch.card:
            raise NotImplementedError("a play of no card")
        k, a, g = _play(st, ch, p, plays, timed, when)
        k.used = True
        _count_play(st, p, a)
        stack = st.stack
        item = StackItem(a, k, p, stack[-1] if stack else None, g)
        stack.append(item)
        st.ssnap = (item.ref, st.ssnap)
        o((None, (ti, tp, qs, st.ssnap, st.priority)))
        o((ni, ("window_play", k.id, a.id, None), p, "scenario"))
        n = 0
        q = players[p == players[0]]
        if st.priority != q:
            st.priority = q
            o((None, (ti, tp, qs, st.ssnap, st.priority)))


def window_u(st, ni, nid, first, reopen, effects, plays=frozenset(), timed=None, when=frozenset()):
    """``window_t`` without records."""
    st.at = st.node = ni
    if st.queues[0].n or st.queues[1].n:
        raise NotImplementedError("pending abilities when a window opens")
    players = st.players
    lst = st.choices.get(nid)
    used, keep = st.used_choices, st.taken.append
    if st.priority != first:
        st.priority = first
    n = 0
    while True:
        st.left -= 1
        if st.left < 0:
            out_of_steps(st)
        p = st.priority
        st.pay_with = ()
        if not lst:  # (no choice is listed twice: the engine tests for a choice taken already only then)
            raise NotImplementedError("an unscripted decision")
        ch = lst.popleft()  # taken as the engine takes it: used, kept with what it read
        used.add(id(ch))
        if ch.take == "pass":
            keep((ch, PASS_READ))
            n += 1
            st.priority = players[p == players[0]]
            if n < 2:
                continue
            st.priority = None
            stack = st.stack
            if not stack:
                return
            while stack:
                st.left -= 1
                if st.left < 0:
                    out_of_steps(st)
                item = stack.pop()
                if not item.negated:
                    for e in item.ability.effect:
                        effects[e if type(e) is str else e[0]](st, item, e)
            if not reopen:
                return
            n = 0
            if st.priority != first:
                st.priority = first
            continue
        if not ch.card:
            raise NotImplementedError("a play of no card")
        k, a, g = _play(st, ch, p, plays, timed, when)
        k.used = True
        _count_play(st, p, a)
        stack = st.stack
        stack.append(StackItem(a, k, p, stack[-1] if stack else None, g))
        n = 0
        q = players[p == players[0]]
        if st.priority != q:
            st.priority = q

"""Priority windows written in place in the fast tier (``codegen``): a window node's loop as code,
specialised on what the rule file fixes for the window - who opens it, who may act, how many
passes close it, how the stack resolves, whether it reopens, whether priority alternates after a
play, its own actions before priority, the kinds of play it allows, the number of players - and
making the records the machine's ``window`` makes, in the same order. Windows stated alike share
one function of the fast program (``WIN<k>(st, node index, node id, node)``); the node calls it.
Plays (costs, the stack or at once, the event) and the stack's resolution are made in place too.

At each decision the code reads the choices as the machine's ``next_choice`` reads them (keyed to
the window, else to its step or phase, else unkeyed; the lists looked up once per visit):

- the next choice, not yet taken: taken in place - a pass, or the play it names, checked in place
  (the machine's ``scripted_play`` refuses what does not hold, saying why) and made in place;
- no choice, and the player has no card with an activated ability of a kind the window allows
  (what every run of the scenario shows: ``Windows.play_kinds``): the pass is forced, in place;
- no choice otherwise: the machine's ``unscripted_priority`` (what can be played now; refused with
  --strict, else the explorer's or the policy's); a list whose next choices were taken already:
  the machine's ``window_decision``.

Each decision, each before-priority round and each stack object resolved is a step of the run's
budget, as in the machine. A window the machine refuses (R509) is left to it.

A choice taken in place is noted with what the decision read of it (``(choice, read)``; a ``Taken``
only where the machine reads through it). The traced code makes the context records in place, as
the machine's ``context`` makes them: the turn and the turn player read once per window, the pending
queues' snapshot taken again only after code that may change the queues (a play, an effect, the
window's own actions, a call of the machine)."""
from __future__ import annotations

from .abilities import ABILITY_ACTIONS, IDLE, NOTHING_STACKED, NOTHING_TO_DO
from .costs import play_cost
from .melee import MELEE_ACTIONS, NO_LOSER
from .state import StackItem

TICK = ["st.left -= 1", "if st.left < 0:", "    st.out_of_steps()"]


def _engine_action(prog, name: str, table: dict) -> bool:
    """The action named is the engine's own (a program may be compiled with other actions)."""
    return name in table and prog.action_table.get(name) is table[name]


def window_lines(gen, ni: int, node) -> list[str] | None:
    """The node's code: a call of its window's function, or None where the machine runs it (a window
    it refuses). Windows the rule file states alike share one function (written once, however many
    places run them: a procedure written in place at each of its calls); it is given the window's node
    (``ni``, ``nid``, ``nd``)."""
    prog = gen.prog
    if ni in prog.refused or prog.players < 2:
        return None
    w = node.window
    own = ni in prog.before_priority  # its own actions, compiled for the node: a function of its own
    shape = (ni if own else None, prog.windows[ni], None if ni in prog.window_params else w.plays, w.resolve,
             w.after_resolve, w.after_play)
    written = gen.__dict__.setdefault("windows_written", {})
    if shape not in written:
        name = f"WIN{len(written)}"
        written[shape] = [name, f"def {name}(st, ni, nid, nd):"] + (["    o = st.out"] if gen.traced else []) + \
            ["    " + x for x in window_body(gen, ni, node)] + [""]
    nodes = gen.__dict__.setdefault("window_nodes", {})  # the node as a constant of the code, once
    if ni not in nodes:
        nodes[ni] = gen.const("N", node)
    return [f"{written[shape][0]}(st, {ni}, {node.id!r}, {nodes[ni]})"]


def window_functions(gen) -> str:
    """The source of the windows' functions the code calls."""
    return "".join(line + "\n" for lines in gen.__dict__.get("windows_written", {}).values() for line in lines[1:])


def window_body(gen, ni: int, node) -> list[str]:
    """The window's loop (``w...``: names of its own)."""
    prog = gen.prog
    T, w = gen.traced, node.window
    first_i, who_i, need = prog.windows[ni]
    hook = before_priority(gen, ni, w)
    # read as the machine reads them, before the window's own actions: the kinds it allows, who opens it
    # and who may act; then the lists of choices, the cards, what each player could ever play
    plays = "st.window_plays(ni, nd.window)" if ni in prog.window_params else gen.const("P", tuple(w.plays))
    lines = [f"wPL = {plays}", "wS = st.seat", f"wf = wS[{first_i}]"]
    everyone = set(who_i) >= set(prog.cx.all)
    if not everyone:
        lines.append(f"wAL = ({''.join(f'wS[{i}], ' for i in who_i)})")
    lines += ["st.at = st.node = ni"]
    if hook is not None:
        lines += hook
    elif w.resolve != "immediate" and prog.game.check_timing is None:
        lines += [f"if {pending_any(prog)}:", "    st.stack_waiting()"]
    if T:  # the context's parts a window never changes (turn, turn player), the pending queues
        lines += ["wTI = st.turn_index", "wT0 = wS[0]", f"{queues(prog.players)} = st.queues", "wQS = None"]
    lines += ["wPS = st.players", "wCH = st.choices", "wND = wCH.get(nid)",
              "wFB = st.choice_lists(nid) if st.by_timing or None in wCH else ()", "wUC = st.used_choices",
              "wCA = st.cards", "wKP = None"]
    lines += give("wf", gen) + ["wn = 0", "while True:"]
    body = TICK + ["wp = st.priority"]
    decide = decision(gen)
    if everyone:
        body += decide
    else:
        body += ["if wp in wAL:"] + ["    " + x for x in decide] + ["else:", "    wx = wb = None"]
    # a pass: the next player in turn order holds priority; enough passes in a row close the window
    body += ["if wx is None:", "    wn += 1"]
    if T:
        rec = "o((ni, ('pass', wn), wp, wb))"
        body += [f"    {rec}"] if everyone else ["    if wp in wAL:", f"        {rec}"]
    body += ["    " + x for x in ["wq = " + next_player(prog.players, "wp"), "st.priority = wq"] + context(gen, "wq")]
    body += [f"    if wn >= {need}:"] + ["        " + x for x in close(gen, w, hook)] + ["    continue"]
    body += play(gen, w) + ["wn = 0"] + (hook or [])
    if w.after_play == "alternate":
        body += give(next_player(prog.players, "wp"), gen)
    return lines + ["    " + x for x in body]


def decision(gen) -> list[str]:
    """The decision of the player holding priority (``wp``): the play ``wx`` (None: a pass), who
    decided ``wb``. The choice taken is noted with what the decision read of it: a pass its answer,
    a play taken in place all it names (``(choice, read)``, both known when it is taken); a play the
    machine checks, a ``Taken`` that watches what the machine reads."""
    taken = f"{gen.const('RT', frozenset({'take'}))}"
    # a list's next choice may have been taken already only when a choice is listed twice (``distinct``)
    fresh = "if wl:" if gen.distinct else "if wl and id(wl[0]) not in wUC:"
    lines = ["st.pay_with = ()", "wl = wND", "if not wl and wFB:", "    for wl in wFB:", "        if wl:", "            break",
             "    else:", "        wl = None",
             fresh,  # the next choice the decision reads: taken
             "    wc = wl.popleft()", "    wUC.add(id(wc))", "    wb = 'scenario'", "    if wc.take == 'pass':",
             f"        st.taken.append((wc, {taken}))", "        wx = None", "    elif wc.card:"]
    lines += ["        " + x for x in scripted(gen)]
    lines += ["    else:", f"        st.taken.append((wc, {gen.const('RT', frozenset({'take', 'card'}))}))", "        wx = None"]
    if not gen.distinct:
        lines += ["elif wl:",  # its next choices were taken already: the machine skips them
                  "    wx, wb = st.window_decision(nd, wPL, wp)"] + stale(gen, "    ")
    return (lines +
            ["else:", "    if wKP is None:", "        wKP = st.play_kinds()",  # read once per visit, when needed
             "    if wKP[wp].isdisjoint(wPL):", "        wx = wb = None",  # nothing the player could ever play here: forced
             "    else:", "        wx, wb = st.unscripted_priority(nd, wPL, wp)"] + stale(gen, "        "))


def scripted(gen) -> list[str]:
    """The play a choice names (``wc``): its card the player's, its first activated ability (the one
    named) of a kind the window allows and the player may play now (the machine's ``may_play``);
    anything else: the machine's ``scripted_play``, which refuses it, saying why."""
    prog = gen.prog
    may = ""  # a kind only some roles may play (``by``: their seats), a kind's own condition (``when``)
    for kind, seats in sorted(prog.play_by.items()):
        may += f" or wa.play == {kind!r} and wp not in ({''.join(f'wS[{i}], ' for i in sorted(seats))})"
    if prog.play_when:
        may += f" or wa.play in {gen.const('K', frozenset(prog.play_when))} and not st.play_when_holds(wp, wa.play)"
    return ["wk = wCA.get(wc.card)", "wa = None", "if wk is not None and wk.owner == wp:", "    wi = wc.ability",
            "    for wa in wk.spec.abilities:", "        if wa.kind == 'activated' and (wi is None or wi == wa.id):",
            "            break", "    else:", "        wa = None",
            # refused, saying why: the machine reads the choice through a Taken (made without running its
            # __init__: its two slots set here)
            f"if wa is None or wa.play not in wPL{may}:", f"    wt = {gen.const('NEW', object.__new__)}(Taken)",
            "    wt.choice = wc", "    wt.read = {'take', 'card'}", "    st.taken.append(wt)",
            "    wx = st.scripted_play(nd, wPL, wp, wt)"] + stale(gen, "    ") + [
            "else:", f"    st.taken.append((wc, {gen.const('RT', frozenset({'take', 'card', 'ability', 'cards', 'target'}))}))",
            "    wcs = wc.cards",
            "    st.pay_with = tuple(wcs) if wcs else ()", "    wg = wc.target",
            "    wx = (wk, wa, wCA.get(wg) if wg else None)"]


def play(gen, w) -> list[str]:
    """A play (``wx``: card, ability, target) as the machine's ``window_play`` makes it: the card used,
    the play counted, its costs paid (the play kind's, when the kind has one or the choice names cards
    to pay with; the ability's own), the event, then onto the stack or resolved at once; the entry."""
    prog, T = gen.prog, gen.traced
    costly = frozenset(k for k, p in prog.game.plays.items() if p.get("cost") is not None)
    cost = f"wa.play in {gen.const('K', costly)} or st.pay_with" if costly else "st.pay_with"
    lines = ["wk, wa, wg = wx", "wk.used = True", "if st.play_turn != st.turn_index:",
             "    st.play_counts, st.play_turn = {}, st.turn_index", "wpc = st.play_counts", "wi = (wp, wa.play)",
             "wpc[wi] = wpc.get(wi, 0) + 1", "ws = st.stack",
             f"wi = {gen.const('SI', StackItem)}(wa, wk, wp, ws[-1] if ws else None, wg)",
             f"wpd = {gen.const('PC', play_cost)}(st, wk, wa, wp) if {cost} else ()", "if wa.cost:",
             f"    wpd += tuple([{gen.const('EF', prog.effect)}(x)(st, wk, wp, wi, wg) for x in wa.cost])"]
    if T:
        lines.append("wpd = (wpd,) if wpd else ()")
    if "played" in gen.events:
        lines.append("st.fire('played', wk)")
    at_once = ["wdn = st.resolve_effects(wa, wk, wp, wi, wg)"] + stale(gen)
    if T:
        at_once.append("o((ni, ('window_play', wk.id, wa.id, wdn) + wpd, wp, wb))")
    if w.resolve == "immediate":
        return lines + at_once
    # onto the stack (the machine's ``push``: the stack's snapshot, the context, the pending queues
    # taken again: the costs may have changed them)
    stacked = ["ws.append(wi)"]
    if T:
        stacked += ["st.ssnap = wSS = ((wk.id, wa.id, wi.negated), st.ssnap)"] + context(gen, "st.priority", "wSS", True)
        stacked.append("o((ni, ('window_play', wk.id, wa.id, None) + wpd, wp, wb))")
    if not prog.no_stack:
        return lines + stacked
    return lines + [f"if wa.play not in {gen.const('K', prog.no_stack)}:"] + ["    " + x for x in stacked] + \
        ["else:"] + ["    " + x for x in at_once]


def resolve_top(gen) -> list[str]:
    """The newest object of the stack resolves (``ws``): a step of the budget, an entry of its own;
    its effects, in order (the machine's ``resolve_effects``)."""
    EF = gen.const("EF", gen.prog.effect)
    if not gen.traced:
        return TICK + ["wi = ws.pop()", "if not wi.negated:", "    for x in wi.ability.effect:",
                       f"        {EF}(x)(st, wi.card, wi.controller, wi, wi.target)"]
    # off the stack (the machine's ``pop_stack``: the stack's snapshot, the context; the pending
    # queues taken again, the effects resolved before may have changed them)
    pop = ["wi = ws.pop()", "st.ssnap = wSS = st.ssnap[1]"] + context(gen, "st.priority", "wSS", True)
    return TICK + pop + ["o((None, None))",
                   f"wdn = None if wi.negated else tuple([{EF}(x)(st, wi.card, wi.controller, wi, wi.target) "
                   "for x in wi.ability.effect])",
                   "o((st.at, ('resolved', wi.controller, wi.card.id, wi.ability.id, wdn)))"]


def next_player(players: int, pid: str) -> str:
    """The next player in turn order (the machine's ``other``)."""
    if players == 2:
        return f"wPS[{pid} == wPS[0]]"
    return f"wPS[(wPS.index({pid}) + 1) % {players}]"


def give(pid: str, gen) -> list[str]:
    """Priority to a player (the context changes when it goes to another player)."""
    return ["wq = " + pid, "if st.priority != wq:", "    st.priority = wq"] + ["    " + x for x in context(gen, "wq")]


def queues(players: int) -> str:
    """The names of the pending queues, in the order of the players (the machine's ``queues``)."""
    return ", ".join(f"wQ{i}" for i in range(players)) + ("," if players == 1 else "")


def context(gen, prio: str, stack: str = "st.ssnap", fresh: bool | None = False) -> list[str]:
    """The context record, as the machine's ``context`` makes it, written in place: the turn and the
    turn player read once per window; the queues' snapshot (``wQS``) taken again where something may
    have changed them since the last one (``fresh``), or when ``wQS`` is None (``stale``), or kept
    (``fresh`` None: the last one was just taken, nothing ran since)."""
    if not gen.traced:
        return []
    snap = snapshot(gen.prog.players)
    take = [] if fresh is None else [f"wQS = {snap}"] if fresh else ["if wQS is None:", f"    wQS = {snap}"]
    return take + [f"o((None, (wTI, wT0, wQS, {stack}, {prio})))"]


def snapshot(players: int) -> str:
    """The pending queues' snapshot as the machine's ``context`` takes it (``wQ<i>``: the queues, in
    the order of the players)."""
    return "(" + "".join(f"(wQ{i}.log, wQ{i}.head, len(wQ{i}.log)), " for i in range(players)) + ")"


def stale(gen, indent: str = "") -> list[str]:
    """After code that may change the pending queues (effects, the machine's decisions, the window's
    own actions): the next context takes their snapshot again."""
    return [indent + "wQS = None"] if gen.traced else []


def close(gen, w, hook) -> list[str]:
    """Enough passes in a row: the window closes with nothing on the stack; else the stack resolves
    (the newest object, or all of it) and the window reopens (its own actions, then the first player)
    or closes."""
    T = gen.traced
    # the context just made (a pass) has the queues' snapshot of now: kept
    lines = ["st.priority = None"] + context(gen, "None", fresh=None) + ["if not st.stack:"]
    lines += [f"    o((ni, {gen.const('E', ('window_closes',))}))", "    break"] if T else ["    break"]
    lines.append("ws = st.stack")
    if w.resolve == "top":
        lines += resolve_top(gen)
    elif T:  # all of it, newest first, each an entry of its own
        lines += ["wr = 0", "while ws:"] + ["    " + x for x in resolve_top(gen) + ["wr += 1"]]
        lines.append("o((ni, ('stack_resolved', wr)))")
    else:
        lines += ["while ws:"] + ["    " + x for x in resolve_top(gen)]
    lines += stale(gen)  # the effects resolved may have changed the queues
    if w.after_resolve != "reopen":
        return lines + ["break"]
    return lines + ["wn = 0"] + (hook or []) + give("wf", gen)


def pending_any(prog) -> str:
    """Some player has an ability pending (their queues, in the order of the players)."""
    return " or ".join(f"st.queues[{i}].n" for i in range(prog.players))


def before_priority(gen, ni: int, w) -> list[str] | None:
    """The window's own actions before a player receives priority, in order (None: it has none
    stated; the engine's default applies): a step of the budget, and an entry of the window when one
    of them did something. An action that would find nothing to do is not called: rule processing
    when no rule applies (a game without interrupt-type rules), the loss check when no one lost,
    putting pending abilities on the stack when none is pending."""
    prog = gen.prog
    hook = prog.before_priority.get(ni)
    if hook is None:
        return None
    if not hook:
        return []
    T = gen.traced
    # traced: ``wd``, what the actions did, each kept as it is made (as the machine's ``before_priority``
    # keeps it: an action's event unless it is one of doing nothing)
    lines = TICK + (["o((None, None))", "wd = ()"] if T else [])
    idle_events = gen.const("I", IDLE) if T else None
    for k, (a, act) in enumerate(zip(w.before_priority, hook)):
        fixed = getattr(act, "const", None)
        if fixed is not None:  # an action that does nothing but say so
            lines += [f"wd += ({gen.const('E', fixed)},)"] if T and fixed not in IDLE else []
            continue
        A, idle = gen.const("A", act), None
        if a.name == "rule_processing" and _engine_action(prog, a.name, ABILITY_ACTIONS) and not prog.interrupt_rules:
            test, idle = f"{gen.const('RS', prog.check_scan[0])}(st, 0) >= 0", NOTHING_TO_DO
        elif a.name == "end_if_lost" and _engine_action(prog, a.name, MELEE_ACTIONS):
            test, idle = "st.losers", NO_LOSER
        elif a.name == "stack_pending" and _engine_action(prog, a.name, ABILITY_ACTIONS):
            test, idle = pending_any(prog), NOTHING_STACKED
        # the action run (the pending queues' snapshot taken again after it); not run, it did nothing
        run = [f"wd{k} = {A}(st)", f"if wd{k} not in {idle_events}: wd += (wd{k},)"] + stale(gen) if T else [f"{A}(st)"]
        lines += run if idle is None else [f"if {test}:"] + ["    " + x for x in run]
    if T:
        lines += ["if wd:", "    o((ni, ('before_priority', wd)))"]
    return lines

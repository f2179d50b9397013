"""Narration: what a trace entry says happened, in one language, rendered from the entry's event.

Every word comes from the catalogue (``core.words``: ``event.`` keys, one per event code or
variant) or from the names the rules and the scenario give (labels, zone and event names, player
and card names, ability labels, ids). The events are those ``engine.result`` describes."""
from __future__ import annotations

from ..core import model as m
from ..core.text import value_text
from ..core.words import WORDS as _KEYS, word
from .tested import cases

WHERE = ("damage_judgment", "discard", "trigger_icon", "rule", "interrupt")  # events whose cards' destinations are told
DEFAULT_EXIT = ("phase", "step", "loop", "procedure", "turn")


class Narrator:
    def __init__(self, game: m.Game, scenario, lang: str):
        self.game, self.lang = game, lang
        self.names = {pid: name for pid, name, _ in scenario.players}
        self.sc = scenario
        self.cards = scenario.cards
        self.changes: tuple = ()  # the changes of the entry being narrated

    def w(self, key: str, *args) -> str:
        return word(key, self.lang, *args)

    def text(self, t: m.Text | None, fallback: str = "") -> str:
        return t.get(self.lang) if t is not None else fallback

    # --- names ------------------------------------------------------------------------------------
    def player(self, pid) -> str:
        return self.names.get(pid, pid or "")

    def turn_player(self, turn: int) -> str:
        """Who takes turn ``turn`` (from 1): the scenario's turn player, then by turns when the roles swap."""
        ids = [p for p, _, _ in self.sc.players]  # in turn order
        tp = self.sc.turn_player
        if self.game.roles_swap and tp in ids:
            tp = ids[(ids.index(tp) + turn - 1) % len(ids)]
        return tp

    def roles_in(self, turn: int) -> str:
        """Each seat role of the game with the players who hold it in that turn (a non_turn role: every
        player but the turn player, in turn order)."""
        tp = self.turn_player(turn)
        ids = [p for p, _, _ in self.sc.players]
        k = ids.index(tp) if tp in ids else 0
        others = (ids[k + 1:] + ids[:k]) or [tp]
        out = []
        for r in self.game.roles.values():
            seat = r.get("seat")
            if seat in ("turn", "non_turn"):
                for pid in ([tp] if seat == "turn" else others):
                    out.append(self.w("trace.role_holder", self.player(pid), self.text(r.name, r.id)))
        return self.list(out)

    def card(self, cid) -> str:
        c = self.cards.get(cid)
        return self.w("trace.card", c.name, cid) if c is not None else str(cid)

    def card_name(self, cid) -> str:
        c = self.cards.get(cid)
        return c.name if c is not None else str(cid)

    def list(self, items) -> str:
        return self.w("trace.sep").join(items) if items else self.w("trace.none")

    def card_list(self, ids) -> str:
        return self.list([self.card(c) for c in ids])

    def zone(self, z) -> str:
        named = self.game.zones.get(z)
        return self.text(named.name, z) if named is not None else str(z)

    def state(self, s) -> str:
        return self.w(f"state.{s}") if s else self.w("trace.none")

    def stat(self, s) -> str:
        return self.w(f"stat.{s}") if f"stat.{s}" in _KEYS else s

    def ability_label(self, cid, aid) -> str:
        c = self.cards.get(cid)
        ab = next((a for a in c.abilities if a.id == aid), None) if c is not None else None
        if ab is not None:
            return ab.text.get(self.lang) if ab.text is not None else (ab.label or ab.id)
        kind, _, arg = aid.partition(":")
        if f"ability.{kind}" in _KEYS:
            return self.w(f"ability.{kind}", self.zone(arg)) if arg else self.w(f"ability.{kind}")
        return aid

    def ability(self, cid, aid, negated: bool = False) -> str:
        s = self.w("trace.ability", self.card_name(cid), self.ability_label(cid, aid))
        return self.w("trace.negated", s) if negated else s

    def results(self, evs, node=None) -> str:
        if not evs:
            return self.w("event.no_effect")
        return self.w("trace.then").join(self.event(e, node) for e in evs)

    def option(self, node: m.Node, oid: str) -> str:
        c = next((c for c in node.choices if c.id == oid), None)
        return self.text(c.label, oid) if c is not None and c.label is not None else oid

    # --- events -----------------------------------------------------------------------------------
    def entry(self, e) -> str:
        ev = e.event
        self.changes = e.changes  # what the events' narration may tell from (e.g. the state a card is placed in)
        s = self.event(ev, self.game.nodes.get(e.node))
        self.changes = ()
        if ev[0] in WHERE and e.changes:
            went = self.went(e.changes)
            if went:
                return self.w("trace.went", s, went)
        return s

    def went(self, changes) -> str:
        """Where each card the changes move ends up (and the state it is given)."""
        where: dict = {}
        for x in changes:
            if x[0] == "move":
                where[x[1]] = [x[3], None]
            elif x[0] == "state" and x[1] in where:
                where[x[1]][1] = x[3]
        if not where:  # no card moved (e.g. a rule that only decides a loss)
            return ""
        return self.list([self.w("trace.went.card", self.card_name(c), self.zone(z)) if st is None else
                          self.w("trace.went.card_state", self.card_name(c), self.zone(z), self.state(st))
                          for c, (z, st) in where.items()])

    def event(self, ev, node: m.Node | None = None) -> str:
        code = ev[0]
        fn = RENDER.get(code)
        if fn is not None:
            return fn(self, node, *ev[1:])
        return self.w(f"event.{code}", *ev[1:]) if f"event.{code}" in _KEYS else code


def _case(n: Narrator, node, cid, tested=()) -> str:
    if node is None:
        return cid
    if tested:
        return n.w("event.case.tested", _label(n, node), n.option(node, cid), cases(n, node, tested))
    return n.w("event.case", _label(n, node), n.option(node, cid))


def _otherwise(n: Narrator, node, tested=()) -> str:
    if node is None or not node.choices:
        return n.w("event.otherwise")
    if tested:
        return n.w("event.otherwise.tested", _label(n, node), cases(n, node, tested))
    return n.w("event.otherwise.cases", _label(n, node), n.list([n.option(node, c.id) for c in node.choices]))


def _label(n: Narrator, node) -> str:
    return n.text(node.label) if node is not None else ""


def _container(n: Narrator, node) -> str:
    return n.text(n.game.containers[node.container].label) if node is not None else ""


def _exit(n: Narrator, node, leaves) -> str:
    lbl = node.label if node is not None else None
    if lbl is not None and not any(lbl.en == f"leave the {x}" for x in DEFAULT_EXIT):
        return n.text(lbl)
    g = n.game
    target = g.containers[leaves].label if leaves in g.containers else (g.nodes[leaves].label if leaves in g.nodes else None)
    return n.w("event.exit", n.text(target, leaves or ""))


def _call(n: Narrator, node, args, amount=None) -> str:
    if not args:
        return _label(n, node)
    if amount is not None:  # the amount worked out: the number, and the value it was read from
        return n.w("event.call.amount", _label(n, node), amount, n.stat(dict(args)["amount"]))
    return n.w("event.call.args", _label(n, node), ", ".join(f"{k}={value_text(v) if isinstance(v, tuple) else v}"
                                                             for k, v in args))


def _trigger(n: Narrator, node, event, new) -> str:
    ev = n.game.events.get(event)
    name = n.text(ev.name, event) if ev is not None else event
    if not new:
        return n.w("event.trigger.none", name)
    return n.w("event.trigger", name, n.list([n.ability(c, a) for _, c, a in new]))


def _item(n: Narrator, node, over, item, i, total) -> str:
    it = next((x for x in n.game.lists.get(over, ()) if x.id == item), None)
    return n.w("event.item", n.text(it.name, item) if it is not None else item, i, total)


def _choose(n: Narrator, node, oid, did) -> str:
    lbl = n.option(node, oid)
    return n.w("event.choose.after", n.event(did, node), lbl) if did is not None else n.w("event.choose", lbl)


def _window_play(n: Narrator, node, cid, aid, done, paid=()) -> str:
    if done is None:
        s = n.w("event.window_play.stack", n.card_name(cid), n.ability_label(cid, aid))
    else:
        s = n.w("event.window_play", n.card_name(cid), n.ability_label(cid, aid), n.results(done, node))
    return n.w("event.window_play.paid", s, n.results(paid, node)) if paid else s


def _resolved(n: Narrator, node, pid, cid, aid, done) -> str:
    if done is None:
        return n.w("event.resolved.negated", n.ability(cid, aid))
    return n.w("event.resolved", n.ability(cid, aid), n.results(done, node))


def _rule(key):
    def render(n: Narrator, node, rp_id, pid, done):
        rp = n.game.rule_processes.get(rp_id)
        name = n.text(rp.name, rp_id) if rp is not None else rp_id
        return n.w(key, name, n.player(pid), n.results(done, node))
    return render


def _count(key):
    def render(n: Narrator, node, k):
        return n.w(f"{key}.none") if not k else n.w(key, k)
    return render


def _battle(n: Narrator, node, marks, gone, to, abolish) -> str:
    shown = n.list([n.w("trace.mark", n.card_name(c), d, hp) for c, d, hp in marks])
    if gone and to is None:
        return n.w("event.battle.nowhere", shown, n.card_list(gone))
    if not gone:
        return n.w("event.battle.none", shown)
    return n.w("event.battle.abolish" if abolish else "event.battle", shown, n.card_list(gone))


def _trigger_check(n: Narrator, node, cid, icons) -> str:
    if not icons:
        return n.w("event.trigger_check.none", n.card(cid))
    return n.w("event.trigger_check", n.card(cid), n.list([n.w(f"icon.{i}") if f"icon.{i}" in _KEYS else i for i in icons]))


def _trigger_icon(n: Narrator, node, cid, done) -> str:
    if not done:
        return n.w("event.trigger_icon.none", n.card(cid))
    parts = [n.w("event.icon_none", n.w(f"icon.{d[1]}") if f"icon.{d[1]}" in _KEYS else d[1]) if d[0] == "icon_none"
             else n.w(f"event.{d[0]}") for d in done]
    return n.w("event.trigger_icon", n.card(cid), n.list(parts))


def _place(n: Narrator, node, c, frm, to) -> str:
    """Placed, and in which state (sleeping, active, ...): the entry's change, else the card's own."""
    st = next((x[3] for x in n.changes if x[0] == "state" and x[1] == c), None)
    if st is None and n.cards.get(c) is not None:
        st = n.cards[c].state
    if st is None:
        return n.w("event.place", n.card(c), n.zone(frm), n.zone(to))
    return n.w("event.place.state", n.card(c), n.zone(frm), n.zone(to), n.state(st))


def _combat_damage(n: Narrator, node, step, hits) -> str:
    """Each hit of a combat damage step; a hit on a player with the value it lowered, before and after."""
    said, values = [], [x for x in n.changes if x[0] == "value"]
    for src, cid, pid, k in hits:
        if cid is not None:
            said.append(n.w("event.hit_card", n.card(src), n.card(cid), k))
            continue
        ch = next((x for x in values if x[1] == pid), None)
        if ch is not None:
            values.remove(ch)
            pv = (n.game.player_values or {}).get(ch[2])
            said.append(n.w("event.hit_player", n.card(src), n.player(pid), k,
                            n.text(pv.name if pv is not None else None, ch[2]), ch[3], ch[4]))
    what = n.w(f"act.step.{step}")
    return n.w("event.combat_damage", what, n.list(said)) if said else n.w("event.combat_damage.none", what)


RENDER = {
    "begin": lambda n, node: n.w("event.begin", _container(n, node)),
    "end": lambda n, node: n.w("event.end", _container(n, node)),
    "skipped": lambda n, node: n.w("event.skipped", _container(n, node)),
    "label": lambda n, node: _label(n, node),
    "closed": lambda n, node, inner: n.w("event.closed", n.event(inner, node)),
    "trigger": _trigger,
    "call": _call,
    "exit": _exit,
    "end_game": lambda n, node, result, losers: n.w("event.end_game", _label(n, node)),
    "loses": lambda n, node, pids: n.w("event.loses", n.list([n.player(p) for p in pids])),
    "case": _case,
    "otherwise": _otherwise,
    "loop": lambda n, node, holds, tested=(): (n.w("event.loop.tested", n.w("event.loop.on" if holds else "event.loop.off"),
                                                    cases(n, node, tested)) if tested else
                                               n.w("event.loop.on" if holds else "event.loop.off")),
    "item": _item,
    "items_done": lambda n, node: n.w("event.items_done"),
    "choose": _choose,
    "does": lambda n, node, did: n.w("event.does", n.event(did, node)),
    "declines": lambda n, node: n.w("event.declines"),
    "pass": lambda n, node, k: n.w("event.pass", k),
    "window_play": _window_play,
    "pick_card": lambda n, node, c: n.w("event.pick_card", n.card(c)),
    "stack_resolved": lambda n, node, k: n.w("event.stack_resolved", k),
    "resolved": _resolved,
    "rule": _rule("event.rule"),
    "interrupt": _rule("event.interrupt"),
    "rule_processing": _count("event.rule_processing"),
    "together": lambda n, node, done: n.results(done, node),
    "before_priority": lambda n, node, done: n.w("event.before_priority", n.results(done, node)),
    "stack_pending": lambda n, node, put: (n.w("event.stack_pending", n.list([n.ability(c, a) for _, c, a in put]))
                                           if put else n.w("event.stack_pending.none")),
    "at_once": _count("event.at_once"),
    "cannot_pay": lambda n, node, pid, c, a: n.w("event.cannot_pay", n.player(pid), n.ability(c, a)),
    "not_paid": lambda n, node, pid, c, a: n.w("event.not_paid", n.player(pid), n.ability(c, a)),
    "resolve": lambda n, node, pid, c, a, done: n.w("event.resolve", n.player(pid), n.ability(c, a), n.results(done, node)),
    "shuffle": lambda n, node, pid, z: n.w("event.shuffle", n.zone(z)),
    "draw": lambda n, node, pid, cards: n.w("event.draw", n.player(pid), len(cards), n.card_list(cards)),
    "cannot_draw": lambda n, node, pid: n.w("event.cannot_draw", n.player(pid)),
    "set_state": lambda n, node, cards, to: n.w("event.set_state", n.card_list(cards), n.state(to)),
    "move": lambda n, node, cards, frm, to: n.w("event.move", n.card_list(cards), n.zone(frm), n.zone(to)),
    "nothing_to_move": lambda n, node, frm: n.w("event.nothing_to_move", n.zone(frm)),
    "reveal": lambda n, node, cards: n.w("event.reveal", n.card_list(cards)),
    "discard": lambda n, node, k, cards: n.w("event.discard", k, n.card_list(cards)),
    "place": _place,
    "play": lambda n, node, c, a, done: n.w("event.play", n.card_name(c), n.results(done, node)),
    "pay": lambda n, node, k, c, cards, to: n.w("event.pay", k, n.card_name(c), n.card_list(cards), n.state(to)),
    "swap": lambda n, node, x, y: n.w("event.swap", n.card_name(x), n.card_name(y)),
    "attack": lambda n, node, c, d, front: (n.w("event.attack", n.card(c), n.card(d)) if d is not None else
                                            n.w("event.attack.open" if front else "event.attack.plain", n.card(c))),
    "forced_attack": lambda n, node, c: n.w("event.forced_attack", n.card(c)),
    "block": lambda n, node, c: n.w("event.block", n.card(c)),
    "modify": lambda n, node, c, stat, by, now: n.w("event.modify", n.card_name(c), n.stat(stat), by, now),
    "trigger_check": _trigger_check,
    "trigger_icon": _trigger_icon,
    # the target as the rules name it (a player's leader, the player, ...): the node's label
    "damage": lambda n, node, pid, k: (n.w("event.damage.to", n.player(pid), k, _label(n, node)) if node is not None
                                       else n.w("event.damage", n.player(pid), k)),
    "damage_judgment": lambda n, node, k, cards, total: n.w("event.damage_judgment", k, n.card_list(cards), total),
    "battle_power": lambda n, node, pa, pd, losers: (n.w("event.battle_power", pa, pd, n.card_list(losers)) if losers
                                                    else n.w("event.battle_power.none", pa, pd)),
    "battle": _battle,
    "reset_damage": lambda n, node, cards: (n.w("event.reset_damage", n.card_list(cards)) if cards
                                            else n.w("event.reset_damage.none")),
    "resolve_chosen": lambda n, node, c, a, done: n.w("event.resolve_chosen", n.card_name(c), n.results(done, node)),
    "damage_card": lambda n, node, c, k, to: (n.w("event.damage_card", n.card_name(c), k, n.zone(to)) if to is not None
                                              else n.w("event.damage_card.survives", n.card_name(c), k)),
    "negate": lambda n, node, c, a: n.w("event.negate", n.ability(c, a)),
    "attackers": lambda n, node, cards, pid: n.w("event.attackers", n.card_list(cards), n.player(pid)),
    "blockers": lambda n, node, pairs: (n.w("event.blockers", n.list([n.w("event.blocks", n.card(b), n.card(a))
                                                                     for b, a in pairs])) if pairs
                                        else n.w("event.blockers.none")),
    "combat_damage": _combat_damage,
    "change_value": lambda n, node, pid, name, old, new: n.w("event.change_value", n.player(pid),
                                                              n.text(n.game.player_values[name].name, name), old, new),
    "game_over": lambda n, node, result, losers: (n.w("event.game_over", n.list([n.player(p) for p in losers]))
                                                  if result == "lose" else n.w("event.game_over.draw")),
}

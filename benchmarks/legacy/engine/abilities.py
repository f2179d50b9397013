"""Events and triggered abilities, rule processing and pending abilities: an event queues the
abilities it triggers; rule processing applies check-type rules until none applies, and
interrupt-type rules whenever a card moves; pending abilities resolve one at a time."""
from __future__ import annotations

from tcgtiming.core import model as m
from tcgtiming.core.scenario import Ability
from .state import Pending, RCard, Registry, SimulationError, StackItem


CARD_EVENTS = {"attack_declared", "reversed", "placed", "played", "revealed", "left_stage", "entered"}

ABILITY_ACTIONS = Registry("act_")


class Abilities:
    """Events, triggered abilities and rule processing (a part of ``Interpreter``)."""

    rule_key: str | None = None  # the rule process being applied: its choices are keyed by its id

    def fire(self, event: str, subject: RCard | None = None, quiet: bool = False) -> None:
        self.event_counts[event] += 1
        n = self.event_counts[event]
        for pid in (self.turn_player, self.other(self.turn_player)):
            for z, cards in self.zones[pid].items():
                if z == "deck":
                    continue
                for card in cards:
                    for ab in card.spec.abilities:
                        if ab.kind != "auto" or ab.event != event:
                            continue
                        if ab.zone is not None and card.zone != ab.zone:
                            continue
                        if event in CARD_EVENTS and ab.subject == "self" and subject is not card:
                            continue
                        if ab.every and n % ab.every:
                            continue
                        if ab.condition is not None and not self.holds_for(ab.condition, card):
                            continue
                        self.pending[card.owner].append(Pending(ab, card, card.owner))

    def holds_for(self, cond, card) -> bool:
        saved = self.self_player
        self.self_player = card.owner
        try:
            return self.holds(cond)
        finally:
            self.self_player = saved

    def resolve_effects(self, ability: Ability, card: RCard, controller: str, item: StackItem | None,
                        target: RCard | None) -> str:
        out = []
        for eff in ability.effect:
            out.append(self.effects[eff.name](self, dict(eff.args), card, controller, item, target))
        return "; ".join(x for x in out if x) or "no effect"

    def rule_applies(self, rp, pid) -> bool:
        if rp.when is None:
            return False
        saved, self.self_player = self.self_player, pid
        try:
            return self.holds(rp.when)
        finally:
            self.self_player = saved

    def apply_rule(self, rp, pid):
        saved, self.self_player, self.rule_key = self.self_player, pid, rp.id
        try:
            for action in rp.actions:
                self.actions[action.name](self, None, dict(action.args))
        finally:
            self.self_player, self.rule_key = saved, None

    def interrupts(self):
        if self.in_interrupt:
            return
        self.in_interrupt = True
        try:
            for _ in range(20):
                fired = False
                for rp in self.game.rule_processes.values():
                    if rp.type == "interrupt":
                        for pid in (self.turn_player, self.other(self.turn_player)):
                            if self.rule_applies(rp, pid):
                                self.apply_rule(rp, pid)
                                self.rule_log.append(f"{rp.name.en} ({self.names[pid]})")
                                fired = True
                if not fired:
                    break
        finally:
            self.in_interrupt = False


@ABILITY_ACTIONS
def act_rule_processing(it, node, a):
    applied = []
    for _ in range(50):
        round_applied = False
        for rp in it.game.rule_processes.values():
            if rp.type != "check":
                continue
            for pid in (it.turn_player, it.other(it.turn_player)):
                if it.rule_applies(rp, pid):
                    it.apply_rule(rp, pid)
                    applied.append(f"{rp.name.en} ({pid})")
                    round_applied = True
        if it.losers:
            break  # the game's own end_game nodes end the game (they read the 'lost' predicate)
        if not round_applied:
            break
    return m.Text(f"ルール処理: {', '.join(applied) or 'なし'}", f"rule processing: {', '.join(applied) or 'nothing to do'}")


@ABILITY_ACTIONS
def act_lose(it, node, a):
    for p in it.players_of(a["player"]):
        if p not in it.losers:
            it.losers.append(p)


@ABILITY_ACTIONS
def act_resolve_pending(it, node, a):
    pid = it.player_of(a["player"])
    if not it.pending[pid]:
        return m.Text("待機中の能力なし", "no pending ability")
    p0 = it.pending[pid][0]
    ch = it.choice_at(node, decision=len(it.pending[pid]) > 1 or bool(p0.ability.cost))
    idx = 0
    if ch is not None and (ch.ability or ch.card):
        idx = next((i for i, p in enumerate(it.pending[pid])
                    if (ch.ability in (None, p.ability.id)) and (ch.card in (None, p.card.id))), -1)
        if idx < 0:
            raise SimulationError("R503", f"ability {ch.ability or ''} {('of ' + ch.card) if ch.card else ''} is not pending "
                                  f"for {it.who(pid)} (pending: {', '.join(x.label for x in it.pending[pid])})", ch.loc)
    elif len(it.pending[pid]) > 1 and it.strict:
        raise SimulationError("R501", f"unscripted order at '{node.id}': {it.who(pid)} has "
                              f"{len(it.pending[pid])} pending abilities", node.loc,
                              help=f"add a choice: {{at: {node.id}, ability: <ability id>}}")
    p = it.pending[pid].pop(idx)
    if p.ability.cost and not can_pay(it, p.ability, p.card, pid):
        return m.Text(f"{p.label}のコストを払えない", f"{it.names[pid]} cannot pay for {p.label}: no effect")
    if p.ability.cost:
        pay = ch.take != "no" if ch is not None and ch.take in ("yes", "no") else None
        if pay is None:
            if it.strict:
                raise SimulationError("R501", f"unscripted decision at '{node.id}': does {it.who(pid)} pay the cost of "
                                      f"{p.label}?", node.loc, help=f"add take: yes or take: no to the choice at {node.id}")
            it.policy_decisions += 1
            pay = it.policy != "pass"
        if not pay:
            return m.Text(f"{it.names[pid]}は{p.label}のコストを払わない", f"{it.names[pid]} does not pay for {p.label}: no effect")
        paid = [it.effects[cost.name](it, dict(cost.args), p.card, pid, None, None) for cost in p.ability.cost]
        done = "; ".join(paid + [it.resolve_effects(p.ability, p.card, p.controller, None, None)])
        return m.Text(f"{it.names[pid]}が{p.label}を解決: {done}", f"{it.names[pid]} resolves {p.label}: {done}")
    done = it.resolve_effects(p.ability, p.card, p.controller, None, None)
    return m.Text(f"{it.names[pid]}が{p.label}を解決: {done}", f"{it.names[pid]} resolves {p.label}: {done}")


def can_pay(it, ability, card, pid) -> bool:
    for cost in ability.cost:
        a = dict(cost.args)
        if cost.name == "move" and a.get("which", "top") == "top":
            who = pid if a.get("who", "controller") == "controller" else it.other(pid)
            if len(it.zone(who, a["from"])) < it.const(a.get("count", 1)):
                return False
    return True


@ABILITY_ACTIONS
def act_resolve_triggered(it, node, a):
    it.fire(a["event"])
    done = []
    for pid in (it.turn_player, it.other(it.turn_player)):
        while it.pending[pid]:
            p = it.pending[pid].pop(0)
            done.append(f"{p.label}: {it.resolve_effects(p.ability, p.card, p.controller, None, None)}")
    return m.Text(f"即時解決: {'; '.join(done) or 'なし'}", f"resolved at once: {'; '.join(done) or 'nothing'}")

"""Priority windows and the stack: who holds priority, what they play or whether they pass, when
the window closes, and the stack resolved newest first."""
from __future__ import annotations

from tcgtiming.core import model as m
from .state import Registry, SimulationError, StackItem

WINDOW_ACTIONS = Registry("act_")


class Windows:
    """Priority windows and the stack (a part of ``Interpreter``)."""

    def visit_window(self, node):
        w = node.window
        first = self.player_of(w.first)
        allowed = {self.player_of(r) for r in w.who}
        # abilities triggered just before a window go on the stack first (turn player's first)
        if w.resolve == "stack" and self.game.check_timing is None:
            for pid in (self.turn_player, self.other(self.turn_player)):
                while self.pending[pid]:
                    p = self.pending[pid].pop(0)
                    self.stack.append(StackItem(p.ability, p.card, p.controller, self.stack[-1] if self.stack else None))
        self.priority = first
        passes = 0
        need = w.passes if w.close == "consecutive_passes" else (len(allowed) if w.close == "all_pass" else 1)
        rounds = 0
        while True:
            rounds += 1
            if rounds > 200:
                raise SimulationError("R502", f"priority window '{node.id}' did not close after 200 decisions", node.loc)
            pid = self.priority
            play, by = self.window_decision(node, w, pid) if pid in allowed else (None, None)
            if play is None:  # a pass (a role that may not act here passes by itself)
                passes += 1
                if pid in allowed:
                    self.record(node, m.Text(f"パス（連続{passes}回）", f"passes ({passes} in a row)"), actor=pid, decided_by=by)
                self.priority = self.other(pid)
                if passes >= need:
                    if not self.close_window(node, w):
                        break
                    passes = 0
                    self.priority = first
                continue
            card, ab, target = play
            card.used = True
            item = StackItem(ab, card, pid, self.stack[-1] if self.stack else None, target)
            for cost in ab.cost:
                self.effects[cost.name](self, dict(cost.args), card, pid, item, target)
            passes = 0
            self.fire("played", subject=card)
            if w.resolve == "stack":
                self.stack.append(item)
                self.record(node, m.Text(f"{card.name}をプレイ（スタックへ）", f"plays {card.name}: {ab.label} (onto the stack)"),
                            actor=pid, decided_by=by)
            else:
                done = self.resolve_effects(ab, card, pid, item, target)
                self.record(node, m.Text(f"{card.name}をプレイ: {done}", f"plays {card.name}: {ab.label}: {done}"),
                            actor=pid, decided_by=by)
            if w.after_play == "alternate":
                self.priority = self.other(pid)
        self.priority = None
        return self.edge(node)

    def window_decision(self, node, w, pid):
        """What the player holding priority does: (card, ability, target) to play, or None to pass."""
        ch = self.next_choice(node.id, decision=True)
        if ch is not None and ch.take != "pass" and ch.card:
            card = self.cards.get(ch.card)
            if card is None or card.owner != pid:
                raise SimulationError("R503", f"{ch.card} is not a card of {self.who(pid)}, who holds priority at '{node.id}'",
                                      ch.loc, help="choices at a window are taken in priority order")
            ab = next((x for x in card.spec.abilities if x.kind == "activated" and (ch.ability in (None, x.id))), None)
            if ab is None or ab.play not in w.plays:
                kinds = ", ".join(w.plays) or "none"
                raise SimulationError("R503", f"{card.name} [{card.id}] cannot be played at '{node.id}' "
                                      f"({node.label.en}): allowed here: {kinds}", ch.loc)
            return (card, ab, self.cards.get(ch.target) if ch.target else None), "scenario"
        if ch is not None:
            return None, "scenario"
        if self.strict:
            raise SimulationError("R501", f"unscripted priority decision at '{node.id}' for {self.who(pid)}", node.loc,
                                  help=f"add a choice: {{at: {node.id}, take: pass}}")
        self.policy_decisions += 1
        options = self.playable(pid, w) if self.policy in ("first", "random") else []
        if not options:
            return None, f"policy:{self.policy}"
        return (options[0] if self.policy == "first" else self.rng.choice(options)), f"policy:{self.policy}"

    def close_window(self, node, w) -> bool:
        """Both passed: resolve the stack (if any). True when the window reopens."""
        self.priority = None
        if not self.stack:
            self.record(node, m.Text("連続パスで終了", "closes: passes in a row"))
            return False
        what = self.resolve_stack()
        self.record(node, what)
        return w.after_resolve == "reopen"

    def playable(self, pid, w):
        out = []
        for z in ("hand", "stage", "control_area"):
            for card in self.zones[pid].get(z, []):
                if card.used:
                    continue
                for ab in card.spec.abilities:
                    if ab.kind == "activated" and ab.play in w.plays:
                        out.append((card, ab, None))
        return out

    def resolve_stack(self) -> m.Text:
        done = []
        while self.stack:
            item = self.stack.pop()
            if item.negated:
                done.append(f"{item.card.name}: negated, no effect")
                continue
            done.append(f"{item.card.name}: {self.resolve_effects(item.ability, item.card, item.controller, item, item.target)}")
        return m.Text("新しい順に解決: " + " / ".join(done), "resolved newest first: " + " / ".join(done))


@WINDOW_ACTIONS
def act_resolve(it, node, a):
    if not it.stack and it.chosen is not None:
        ab = next((x for x in it.chosen.spec.abilities if x.kind == "activated"), None)
        if ab is not None:
            done = it.resolve_effects(ab, it.chosen, it.chosen.owner, None, None)
            return m.Text(f"{it.chosen.name}を解決: {done}", f"{it.chosen.name} resolves: {done}")
        return m.Text("解決するものなし", "nothing to resolve")
    return it.resolve_stack()

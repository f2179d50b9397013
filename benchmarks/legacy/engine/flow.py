"""Node kinds: one method per kind (``visit_<kind>``), each returning the next node id (None: the
turn ends). Begin and end of containers, automatic and closed actions, triggers, calls and check
timings, gotos and exits, the end of the game, branches, loops, for-each and player actions.
(Priority windows: ``windows``.)"""
from __future__ import annotations

from tcgtiming.core import model as m
from .state import Frame, SimulationError


class Flow:
    """The node kinds of the walk (a part of ``Interpreter``)."""

    def visit_begin(self, node):
        c = self.game.containers[node.container]
        if self.loops:  # entering a container afresh: its for-each loops start over
            inside = set(c.nodes)
            for nid in [k for k in self.loops if k in inside]:
                del self.loops[nid]
        self.record(node, m.Text(f"{c.label.ja}開始", f"{c.label.en}: start"))
        return self.edge(node)

    def visit_end(self, node):
        c = self.game.containers[node.container]
        self.record(node, m.Text(f"{c.label.ja}終了", f"{c.label.en}: end"))
        if c.kind == "procedure":
            frame = self.frames.pop()
            for e in self.game.successors(node.id):
                if e.kind == "return" and e.via == frame.call:
                    return e.dst
            raise SimulationError("R503", f"no return edge from '{node.id}' to the caller '{frame.call}'", node.loc)
        if c.kind == "turn":
            return None
        return self.edge(node)

    def visit_auto(self, node):
        actor = self.player_of(node.action.arg("player")) if node.action and node.action.arg("player") else None
        what = self.perform(node, node.action, actor)
        self.record(node, what, actor=actor)
        return self.edge(node)

    def visit_closed(self, node):
        what = self.perform(node, node.action, None)
        self.record(node, m.Text(f"（プレイ不可）{what.ja}", f"(no plays) {what.en}"))
        return self.edge(node)

    def visit_trigger(self, node):
        before = {p: len(v) for p, v in self.pending.items()}
        self.fire(node.event)
        new = [x.label for p in self.players for x in self.pending[p][before[p]:]]
        ev = self.game.events[node.event].name
        what = m.Text(f"「{ev.ja}」で待機: {', '.join(new) or 'なし'}",
                      f"'{ev.en}' triggers: {', '.join(new) or 'nothing'}")
        self.record(node, what)
        return self.edge(node)

    def visit_check(self, node):
        return self.visit_call(node)

    def visit_call(self, node):
        args = {}
        for k, v in node.call_args:
            args[k] = v
        if "amount" in args:  # a call that deals damage sets the points still to deal
            self.damage_left = self.value_of(args["amount"])
        self.frames.append(Frame(node.id, args))
        if node.callee == "check_timing" or node.kind == "check":
            self.fire("check_timing", quiet=True)
        self.record(node, m.Text(f"{node.label.ja}", f"{node.label.en}" + (f" ({', '.join(f'{k}={v}' for k, v in node.call_args)})" if node.call_args else "")))
        return self.edge(node, "call")

    def value_of(self, v) -> int:
        if isinstance(v, int):
            return v
        if isinstance(v, str) and v in self.game.constants:
            return self.const(v)
        if isinstance(v, str) and self.attack is not None:
            return max(0, self.attack.attacker.stat(v))
        return 0

    def visit_goto(self, node):
        self.record(node, node.label)
        return node.target

    def visit_exit(self, node):
        self.record(node, node.label)
        for nid in [k for k in self.loops if k in node.loops]:
            del self.loops[nid]  # leaving a for-each early: it starts over next time
        return node.target

    def visit_end_game(self, node):
        if node.result == "draw":
            self.result = "draw"
            self.losers = list(self.players)
        else:
            pids = self.players_of(node.player)
            loser = pids if node.result == "lose" else [self.other(p) for p in pids]
            self.result = "lose"
            self.losers = loser
        self.record(node, m.Text(f"ゲーム終了: {node.label.ja}", f"game over: {node.label.en}"))
        return None

    def visit_branch(self, node):
        for choice in node.choices:
            if self.holds(choice.when, node):
                lbl = choice.label or m.Text(choice.id, choice.id)
                self.record(node, m.Text(f"{lbl.ja}", f"{lbl.en}"))
                return choice.entry
        self.record(node, m.Text("どれにも当たらない", "no case holds: otherwise"))
        return node.otherwise

    def visit_loop(self, node):
        if self.holds(node.condition, node):
            self.record(node, m.Text("続ける", "condition holds: once more"))
            return self.edge(node, "loop")
        self.record(node, m.Text("終わる", "condition no longer holds: done"))
        return self.edge(node, "exit")

    def visit_foreach(self, node):
        items = self.game.lists[node.over]
        i = self.loops.get(node.id, 0)
        if i < len(items):
            self.loops[node.id] = i + 1
            self.vars[node.var] = items[i].id
            self.record(node, m.Text(f"{items[i].name.ja}（{i + 1}/{len(items)}）", f"{items[i].name.en} ({i + 1}/{len(items)})"))
            return self.edge(node, "loop")
        self.loops.pop(node.id, None)
        self.vars.pop(node.var, None)
        self.record(node, m.Text("すべて終えた", "every item done"))
        return self.edge(node, "exit")

    def visit_player(self, node):
        actor = self.player_of(node.actor) if node.actor not in ("any", "both") else self.turn_player
        ch, by = self.decide(node, actor)
        if node.choices or node.may:  # a decision: what it chose (a do-only action keeps the earlier choice)
            self.chosen = self.cards.get(ch.card) if ch is not None and ch.card else None
        if node.choices:
            did = self.perform(node, node.action, actor) if node.action else None  # e.g. choose the attacker first
            available = [c for c in node.choices if c.when is None or self.holds(c.when, node)]
            if not available:
                raise SimulationError("R503", f"no option of '{node.id}' is available", node.loc)
            if ch is not None and ch.take is not None:
                pick = next((c for c in available if c.id == ch.take), None)
                if pick is None:
                    raise SimulationError("R503", f"option '{ch.take}' of '{node.id}' is not available now "
                                          f"(available: {', '.join(c.id for c in available)})", ch.loc)
            else:
                pick = self.policy_pick(node, available)
            self.decisions[node.id] = pick.id
            lbl = pick.label or m.Text(pick.id, pick.id)
            pre = f"{did.en}; " if did else ""
            pre_ja = f"{did.ja}、" if did else ""
            self.record(node, m.Text(f"{pre_ja}「{lbl.ja}」を選ぶ", f"{pre}chooses '{lbl.en}'"), actor=actor, decided_by=by)
            return pick.entry
        if node.may:
            yes = (ch.take != "no") if ch is not None else self.policy != "pass"
            self.decisions[node.id] = "yes" if yes else "no"
            if yes:
                did = self.perform(node, node.action, actor)
                self.record(node, m.Text(f"行う: {did.ja}", f"does it: {did.en}"), actor=actor, decided_by=by)
            else:
                self.record(node, m.Text("行わない", "declines"), actor=actor, decided_by=by)
            return self.edge(node)
        did = self.perform(node, node.action, actor)
        self.record(node, did, actor=actor, decided_by=by if ch is not None or node.action else None)
        return self.edge(node)

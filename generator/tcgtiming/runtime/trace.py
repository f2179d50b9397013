"""Trace formats: text (colour-coded like the sources), JSON Lines, Markdown - each in one language,
narrated from the entries' events (``narrate``); JSON Lines and text can also be written as the
run goes (``Stream``), so a run of any length streams in flat memory.

JSON Lines: one object per trace entry, keys always in this order:
  seq (int, 1-based), turn (int), game, scenario, node (node id), kind (node kind, or rule,
  interrupt, resolve for an entry made inside a node's work), phase, step, procedure (null outside
  procedures), actor (player id or null), role (role id or null), decided_by ("scenario",
  "policy:<name>" or null), event ([code, args...]: what happened, as facts), changes ([[what,
  args...], ...]: cards moved, states and values changed, in order), pending ({player id: [[card
  id, ability id], ...]}), stack ([[card id, ability id, negated], ...], bottom first), priority
  (player id or null), cite ([source#section]), text (the narration, in the chosen language).
"""
from __future__ import annotations

import json

from ..core.text import md_cell, md_text, width
from ..core.words import word
from .engine import Entries, Run
from .narrate import Narrator

# the sources' colours: green = player action, blue = automatic, red = check timing
COLOURS = {"player": "32", "check": "31", "window": "35", "closed": "90", "end_game": "1;31"}
BLUE = "34"
QUIET_KINDS = ("begin", "end", "branch", "goto", "exit", "loop")
NOTHING = ("rule_processing", 0)


def _colour(kind: str) -> str:
    return COLOURS.get(kind, BLUE)


def compact(entries) -> list[tuple]:
    """(entry, folded) pairs: every procedure run in which nothing happened (no rule applied, no
    ability, no decision) folded into its call entry (folded True). For reading; JSON keeps all."""
    out, i = [], 0
    entries = list(entries)
    while i < len(entries):
        e = entries[i]
        out.append((e, False))
        i += 1
        if e.kind not in ("check", "call") or i >= len(entries) or entries[i].kind != "begin":
            continue
        depth, j = 0, i
        while j < len(entries):  # the procedure's own entries, up to its end (nested calls included)
            x = entries[j]
            if x.kind == "begin" and x.procedure is not None:
                depth += 1
            elif x.kind == "end" and x.procedure is not None:
                depth -= 1
                if depth == 0:
                    break
            j += 1
        inside = entries[i:j + 1]
        if all(x.kind in QUIET_KINDS or (x.kind == "auto" and x.event == NOTHING) for x in inside):
            out[-1] = (e, True)
            i = j + 1
    return out


def _data(x):
    if isinstance(x, (tuple, list)):
        return [_data(y) for y in x]
    return x


class Formatter:
    """The lines of one run's trace in one language."""

    def __init__(self, game, scenario, lang: str = "en"):
        self.game, self.sc, self.lang = game, scenario, lang
        self.n = Narrator(game, scenario, lang)
        self.names = self.n.names

    def w(self, key, *args) -> str:
        return word(key, self.lang, *args)

    def what(self, e, folded: bool = False) -> str:
        s = self.n.entry(e)
        return self.w("trace.nothing_happens", s) if folded else s

    def kind(self, e) -> str:
        return self.w(f"kind.{e.kind}")

    def pending(self, e) -> str:
        n = self.n
        return " | ".join(f"{n.player(p)}: {', '.join(n.ability(c, a) for c, a in v)}" for p, v in e.pending if v)

    def stack(self, e) -> str:
        return " < ".join(self.n.ability(c, a, neg) for c, a, neg in e.stack)

    def data(self, e) -> dict:
        return {
            "seq": e.seq, "turn": e.turn, "game": self.game.id, "scenario": self.sc.id, "node": e.node, "kind": e.kind,
            "phase": e.phase, "step": e.step, "procedure": e.procedure, "actor": e.actor, "role": e.role,
            "decided_by": e.decided_by, "event": _data(e.event), "changes": _data(e.changes),
            "pending": {p: _data(v) for p, v in e.pending}, "stack": _data(e.stack), "priority": e.priority,
            "cite": list(e.cites), "text": self.what(e),
        }

    def jsonl(self, e) -> str:
        return json.dumps(self.data(e), ensure_ascii=False, separators=(", ", ": ")) + "\n"

    def text_lines(self, e, folded: bool = False, colour: bool = False) -> list[str]:
        def c(text, code):
            return f"\x1b[{code}m{text}\x1b[0m" if colour else text

        out = []
        if e.kind == "begin" and e.procedure is None and e.event[0] == "begin":
            box = self.game.containers.get(self.game.nodes[e.node].container) if e.node in self.game.nodes else None
            if box is not None and box.kind == "turn":  # the turn's number, and who holds which role
                out.append(c(self.w("trace.turn_head", e.turn, e.label.get(self.lang), self.n.roles_in(e.turn)), "1"))
            else:
                out.append(c(f"== {e.label.get(self.lang)} ==", "1"))
        indent = "  " * (1 if e.procedure else 0)
        who = f" {self.names.get(e.actor, e.actor)}:" if e.actor else ""
        kind = self.kind(e)
        head = f"{e.seq:>4} {indent}{e.node:<34} {kind}{' ' * max(0, 8 - width(kind))}"
        extra = []
        if any(v for _, v in e.pending):
            extra.append(self.w("trace.pending", self.pending(e)))
        if e.stack:
            extra.append(self.w("trace.stack", self.stack(e)))
        if e.priority:
            extra.append(self.w("trace.priority", self.names.get(e.priority, e.priority)))
        if e.decided_by and e.decided_by != "scenario":
            policy = e.decided_by.partition(":")[2]
            extra.append(self.w("trace.policy", self.w(f"policy.{policy}") if policy in ("pass", "first", "random") else policy))
        tail = f"  [{'; '.join(extra)}]" if extra else ""
        cite = f"  ({', '.join(e.cites)})" if e.cites else ""
        out.append(c(head, _colour(e.kind)) + f"{who} {self.what(e, folded)}" + tail + c(cite, "2"))
        return out

    def summary(self, run: Run) -> list[str]:
        out = []
        if run.result == "ongoing":
            out.append(self.w("trace.result.ongoing"))
        elif run.result == "draw":
            out.append(self.w("trace.result.draw"))
        else:
            out.append(self.w("trace.result.lose", self.n.list([self.w("trace.player", self.names.get(p, p), p)
                                                              for p in run.losers])))
        board = run.board
        for pid, zones in run.zones:
            parts = "; ".join(f"{self.n.zone(z)}: {', '.join(self.card_at_end(c, board) for c in ids)}" for z, ids in zones)
            out.append(f"  {self.w('trace.player', self.names.get(pid, pid), pid)}: {parts}")
        if run.policy_decisions:
            out.append(self.w("trace.policy_decisions", run.policy_decisions))
        return out

    def card_at_end(self, cid: str, board: dict) -> str:
        """A card id with its state, damage and changed values at the end (none: the id alone)."""
        state, damage, values = board.get(cid, (None, 0, ()))
        facts = ([self.n.state(state)] if state else []) + ([self.w("trace.end_damage", damage)] if damage else []) + \
            [f"{self.n.stat(k)} {v}" for k, v in values]
        return f"{cid} ({self.w('trace.sep').join(facts)})" if facts else cid

    def markdown_row(self, e, folded: bool = False) -> str:
        who = self.names.get(e.actor, e.actor) or ""
        prio = self.names.get(e.priority, e.priority) or ""
        return (f"| {e.seq} | `{e.node}` | {md_cell(self.kind(e))} | {md_cell(who)} | {md_cell(self.what(e, folded))} | "
                f"{md_cell(self.pending(e))} | {md_cell(self.stack(e))} | {md_cell(prio)} | {md_cell(', '.join(e.cites))} |")

    def markdown_head(self) -> list[str]:
        cols = [self.w(f"trace.col.{k}") for k in ("n", "node", "kind", "who", "what", "pending", "stack", "priority", "rule")]
        return ["| " + " | ".join(cols) + " |", "|---:|---|---|---|---|---|---|---|---|"]


def _fmt(run: Run, lang: str) -> Formatter:
    return Formatter(run.rules, run.setup, lang)


def as_jsonl(run: Run, lang: str = "en") -> str:
    f = _fmt(run, lang)
    return "".join(f.jsonl(e) for e in run.entries)


def as_text(run: Run, names: dict | None = None, lang: str = "en", colour: bool = False, brief: bool = False) -> str:
    f = _fmt(run, lang)
    rows = compact(run.entries) if brief else [(e, False) for e in run.entries]
    lines = [x for e, folded in rows for x in f.text_lines(e, folded, colour)]
    return "\n".join(lines + [""] + f.summary(run)) + "\n"


def as_markdown(run: Run, names: dict | None = None, lang: str = "en", title: str | None = None, brief: bool = False) -> str:
    f = _fmt(run, lang)
    rows = compact(run.entries) if brief else [(e, False) for e in run.entries]
    top = [f"# {md_text(title)}", ""] if title else []  # rule and scenario text never becomes Markdown
    body = [f.markdown_row(e, folded) for e, folded in rows]
    return "\n".join(top + f.markdown_head() + body + [""] + [f"- {md_text(x.strip())}" for x in f.summary(run)]) + "\n"


class Stream:
    """A sink for ``engine.simulate(..., sink=...)`` that writes each entry as it is made (JSON Lines
    or text, in one language): memory stays flat however long the run. ``finish(run)`` writes the
    summary (text)."""

    def __init__(self, program, scenario, write, fmt: str = "json", lang: str = "en", colour: bool = False,
                 observe=None):
        self.f = Formatter(program.game, scenario, lang)
        self.observe = observe  # a function given each entry too (e.g. ``runtime.expect.Checking.feed``)
        self.entries = Entries(program, scenario)
        self.write, self.fmt, self.colour = write, fmt, colour
        self.seq = 0

    def __call__(self, rec) -> None:
        e = self.entries.feed(rec)
        if e is None:
            return
        self.seq = e.seq
        if self.observe is not None:
            self.observe(e)
        if self.fmt == "json":
            self.write(self.f.jsonl(e))
        else:
            self.write("\n".join(self.f.text_lines(e, colour=self.colour)) + "\n")

    def finish(self, run: Run) -> None:
        if self.fmt != "json":
            self.write("\n" + "\n".join(self.f.summary(run)) + "\n")

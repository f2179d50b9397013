"""Trace formats: text (colour-coded like the sources), JSON Lines, Markdown.

JSON Lines: one object per trace entry, keys always in this order:
  seq (int, 1-based), turn (int), game, scenario, node (node id), kind (node kind), phase, step,
  procedure (null outside procedures), label {ja, en}, actor (player id or null),
  role (role id or null), what {ja, en} (what happened), pending {player id: [ability labels]},
  stack [labels, bottom first], priority (player id or null), cite [source#section],
  decided_by ("scenario", "policy:<name>" or null).
"""
from __future__ import annotations

import json

from .engine import Run
from tcgtiming.core.model import Text
from tcgtiming.core.text import md_cell

# the sources' colours: green = player action, blue = automatic, red = check timing
COLOURS = {"player": "32", "check": "31", "window": "35", "closed": "90", "end_game": "1;31"}
BLUE = "34"


def _colour(kind: str) -> str:
    return COLOURS.get(kind, BLUE)


QUIET_KINDS = ("begin", "end", "branch", "goto", "exit", "loop")


def compact(entries) -> list:
    """The entries with every procedure run in which nothing happened (no rule applied, no ability,
    no decision) folded into its call entry, whose text then says so. For reading; JSON keeps all."""
    out, i = [], 0
    entries = list(entries)
    while i < len(entries):
        e = entries[i]
        out.append(e)
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
        if all(x.kind in QUIET_KINDS or (x.kind == "auto" and x.what.en.endswith("nothing to do")) for x in inside):
            folded = e._replace(what=Text(e.what.ja + "（何も起きない）", e.what.en + " (nothing happens)"))
            out[-1] = folded
            i = j + 1
    return out


def entry_data(run: Run, e) -> dict:
    return {
        "seq": e.seq, "turn": e.turn, "game": run.game, "scenario": run.scenario, "node": e.node, "kind": e.kind,
        "phase": e.phase, "step": e.step, "procedure": e.procedure,
        "label": {"ja": e.label.ja, "en": e.label.en}, "actor": e.actor, "role": e.role,
        "what": {"ja": e.what.ja, "en": e.what.en}, "pending": {p: list(v) for p, v in e.pending},
        "stack": list(e.stack), "priority": e.priority, "cite": list(e.cites), "decided_by": e.decided_by,
    }


def as_jsonl(run: Run) -> str:
    return "".join(json.dumps(entry_data(run, e), ensure_ascii=False, separators=(", ", ": ")) + "\n" for e in run.entries)


def summary_lines(run: Run, names: dict, lang: str = "en") -> list[str]:
    out = []
    if run.result == "ongoing":
        out.append("result: the turn ended; the game goes on" if lang == "en" else "結果: ターン終了（ゲーム続行）")
    elif run.result == "draw":
        out.append("result: draw" if lang == "en" else "結果: 引き分け")
    else:
        who = ", ".join(f"{names.get(p, p)} ({p})" for p in run.losers)
        out.append(f"result: {who} loses" if lang == "en" else f"結果: {who} の敗北")
    for pid, zones in run.zones:
        parts = "; ".join(f"{z}: {', '.join(ids)}" for z, ids in zones)
        out.append(f"  {names.get(pid, pid)} ({pid}): {parts}")
    if run.policy_decisions:
        out.append(f"decisions made by the policy (not scripted): {run.policy_decisions}")
    return out


def as_text(run: Run, names: dict, lang: str = "en", colour: bool = False, brief: bool = False) -> str:
    def c(text, code):
        return f"\x1b[{code}m{text}\x1b[0m" if colour else text

    lines = []
    for e in (compact(run.entries) if brief else run.entries):
        if e.kind == "begin" and e.procedure is None:
            lines.append(c(f"== {e.label.get(lang)} ==", "1"))
        indent = "  " * (1 if e.procedure else 0)
        who = f" {names.get(e.actor, e.actor)}:" if e.actor else ""
        head = f"{e.seq:>4} {indent}{e.node:<34} {e.kind:<8}"
        body = f"{who} {e.what.get(lang)}"
        extra = []
        pend = [f"{names.get(p, p)}: {', '.join(v)}" for p, v in e.pending if v]
        if pend:
            extra.append("pending " + " | ".join(pend))
        if e.stack:
            extra.append("stack " + " < ".join(e.stack))
        if e.priority:
            extra.append(f"priority {names.get(e.priority, e.priority)}")
        if e.decided_by and e.decided_by != "scenario":
            extra.append(e.decided_by)
        tail = f"  [{'; '.join(extra)}]" if extra else ""
        cite = f"  ({', '.join(e.cites)})" if e.cites else ""
        lines.append(c(head, _colour(e.kind)) + body + tail + c(cite, "2"))
    lines.append("")
    lines += summary_lines(run, names, lang)
    return "\n".join(lines) + "\n"




def as_markdown(run: Run, names: dict, lang: str = "en", title: str | None = None, brief: bool = False) -> str:
    head = ["| # | node | kind | who | what happened | pending | stack | priority | rule |",
            "|---:|---|---|---|---|---|---|---|---|"]
    rows = []
    for e in (compact(run.entries) if brief else run.entries):
        pend = "; ".join(f"{names.get(p, p)}: {', '.join(v)}" for p, v in e.pending if v)
        rows.append(f"| {e.seq} | `{e.node}` | {e.kind} | {md_cell(names.get(e.actor, e.actor) or '')} | {md_cell(e.what.get(lang))} | "
                    f"{md_cell(pend)} | {md_cell(' < '.join(e.stack))} | {md_cell(names.get(e.priority, e.priority) or '')} | "
                    f"{md_cell(', '.join(e.cites))} |")
    top = [f"# {title}", ""] if title else []
    return "\n".join(top + head + rows + [""] + [f"- {x.strip()}" for x in summary_lines(run, names, lang)]) + "\n"

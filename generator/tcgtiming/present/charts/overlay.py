"""Trace overlays: the path an interpreter trace took through a game, read from a JSON Lines file and
laid onto the model's edges."""
from __future__ import annotations

import json
from dataclasses import dataclass

from ...core.diagnostics import Diagnostic, did_you_mean
from ...core.model import Game
from ...core.text import editor_lines


@dataclass
class Overlay:
    """What a trace visited in one game: node -> seqs, model edge (src, dst) -> seqs of arrival,
    (call node, node after the call) -> seqs, and the path itself."""

    path: list[tuple[int, str]]
    nodes: dict[str, list[int]]
    edges: dict[tuple[str, str], list[int]]
    after: dict[tuple[str, str], list[int]]
    hops: list[tuple[int, object]]  # (seq of arrival, model edge), in order
    gaps: int = 0


def _hops(game: Game, a: str, b: str, stack: list[str]):
    """The model edges walked from a to b: the direct edge, or a path through start/end nodes only
    (a trace may leave out the synthetic begin/end nodes). None when there is no such path."""
    def ok(e) -> bool:
        return e.kind != "return" or not stack or e.via == stack[-1]

    direct = [e for e in game.successors(a) if e.dst == b]
    if direct:
        good = [e for e in direct if ok(e)]
        return [(good or direct)[0]]
    frontier = [(a, [], list(stack))]
    seen = {a}
    for _ in range(6):
        nxt = []
        for node, path, st in frontier:
            for e in game.successors(node):
                if e.kind == "return" and st and e.via != st[-1]:
                    continue
                st2 = st[:-1] if e.kind == "return" and st else (st + [e.src] if e.kind == "call" else st)
                if e.dst == b:
                    return path + [e]
                if e.dst not in seen and game.nodes[e.dst].kind in ("begin", "end"):
                    seen.add(e.dst)
                    nxt.append((e.dst, path + [e], st2))
        frontier = nxt
        if not frontier:
            break
    return None


def build_overlay(game: Game, steps: list[tuple[int, str]]) -> Overlay:
    path = sorted(steps)
    ov = Overlay(path, {}, {}, {}, [])
    for seq, n in path:
        ov.nodes.setdefault(n, []).append(seq)
    stack: list[str] = []
    for (_, a), (seq, b) in zip(path, path[1:]):
        if a == b:  # still at the same node (another pass or play in a priority window)
            continue
        hops = _hops(game, a, b, stack)
        if hops is None:
            ov.gaps += 1
            continue
        for e in hops:
            ov.edges.setdefault((e.src, e.dst), []).append(seq)
            ov.hops.append((seq, e))
            if e.kind == "call":
                stack.append(e.src)
            elif e.kind == "return":
                via = stack.pop() if stack else e.via
                ov.after.setdefault((via, e.dst), []).append(seq)
            if game.nodes[e.dst].kind in ("begin", "end") and e.dst != b:
                ov.nodes.setdefault(e.dst, []).append(seq)
    for v in ov.nodes.values():
        v.sort()
    return ov


def visits_text(seqs: list[int] | tuple[int, ...], limit: int = 4) -> str:
    """The first seqs of a node's or an edge's visits, as a chart shows them: ``#3 #7 …``."""
    shown = " ".join(f"#{s}" for s in seqs[:limit])
    return shown + (" …" if len(seqs) > limit else "")


# --- reading a trace -----------------------------------------------------------------------------


class TraceError(Exception):
    """A trace that cannot be drawn: its diagnostics, sorted, and the trace's lines to locate them."""

    def __init__(self, path: str, diagnostics: list[Diagnostic], lines: list[str]):
        super().__init__(f"{path}: {len(diagnostics)} problem(s) in the trace")
        self.path = path
        self.diagnostics = diagnostics
        self.lines = lines


def trace_overlays(path: str, games: dict[str, Game]) -> dict[str, Overlay]:
    """The overlay of every game a trace visits (its gaps counted in ``Overlay.gaps``); raises
    TraceError when the trace is unreadable or names a game or node that is not drawn."""
    entries, diags, lines = read_trace(path)
    diags = sorted(diags + check_trace(entries, games, path, lines), key=lambda d: d.sort_key())
    if diags:
        raise TraceError(path, diags, lines)
    by_game: dict[str, list[tuple[int, str]]] = {}
    for seq, node, gid, _line in entries:
        by_game.setdefault(gid, []).append((seq, node))
    return {g: build_overlay(games[g], steps) for g, steps in by_game.items()}


def read_trace(path: str):
    """Entries (seq, node, game, line) of a JSON Lines trace, and diagnostics for what is wrong in it.
    Unknown fields are ignored."""
    diags: list[Diagnostic] = []
    entries: list[tuple[int, str, str, int]] = []
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [], [Diagnostic("Y108", f"the trace is not UTF-8 text ({exc.reason})", path, 0, 0)], []
    except OSError as exc:
        return [], [Diagnostic("Y100", f"cannot read the trace: {exc.strerror}", path, 0, 0)], []
    lines = editor_lines(text)  # a JSON string may hold a raw U+2028: not a line break
    seen: dict[int, int] = {}
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            diags.append(Diagnostic("Y101", f"not valid JSON: {exc.msg}", path, i, exc.colno))
            continue
        except RecursionError:  # arrays or objects nested thousands deep
            diags.append(Diagnostic("Y106", "nesting too deep: a trace entry is one flat JSON object", path, i, 1))
            continue
        if not isinstance(obj, dict):
            diags.append(Diagnostic("S203", "a trace line must be a JSON object", path, i, 1, len(line)))
            continue
        bad = False
        for key, typ in (("seq", int), ("node", str), ("game", str)):
            if key not in obj:
                diags.append(Diagnostic("S202", f"missing key '{key}' in a trace entry", path, i, 1, len(line)))
                bad = True
            elif not isinstance(obj[key], typ) or isinstance(obj[key], bool):
                col = line.find(f'"{key}"') + 1 or 1
                diags.append(Diagnostic("S203", f"'{key}' must be {'an integer' if typ is int else 'a string'}",
                                        path, i, col, len(key) + 2))
                bad = True
        if bad:
            continue
        col = line.find('"seq"') + 1 or 1
        if obj["seq"] < 1:
            diags.append(Diagnostic("S204", f"'seq' must be 1 or more, not {obj['seq']}", path, i, col, 5))
            continue
        if obj["seq"] in seen:
            diags.append(Diagnostic("S204", f"seq {obj['seq']} appears twice (first on line {seen[obj['seq']]})",
                                    path, i, col, 5))
            continue
        seen[obj["seq"]] = i
        entries.append((obj["seq"], obj["node"], obj["game"], i))
    if not entries and not diags:
        diags.append(Diagnostic("Y109", "the trace holds no entry", path, 0, 0))
    return entries, diags, lines


def check_trace(entries, games: dict[str, Game], path: str, lines: list[str]) -> list[Diagnostic]:
    """Diagnostics for the entries of a trace whose game or node is not among the games drawn."""
    diags = []
    for seq, node, gid, line in entries:
        text = lines[line - 1]
        if gid not in games:
            col = text.find(json.dumps(gid, ensure_ascii=False)) + 1 or 1
            diags.append(Diagnostic("C302", f"unknown game '{gid}' in the trace (rendering: "
                                    f"{', '.join(sorted(games))})", path, line, col, len(gid) + 2,
                                    help=did_you_mean(gid, games)))
        elif node not in games[gid].nodes:
            col = text.find(json.dumps(node, ensure_ascii=False)) + 1 or 1
            diags.append(Diagnostic("C302", f"unknown node '{node}' in game '{gid}'", path, line, col,
                                    len(node) + 2, help=did_you_mean(node, games[gid].nodes)))
    return diags

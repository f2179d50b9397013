"""The trace player of a scenario page: the run's entries as data (the node, who acted, what
happened in the page's language, pending abilities, the stack, priority and the changes each entry
made) with the starting zones, for ``assets/player.js``, which steps through them forward and back,
rebuilds the zones from the changes and highlights the entry's node on the page's chart.

The data is JSON inside ``<script type="application/json">``: ``<``, ``>`` and ``&`` are written as
``\\u003c``, ``\\u003e`` and ``\\u0026``, so no text from a rule or scenario file can close the element.
"""
from __future__ import annotations

import json

from markupsafe import Markup

from ...core.model import Game
from ...core.words import WORDS, word
from .inputs import ScenarioRun
from .markup import h, tx, w

KEPT = ("move", "state", "damage", "value")  # the changes the player shows (zones, card states, damage, life)


def player_data(game: Game, sr: ScenarioRun, lang: str, page: str = "") -> dict:
    from ...runtime.trace import Formatter, compact
    from .markup import node_page, rel

    fmt = Formatter(game, sr.scenario, lang)
    sc, names = sr.scenario, sr.names
    shown = {e.seq for e, _ in compact(sr.run.entries)}
    entries = []
    for e in sr.run.entries:
        entries.append([e.seq, e.turn, e.node, e.phase or "", e.step or "", names.get(e.actor, e.actor) or "",
                        fmt.what(e), fmt.pending(e), fmt.stack(e), names.get(e.priority, e.priority) or "",
                        [list(c) for c in e.changes if c[0] in KEPT], 1 if e.seq in shown else 0])
    return {
        "players": [[pid, name] for pid, name, _ in sc.players],
        "zones": {pid: [[z, list(ids)] for z, ids in zones] for pid, _, zones in sc.players},
        "zone_names": {z: tx(n.name, lang) for z, n in game.zones.items()},
        "stage": next((z for z, n in game.zones.items() if n.get("role") == "stage"), None),  # keeps damage
        "values": player_values(game, sc),
        "value_names": {v: tx(n.name, lang) for v, n in (game.player_values or {}).items()},
        "cards": {cid: [c.name, c.state or ""] for cid, c in sc.cards.items()},
        "states": {k[len("state."):]: word(k, lang) for k in WORDS if k.startswith("state.")},
        "entries": entries,
        "hrefs": {n: rel(page, node_page(game, game.nodes[n]), n) for n in sorted({e[2] for e in entries})
                  if n in game.nodes},
    }


def player_values(game: Game, sc) -> dict:
    """Each player's values (life) as the run starts, as the engine sets them."""
    from ...runtime.engine.melee import start_values
    return {pid: sorted(vals.items()) for pid, vals in start_values(game, sc).items()}


def zones_after(data: dict) -> dict:
    """Where every card is after all the entries, worked out from the changes as the script does it
    (player -> zone -> set of card ids): the tests compare it with the run's final zones."""
    owner, at = {}, {}
    for pid, zones in data["zones"].items():
        for z, ids in zones:
            for c in ids:
                owner[c], at[c] = pid, z
    for e in data["entries"]:
        for ch in e[10]:
            if ch[0] == "move":
                at[ch[1]] = ch[3]
    out: dict = {}
    for c, z in at.items():
        if z is not None:
            out.setdefault(owner[c], {}).setdefault(z, set()).add(c)
    return out


def player(game: Game, sr: ScenarioRun, lang: str, page: str, chart: Markup) -> Markup:
    """The player: its controls and the current entry (kept in view while the chart scrolls by), the
    chart, the panels, and its data; without scripts, the chart and a note."""
    data = json.dumps(player_data(game, sr, lang, page), ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    labels = {k: w(f"player_{k}", lang) for k in ("first", "back", "forward", "last", "every", "entry", "stack",
                                                  "pending", "priority", "zones", "nothing", "turn")}
    controls = h("div",
                 h("button", "|◀", type="button", data_act="first", title=labels["first"], aria_label=labels["first"]),
                 h("button", "◀", type="button", data_act="back", title=labels["back"], aria_label=labels["back"]),
                 h("button", "▶", type="button", data_act="forward", title=labels["forward"], aria_label=labels["forward"]),
                 h("button", "▶|", type="button", data_act="last", title=labels["last"], aria_label=labels["last"]),
                 h("input", type="range", min="0", max="0", value="0", aria_label=labels["entry"]),
                 h("label", h("input", type="checkbox", data_act="every"), " ", labels["every"]),
                 class_="tcg-player-controls")
    return h("div",
             h("p", w("player_needs_script", lang), class_="tcg-player-noscript"),
             h("div", controls, h("div", "", class_="tcg-player-now", aria_live="polite"), class_="tcg-player-bar"),
             chart,
             h("div", "", class_="tcg-player-panels"),
             h("script", Markup(data), type="application/json", class_="tcg-player-data"),
             h("script", Markup(json.dumps(labels, ensure_ascii=False).replace("<", "\\u003c")),
               type="application/json", class_="tcg-player-words"),
             class_="tcg-player", data_pagefind_ignore="all")

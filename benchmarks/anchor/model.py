"""The anchors' scenario parameters -> a tcgtiming scenario of benchmarks/anchor/game.yaml, and the
projection of a tcgtiming trace onto the anchors' trace names."""
from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
GAME = HERE / "game.yaml"
# the anchors' trace names, by the local id of the node that stands for each
NAMES = {"start", "action", "play", "declare", "trigger", "counter", "damage", "battle", "encore", "encore_remove",
         "discard", "cleanup", "rule_processing", "resolve_tp", "resolve_ntp"}


def project(node) -> str | None:
    """The anchor name of a model node, or None for nodes the anchors do not trace."""
    if node.kind == "check":
        return "check_timing"
    local = node.id.rsplit(".", 1)[-1]
    if local not in NAMES:
        return None
    return local if node.procedure else f"{node.phase}.{local}"


def scenario_yaml(sc) -> str:
    """A scenario file equivalent to the anchors' Scenario(plays, attacks, hand, end_repeats, tp_every, ntp_every)."""
    def ids(prefix, n):
        return "[" + ", ".join(f"{prefix}{i}" for i in range(n)) + "]"

    cards = [f"  - {{id: d{i}, name: card, type: character}}" for i in range(12)]
    cards += [f"  - {{id: h{i}, name: card, type: character}}" for i in range(sc.hand)]
    cards += [f"  - {{id: r{i}, name: card, type: character}}" for i in range(sc.end_repeats)]
    cards += [f"  - {{id: o{i}, name: opponent, type: character}}" for i in range(len(sc.attacks))]
    p1_abilities = p2_abilities = "[]"
    if sc.tp_every:
        cards.append("  - {id: tick1, name: ticker, type: character, abilities: "
                     f"[{{id: tp, kind: auto, event: check_timing, every: {sc.tp_every}}}]}}")
        p1_abilities = "[tick1]"
    if sc.ntp_every:
        cards.append("  - {id: tick2, name: ticker, type: character, abilities: "
                     f"[{{id: ntp, kind: auto, event: check_timing, every: {sc.ntp_every}}}]}}")
        p2_abilities = "[tick2]"
    choices = ["  - {at: main.choose, take: play}"] * sc.plays + ["  - {at: main.choose, take: stop}"]
    choices += [f"  - {{at: attack.choose, take: {'front' if front else 'side'}}}" for front in sc.attacks]
    choices += ["  - {at: attack.choose, take: stop}"]
    return "\n".join([
        "scenario: {id: anchor, game: ws-anchor, title: {ja: ベンチマーク, en: benchmark}, turn_player: p1}",
        "players:",
        f"  - {{id: p1, name: A, zones: {{deck: {ids('d', 12)}, hand: {ids('h', sc.hand)}, "
        f"returning: {ids('r', sc.end_repeats)}, abilities: {p1_abilities}}}}}",
        f"  - {{id: p2, name: B, zones: {{stage: {ids('o', len(sc.attacks))}, abilities: {p2_abilities}}}}}",
        "cards:", *cards,
        "choices:", *choices, "",
    ])

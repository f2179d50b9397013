"""Reference tables generated from the code's own metadata (diagnostic codes, the vocabulary).

README.md (and later the site) holds these tables between ``<!-- BEGIN GENERATED: name -->`` and
``<!-- END GENERATED: name -->`` markers; ``tcgtiming reference --check README.md`` fails when
they are stale, ``--update`` rewrites them (ruff-style).
"""
from __future__ import annotations

import re
from pathlib import Path

from ..core.diagnostics import CODES
from ..core.vocab import ACTIONS, COMPARATORS, EFFECTS, PREDICATES


def _args(entry) -> str:
    parts = []
    for p in entry.params:
        t = p.type.replace("enum:", "").replace("|", " \\| ")
        parts.append(f"`{p.name}`{'' if p.required else '?'}: {t}")
    if entry.compare:
        parts.append("one of " + "/".join(f"`{c}`" for c in COMPARATORS) + ": int")
    return ", ".join(parts) or "—"


def codes_table() -> str:
    rows = ["| code | name | severity | meaning |", "|---|---|---|---|"]
    rows += [f"| `{c.code}` | {c.name} | {c.severity} | {c.summary} |" for c in CODES.values()]
    return "\n".join(rows)


def vocab_table(registry) -> str:
    rows = ["| name | arguments | meaning |", "|---|---|---|"]
    rows += [f"| `{e.name}` | {_args(e)} | {e.doc} |" for e in registry.values()]
    return "\n".join(rows)


def games_table(base: Path) -> str:
    """One row per shipped game: the size of its compiled model."""
    from ..frontend.pipeline import compile_file

    rows = ["| game | phases | steps | procedures | check timings | priority windows | nodes | edges |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for path in sorted((base / "rules").glob("*/game.yaml")):
        res = compile_file(path, str(path.relative_to(base)))
        if res.game is None:
            rows.append(f"| `{path.parent.name}` (invalid: {len(res.errors)} errors) | | | | | | | |")
            continue
        g, s = res.game, res.game.stats()
        rows.append(f"| {g.name.en} ({g.name.ja}) | {s['phases']} | {s['steps']} | {s['procedures']} | "
                    f"{s['check_timings']} | {s['priority_windows']} | {s['nodes']} | {s['edges']} |")
    return "\n".join(rows)


BLOCKS = {
    "codes": lambda base: codes_table(),
    "predicates": lambda base: vocab_table(PREDICATES),
    "actions": lambda base: vocab_table(ACTIONS),
    "effects": lambda base: vocab_table(EFFECTS),
    "games": games_table,
}

_BLOCK = re.compile(r"(<!-- BEGIN GENERATED: (\w+) -->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.S)


def refresh(text: str, base: Path) -> str:
    """``text`` with its generated blocks rewritten; ``base`` is the folder holding ``rules/``."""
    def sub(mo):
        name = mo.group(2)
        if name not in BLOCKS:
            return mo.group(0)
        return f"{mo.group(1)}{BLOCKS[name](base)}\n{mo.group(4)}"

    return _BLOCK.sub(sub, text)

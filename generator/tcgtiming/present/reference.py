"""Reference text generated from the code's own metadata, and the guide pages that hold it.

The guide pages (``present/guide/*.md``, shipped with the package and published by the site) and
README.md hold generated blocks between ``<!-- BEGIN GENERATED: name -->`` and
``<!-- END GENERATED: name -->`` markers: the diagnostic codes, the vocabulary of the rule language,
the card effects and events of scenarios, the commands (from the command line's own parser) and, in
README.md only, the games (it needs the repository's ``rules/``). ``tcgtiming reference --check``
fails when a block is stale, ``--update`` rewrites it (ruff-style).
"""
from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Callable

from ..core.diagnostics import CODES
from ..core.scenario import BUILTIN_EVENTS, STATES, STATS
from ..core.text import md_text
from ..core.vocab import ACTIONS, COMPARATORS, EFFECTS, PREDICATES

# a block: the folder holding README.md and rules/ (None for a guide page) -> its Markdown
Block = Callable[[Path | None], str]


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


def card_events_table() -> str:
    """The events the interpreter raises by itself, which cards' auto abilities may wait for."""
    rows = ["| event | raised when |", "|---|---|"]
    rows += [f"| `{name}` | {doc} |" for name, doc in BUILTIN_EVENTS.items()]
    return "\n".join(rows)


def card_words_table() -> str:
    rows = ["| what | words |", "|---|---|"]
    rows.append("| card stats (`stats:`) | " + ", ".join(f"`{s}`" for s in STATS) + " |")
    rows.append("| card states (`state:`) | " + ", ".join(f"`{s}`" for s in STATES) + " |")
    return "\n".join(rows)


def games_table(base: Path | None) -> str:
    """One row per shipped game (``base/rules/<game>/game.yaml``): the size of its compiled model."""
    from ..frontend.pipeline import compile_file

    rows = ["| game | phases | steps | procedures | check timings | priority windows | nodes | edges |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for path in sorted((base / "rules").glob("*/game.yaml")) if base is not None else ():
        res = compile_file(path, str(path.relative_to(base)))
        if res.game is None:
            rows.append(f"| `{path.parent.name}` (invalid: {len(res.errors)} errors) | | | | | | | |")
            continue
        g, s = res.game, res.game.stats()
        rows.append(f"| {g.name.en} ({g.name.ja}) | {s['phases']} | {s['steps']} | {s['procedures']} | "
                    f"{s['check_timings']} | {s['priority_windows']} | {s['nodes']} | {s['edges']} |")
    return "\n".join(rows)


# --- the commands, from the command line's parser (passed in: this layer does not import cli) ---


def _subcommands(p: argparse.ArgumentParser) -> argparse.Action:
    """The parser's subcommands action: ``choices`` maps each name to its parser."""
    return next(a for a in p._actions if isinstance(a.choices, dict))


def _words(action: argparse.Action) -> list[str]:
    """What an option takes: its metavar's alternatives (``ja|en``), its choices, or its metavar."""
    if action.nargs == 0:
        return []
    if action.metavar:
        return action.metavar.split("|")
    return [str(c) for c in action.choices] if action.choices else [action.dest.upper()]


def _synopsis_part(action: argparse.Action) -> str:
    if not action.option_strings:
        name = action.metavar or action.dest.upper()
        return {"+": f"{name}...", "*": f"[{name}...]", "?": f"[{name}]"}.get(action.nargs, name)
    words = _words(action)
    return " ".join([action.option_strings[0]] + (["|".join(words)] if words else []))


def _synopsis(name: str, sp: argparse.ArgumentParser) -> str:
    actions = [a for a in sp._actions if not isinstance(a, argparse._HelpAction)]
    groups = {a: g for g in sp._mutually_exclusive_groups for a in g._group_actions}
    parts, done = [f"tcgtiming {name}"], set()
    for a in [a for a in actions if not a.option_strings] + [a for a in actions if a.option_strings]:
        if a in done:
            continue
        if not a.option_strings:
            parts.append(_synopsis_part(a))
            continue
        members = [m for m in actions if groups.get(m) is groups.get(a)] if a in groups else [a]
        done.update(members)
        repeat = "..." if isinstance(a, argparse._AppendAction) else ""
        parts.append("[" + " | ".join(_synopsis_part(m) for m in members) + "]" + repeat)
    return " ".join(parts)


def _argument_cell(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{_synopsis_part(action)}`"
    words = _words(action)
    if len(words) > 1:  # alternatives: outside a code span, so that the table's pipes can be escaped
        return f"`{action.option_strings[0]}` " + " \\| ".join(f"`{w}`" for w in words)
    return "`" + " ".join([action.option_strings[0]] + words) + "`"


def _meaning(action: argparse.Action) -> str:
    text = md_text(action.help or "")
    if action.default not in (None, False, argparse.SUPPRESS) and "default" not in text:
        text += f" (default: `{action.default}`)"
    return text.strip()


def command_list(p: argparse.ArgumentParser) -> str:
    """One line per command: its name and what it does."""
    rows = ["| command | what it does |", "|---|---|"]
    rows += [f"| `tcgtiming {c.dest}` | {md_text(c.help or '')} |" for c in _subcommands(p)._choices_actions]
    return "\n".join(rows)


def commands_reference(p: argparse.ArgumentParser) -> str:
    """Every command: what it does, its synopsis and every argument, from the parser's own help."""
    out = []
    for name, sp in _subcommands(p).choices.items():
        out += [f"### `tcgtiming {name}`", "", md_text(sp.description or ""), "", "```", _synopsis(name, sp), "```", ""]
        rows = [a for a in sp._actions if not isinstance(a, argparse._HelpAction)]
        if rows:
            out += ["| argument | meaning |", "|---|---|"]
            out += [f"| {_argument_cell(a)} | {_meaning(a)} |" for a in rows]
            out.append("")
    return "\n".join(out).rstrip("\n")


# --- the blocks, and the pages that hold them ------------------------------------------------------

BLOCKS: dict[str, Block] = {
    "codes": lambda base: codes_table(),
    "predicates": lambda base: vocab_table(PREDICATES),
    "actions": lambda base: vocab_table(ACTIONS),
    "effects": lambda base: vocab_table(EFFECTS),
    "card_events": lambda base: card_events_table(),
    "card_words": lambda base: card_words_table(),
    "games": games_table,
}
# blocks that need the repository's rules/: README.md may hold them, a guide page may not
REPOSITORY_BLOCKS = frozenset({"games"})

_BLOCK = re.compile(r"(<!-- BEGIN GENERATED: ([\w-]+) -->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.S)
_BEGIN = re.compile(r"<!-- BEGIN GENERATED: ([\w-]+) -->")


def refresh(text: str, base: Path | None, blocks: dict[str, Block] = BLOCKS) -> str:
    """``text`` with its generated blocks rewritten; ``base`` is the folder holding ``rules/``."""
    def sub(mo):
        name = mo.group(2)
        if name not in blocks:
            return mo.group(0)
        return f"{mo.group(1)}{blocks[name](base)}\n{mo.group(4)}"

    return _BLOCK.sub(sub, text)


def block_problems(text: str, blocks: dict[str, Block], guide: bool) -> list[str]:
    """What keeps a page's blocks from being checked: ``line: message`` for an unknown block name, a
    BEGIN marker without its END, or (on a guide page) a block that needs the repository."""
    matched = {mo.start(): mo.group(2) for mo in _BLOCK.finditer(text)}
    out = []
    for mo in _BEGIN.finditer(text):
        line, name = text.count("\n", 0, mo.start()) + 1, mo.group(1)
        if mo.start() not in matched:
            out.append(f"{line}: generated block '{name}' has no '<!-- END GENERATED: {name} -->' line")
        elif name not in blocks:
            out.append(f"{line}: unknown generated block '{name}' (known: {', '.join(blocks)})")
        elif guide and name in REPOSITORY_BLOCKS:
            out.append(f"{line}: generated block '{name}' needs the repository's rules/: keep it in README.md")
    return out


@dataclass(frozen=True)
class Page:
    """A page with generated blocks: what it holds now, and what it should hold."""
    name: str  # for messages
    path: Path | None  # where it can be rewritten; None: not a file on disk (a zipped package)
    current: str
    fresh: str
    problems: tuple[str, ...]

    @property
    def stale(self) -> bool:
        return self.fresh != self.current


def _page(name: str, path: Path | None, text: str, base: Path | None, blocks: dict[str, Block],
          guide: bool) -> Page:
    problems = tuple(f"{name}:{p}" for p in block_problems(text, blocks, guide))
    return Page(name, path, text, text if problems else refresh(text, base, blocks), problems)


def guide_folder():
    """The guide pages' folder (a ``Traversable``: in a source or editable checkout, the source
    folder ``generator/tcgtiming/present/guide``)."""
    return files(__package__) / "guide"


def _shown(f) -> str:
    """A guide page's name in messages: relative to the current folder when it is below it."""
    if isinstance(f, Path) and f.is_relative_to(Path.cwd()):
        return str(f.relative_to(Path.cwd()))
    return str(f)


def guide_pages(blocks: dict[str, Block] = BLOCKS) -> list[Page]:
    """Every packaged guide page, by name."""
    folder = guide_folder()
    out = []
    for f in sorted((f for f in folder.iterdir() if f.name.endswith(".md")), key=lambda f: f.name):
        path = f if isinstance(f, Path) else None
        out.append(_page(_shown(f), path, f.read_text(encoding="utf-8"), None, blocks, guide=True))
    return out


def file_page(path: Path, blocks: dict[str, Block] = BLOCKS) -> Page:
    """A Markdown file outside the package (README.md): its blocks may use the rules beside it.
    Raises OSError when it cannot be read."""
    text = path.read_text(encoding="utf-8")
    return _page(str(path), path, text, path.resolve().parent, blocks, guide=False)

"""Mutations for fuzzing: rule files, scenario files and command lines. The hypothesis tests
(tests/test_fuzz.py) and the long seeded run (tests/fuzz/run.py, ``make fuzz``) share them: a
``Chooser`` is either hypothesis's ``draw`` or a seeded ``random.Random``.

What a fuzzed run must never do: end in a traceback, hang, exit with a code outside {0, 1, 2}, or
report a diagnostic with no place in the file it is about (``unlocated``).
"""
from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "mini" / "game.yaml"
FIVE = ROOT / "tests" / "fixtures" / "broken" / "five_mistakes.yaml"
TRACE = ROOT / "tests" / "golden" / "render" / "mini-turn.trace.jsonl"
SCENARIOS = sorted((ROOT / "rules").glob("*/scenarios/*.yaml"))

# pieces a clumsy user or an attacker would type into a YAML file
SNIPPETS = ["no", "yes", "1:30", "&a ", "*a", "\t", ": ", "- ", "{", "}", "[", "]", "kind: ", "id: ", "'", '"',
            "goto", "target: 9", "cite: x#y", "日本", "\x00", "\\", "#", "---\n", "!!python/none ", "~", "-1", "  ",
            "\u2028", "\u2029", "\x85", "\u202e", "\x1b[31m", "\v", "\r", "<a>, URL=\"javascript:alert(2)\", x=<b>",
            "[c](javascript:alert(1))", "<script>alert(3)</script>", "%20", "`x`", "9" * 30, "[" * 200]
WORDS = ["label", "lable", "nodes", "check", "turn_player", "x", "a-att", "front", "stop", "counter", "p1", "stage",
         "card: x", "take: pass", "at: end.1", "ja", "en", "null", "true", "0", "-0.0", ".inf"]

# text that must stay text in every output (written into a label, a name, a title as a quoted value)
HOSTILE = ['<a>, URL="javascript:alert(2)", x=<b>', "<A> or <B>", "[c](javascript:alert(1))",
           "<script>alert(3)</script>", 'x"] --> evil["`**b**`', "| # %% end", "\\N \\G \\L \\", "&amp; &#60; &lt;",
           "<img src=x onerror=alert(1)>", "{{ 7*7 }} {% raw %}", "*a* _b_ `c` ~~d~~", "<<TABLE>>", "]; evil [", "\n"]
_TEXT_FIELD = re.compile(r"\b((?:ja|en|name|title): )([^,}\n]+)")

# diagnostics about a file as a whole (line 0) by their nature; any other must have a line
FILE_LEVEL = {"Y100", "C320", "U401", "R505"}


class Chooser:
    """Choices from a seeded random.Random, or (subclass) from hypothesis."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, seq):
        return self.rng.choice(list(seq))

    def text(self, size: int) -> str:
        return "".join(chr(self.rng.choice([self.rng.randint(32, 126), self.rng.randint(0, 0x2FFF)]))
                       for _ in range(self.rng.randint(0, size)))


class Drawn(Chooser):
    """Choices drawn by hypothesis (shrinkable)."""

    def __init__(self, draw):
        from hypothesis import strategies as st

        self.draw, self.st = draw, st

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(self.st.integers(lo, hi))

    def choice(self, seq):
        return self.draw(self.st.sampled_from(list(seq)))

    def text(self, size: int) -> str:
        return self.draw(self.st.text(max_size=size))


# --- YAML files -------------------------------------------------------------------------------------


def mutate_text(c: Chooser, text: str, rounds: int = 3) -> str:
    """One to `rounds` line-level edits of a YAML text: delete, duplicate, swap, insert a snippet,
    indent, dedent, replace a word."""
    lines = text.splitlines(keepends=True)
    for _ in range(c.integer(1, rounds)):
        op = c.choice(["delete", "duplicate", "swap", "insert", "indent", "dedent", "replace_word", "text_field"])
        i = c.integer(0, len(lines) - 1)
        if op == "text_field":  # a hostile text where a text goes: the file stays valid
            fields = [(j, m) for j, ln in enumerate(lines) for m in _TEXT_FIELD.finditer(ln)]
            if fields:
                j, m = fields[c.integer(0, len(fields) - 1)]
                value = "'" + c.choice(HOSTILE).replace("'", "''") + "'"
                lines[j] = lines[j][:m.start(2)] + value + lines[j][m.end(2):]
        elif op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = c.integer(0, len(lines) - 1)
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "insert":
            pos = c.integer(0, len(lines[i]))
            piece = c.choice(SNIPPETS) if c.integer(0, 3) else c.text(4)
            lines[i] = lines[i][:pos] + piece + lines[i][pos:]
        elif op == "indent":
            lines[i] = "  " + lines[i]
        elif op == "dedent":
            lines[i] = lines[i][2:] if lines[i].startswith("  ") else lines[i]
        else:
            words = lines[i].split(" ")
            words[c.integer(0, len(words) - 1)] = c.choice(SNIPPETS + WORDS)
            lines[i] = " ".join(words)
    return "".join(lines)


def unlocated(diags, name: str, text: str) -> list:
    """The diagnostics that do not say where in the file they are."""
    from tcgtiming.core.text import editor_lines

    n = len(editor_lines(text)) + 1
    return [d for d in diags if d.file != name or d.col < 0 or d.line > n
            or (d.line == 0 and d.code not in FILE_LEVEL) or (d.line > 0 and d.col < 1)]


# --- command lines ----------------------------------------------------------------------------------


def workspace(folder: Path) -> Path:
    """A folder with everything the command lines below name (copies: a mutant may overwrite them),
    hostile files included: a FIFO, a symbolic link loop, a deeply nested trace, an empty file."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rules" / "mini").mkdir(parents=True)
    shutil.copy(MINI, folder / "rules" / "mini" / "game.yaml")
    (folder / "rules" / "ws" / "scenarios").mkdir(parents=True)
    shutil.copy(ROOT / "rules" / "ws" / "game.yaml", folder / "rules" / "ws" / "game.yaml")
    for s in ("encore.yaml", "damage-cancel.yaml"):
        shutil.copy(ROOT / "rules" / "ws" / "scenarios" / s, folder / "rules" / "ws" / "scenarios" / s)
    shutil.copy(FIVE, folder / "five.yaml")
    shutil.copy(TRACE, folder / "trace.jsonl")
    (folder / "deep.jsonl").write_text("[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    (folder / "empty.yaml").write_text("", encoding="utf-8")
    (folder / "odd dir").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "odd dir" / "pipe.yaml")
    os.symlink("loop.yaml", folder / "loop.yaml")
    return folder


MINI_W, SCEN_W = "rules/mini/game.yaml", "rules/ws/scenarios/encore.yaml"
BASES = [
    ["validate", MINI_W], ["validate", "rules"], ["validate", "--format", "json", "five.yaml"], ["validate", "odd dir"],
    ["compile", MINI_W], ["compile", MINI_W, "--out", "out/m.json"],
    ["render", MINI_W, "--format", "dot", "--out", "out/charts"], ["render", MINI_W, "--format", "table"],
    ["render", MINI_W, "--phase", "battle", "--format", "mermaid", "--lang", "en", "--out", "out/c2"],
    ["render", MINI_W, "--trace", "trace.jsonl", "--format", "dot", "--out", "out/c3"],
    ["simulate", SCEN_W], ["simulate", SCEN_W, "--format", "json"], ["simulate", SCEN_W, "--format", "markdown"],
    ["simulate", SCEN_W, "rules/ws/scenarios/damage-cancel.yaml", "--out-dir", "out/traces"],
    ["schema"], ["schema", "--kind", "scenario", "--out", "out/s.json"], ["codes"], ["codes", "--format", "json"],
    ["reference"], ["reference", "--check"], ["--version"], ["--help"], ["validate", "--help"],
]
TOKENS = ["validate", "compile", "render", "simulate", "schema", "codes", "reference", "--format", "--out",
          "--out-dir", "--lang", "--phase", "--trace", "--jobs", "--no-cache", "--strict", "--policy", "--brief",
          "--rules", "--kind", "--check", "json", "text", "markdown", "dot", "mermaid", "table", "svg", "ja", "en",
          "fr", "turn", "battle", "batle", "random", "first", "pass", "scenario", "rules", "0", "-1", "1", "99999",
          MINI_W, SCEN_W, "five.yaml", "trace.jsonl", "deep.jsonl", "empty.yaml", "odd dir", "odd dir/pipe.yaml",
          "loop.yaml", "missing.yaml", "out", "out/x", "/dev/null", ".", "", "-", "--", "-h", "--version",
          "--out=out/y", "日本語", "\u202e", "a" * 300, "%s%n", "../../etc/passwd"]


def mutate_argv(c: Chooser) -> list[str]:
    """A command line near a valid one: up to three of its arguments deleted, duplicated, swapped,
    inserted or replaced (by a known token, or junk); now and then the command itself replaced."""
    argv = list(c.choice(BASES))
    head, args = argv[:1], argv[1:]
    for _ in range(c.integer(0, 3)):
        op = c.choice(["delete", "duplicate", "swap", "insert", "insert", "replace", "replace", "junk", "command"])
        i = c.integer(0, max(0, len(args) - 1))
        if op == "delete" and args:
            del args[i]
        elif op == "duplicate" and args:
            args.insert(i, args[i])
        elif op == "swap" and len(args) > 1:
            j = c.integer(0, len(args) - 1)
            args[i], args[j] = args[j], args[i]
        elif op == "insert":
            args.insert(c.integer(0, len(args)), c.choice(TOKENS))
        elif op == "replace" and args:
            args[i] = c.choice(TOKENS)
        elif op == "junk" and args:
            args[i] = c.text(8)
        elif op == "command":
            head = [c.choice(TOKENS)]
    return [a for a in head + args if "\x00" not in a and not re.fullmatch(r"site|--update", a)]


def located_output(out: str) -> list[str]:
    """The lines of a command's output that report a diagnostic with no line where one is due."""
    bad = []
    for line in out.splitlines():
        m = re.match(r"^(.+?): (error|warning)\[([A-Z]\d{3})\]: ", line)
        if m and not re.search(r":\d+:\d+$", m.group(1)) and m.group(3) not in FILE_LEVEL:
            bad.append(line)
    return bad

"""The injection corpus: copies of the shipped games and their scenarios with a hostile string in
every text field (names, labels, notes, titles, what a scenario demonstrates, source files and
urls, player and card names, ability labels) and in a constant.

Each hostile string keeps the original text in front (so that values stay distinct and no value is
shaped ``<…>`` as a whole) and appends one payload: HTML that would run script, Markdown links and
autolinks to ``javascript:`` URLs, attribute lists, DOT and Mermaid syntax, zero-width characters.
A payload that runs calls ``alert(N)``: the browser test fails on any dialog.

Control characters, bidirectional controls (U+202E, U+2066…) and line separators are not in the
corpus: the front end refuses them with a located error (Y115; tests/test_hostile_inputs.py), so
they never reach a page. Left out still: values shaped ``<…>`` as a whole (the DOT writer quotes
them now: tests/test_hostile_inputs.py draws them).
"""
from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import yaml

from tcgtiming.frontend.loader import load  # the project's own reading (libyaml's events, YAML 1.2 scalars)

PAYLOADS = (
    "<img src=x onerror=alert(1)>",
    "<script>alert(2)</script>",
    "</title></textarea><script>alert(3)</script>",
    "[c](javascript:alert(4))",
    "<javascript:alert(5)>",
    '"><svg onload=alert(6)>',
    "{: onclick=\"alert(7)\" }",
    "*em* `code` | bar | <b>bold</b> &amp; &lt;",
    '"]; x [URL="javascript:alert(8)"]; y [label="',
    "]-->X((evil)) click X call alert(9)",
    "\u200bzero-width\u200d joiner\u2060 word joiner",
    "<a href=\"javascript:alert(10)\">link</a>",
    "<iframe srcdoc=\"<script>alert(11)</script>\"></iframe>",
    "'-alert(12)-' \\\"; alert(13); //",
)
TEXT_KEYS = {"name", "title", "label", "note", "demonstrates", "file", "url"}
# the literal strings a reader must see as text on the pages (checked in the browser test)
GAME_NAME = "Weiß Schwarz<img src=x onerror=alert(1)>"
PLAYER_NAME = "Alice<script>alert(3)</script>"
EVIL_CONSTANT = "[c](javascript:alert(1))"


def _hostile(value: str, n: itertools.count) -> str:
    return f"{value} {PAYLOADS[next(n) % len(PAYLOADS)]}"


def _walk(data, n: itertools.count):
    if isinstance(data, dict):
        for key, value in data.items():
            if key in TEXT_KEYS and isinstance(value, str):
                data[key] = _hostile(value, n) if key != "url" else f"javascript:alert(20)//{value}"
            elif key in TEXT_KEYS and isinstance(value, dict) and set(value) <= {"ja", "en"}:
                for lang in value:
                    if isinstance(value[lang], str):
                        value[lang] = _hostile(value[lang], n)
            else:
                _walk(value, n)
    elif isinstance(data, list):
        for item in data:
            _walk(item, n)


def _load(path: Path):
    doc = load(path)
    assert doc.data is not None and not doc.diagnostics, doc.diagnostics
    return doc.data


def _dump(data, path: Path) -> None:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1_000_000), encoding="utf-8")


def make_corpus(rules: Path, out: Path) -> Path:
    """A hostile copy of the rules folder in out/rules; returns it."""
    dest = out / "rules"
    shutil.copytree(rules, dest)
    n = itertools.count()
    for game in sorted(dest.glob("*/game.yaml")):
        data = _load(game)
        _walk(data, n)
        if data["game"]["id"] == "ws":
            data["game"]["name"]["en"] = GAME_NAME
            data.setdefault("constants", {})["evil"] = EVIL_CONSTANT
        for src in data.get("sources", []):  # a source with a url: its link must not become javascript:
            src.setdefault("url", "javascript:alert(21)")
        _dump(data, game)
    for scenario in sorted(dest.glob("*/scenarios/*.yaml")):
        data = _load(scenario)
        _walk(data, n)
        if data.get("players"):
            data["players"][0]["name"] = PLAYER_NAME
        _dump(data, scenario)
    return dest

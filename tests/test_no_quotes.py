"""Citations locate, they never quote: no file of the repository copies a sentence of the source
documents (../shared/seeds/*, ../shared/rules-notes.md).

Every committed text file is scanned for

* Japanese: any clause of a document (its text between two punctuation marks or brackets) of at
  least 12 characters;
* English: any run of 8 words of one sentence of a document.

Whitespace and the width of characters (ＡＢＣ / ABC) do not count, and a copy may run over the
lines of a file (folded YAML). The documents' own headings are not sentences: they may be used, as
the names of sections. A few names are allowed below, each with its reason.

The documents live outside the repository (see tests/test_sources.py); without them this test skips.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from test_sources import SEEDS, SHARED, heading_lines, needs_shared

ROOT = Path(__file__).resolve().parent.parent
JA_MIN, EN_MIN = 12, 8
ALLOWED = {
    "ＶＥＲＳＵＳ〜ヴァーサス〜": "the name of the game, as its publisher writes it",
}
_JA = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_CLAUSE = re.compile(r"[。．！？!?、，,：:；;「」『』()（）\[\]【】|]")
_SENTENCE = re.compile(r"[。．！？!?|]|(?<=[A-Za-z0-9)\]])\.(?=\s|$)")
_WORD = re.compile(r"[a-z0-9']+")
_TOKEN = re.compile(r"[a-z0-9']+|[.!?;](?=\s|$)|[。！？]")


def _nfkc(s: str) -> str:
    return unicodedata.normalize("NFKC", s)


def _squeeze(s: str) -> str:
    return re.sub(r"\s+", "", _nfkc(s))


def _is_ja(seg: str) -> bool:
    chars = _squeeze(seg)
    return bool(chars) and len(_JA.findall(chars)) * 3 >= len(chars)


def documents() -> list[Path]:
    return sorted(p for p in SEEDS.iterdir() if p.name != "README.md") + [SHARED / "rules-notes.md"]


def quotable(doc: Path) -> tuple[dict[str, str], dict[tuple[str, ...], str]]:
    """The Japanese clauses and English 8-word runs of a document that no file may copy, each with
    where it comes from ('file:line'). Headings, markup and allowed names are left out."""
    text = doc.read_text(encoding="utf-8")
    heads = {_squeeze(h) for h, _ in heading_lines(doc.name, text)} | {_squeeze(a) for a in ALLOWED}
    ja: dict[str, str] = {}
    en: dict[tuple[str, ...], str] = {}
    for no, line in enumerate(text.split("\n"), 1):
        line = re.sub(r"<[^>]+>", " ", line)  # the flow document's <font> tags
        line = re.sub(r"^\s*(#+|\*+|-|\d+\.|[0-9０-９]+．)\s*", "", line).replace("**", "")
        if _squeeze(line) in heads:
            continue
        where = f"{doc.name}:{no}"
        for sentence in _SENTENCE.split(line):
            if _squeeze(sentence) in heads:
                continue
            if _is_ja(sentence) or _JA.search(sentence) and not _WORD.search(sentence.lower()):
                for clause in _CLAUSE.split(sentence):
                    c = _squeeze(clause)
                    if len(c) >= JA_MIN and c not in heads:
                        ja.setdefault(c, where)
            else:
                words = _WORD.findall(_nfkc(sentence).lower())
                for i in range(len(words) - EN_MIN + 1):
                    en.setdefault(tuple(words[i:i + EN_MIN]), where)
    return ja, en


def committed_files() -> list[Path]:
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    return [ROOT / f for f in out.decode("utf-8").split("\0") if f]


def copies(path: Path, ja: dict[str, str], en: dict[tuple[str, ...], str]) -> list[str]:
    """'line: what (from where)' for each copy in a text file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return []  # not a text file
    chars: list[str] = []
    char_line: list[int] = []
    words: list[str] = []
    word_line: list[int] = []
    for no, line in enumerate(text.split("\n"), 1):
        line = _nfkc(line)
        for ch in re.sub(r"\s+", "", line):
            chars.append(ch)
            char_line.append(no)
        for w in _TOKEN.findall(line.lower()):  # a sentence's end breaks a run of words
            words.append(w)
            word_line.append(no)
    flat = "".join(chars)
    found: dict[int, str] = {}
    for clause, where in ja.items():
        at = flat.find(clause)
        if at >= 0:
            found.setdefault(char_line[at], f"'{clause}' ({where})")
    for i in range(len(words) - EN_MIN + 1):
        key = tuple(words[i:i + EN_MIN])
        if key in en:
            found.setdefault(word_line[i], f"'{' '.join(key)}' ({en[key]})")
    return [f"{no}: {what}" for no, what in sorted(found.items())]


def test_the_scan_finds_clauses_and_word_runs(tmp_path):
    doc = tmp_path / "rules-notes.md"
    doc.write_text("# Notes\n## A heading of the notes\n- The cards go to the clock, one at a time, after the damage.\n"
                   "- 甲は山札の上から1枚を公開し、それをクロックに置く。\n", encoding="utf-8")
    ja, en = quotable(doc)
    assert "甲は山札の上から1枚を公開し" in ja and "それをクロックに置く" not in ja  # 12 characters or more
    mine = tmp_path / "mine.yaml"
    mine.write_text("title: A heading of the notes\nnote: >-\n  here the cards go to the clock, one at\n"
                    "  a time, after the damage is dealt\nja: 甲は山札の上\n  から１枚を公開し、\n", encoding="utf-8")
    assert copies(mine, ja, en) == [
        "3: 'the cards go to the clock one at' (rules-notes.md:3)",
        "5: '甲は山札の上から1枚を公開し' (rules-notes.md:4)",
    ]


@needs_shared
@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs the git checkout")
def test_no_committed_file_copies_a_sentence_of_the_sources():
    ja: dict[str, str] = {}
    en: dict[tuple[str, ...], str] = {}
    for doc in documents():
        j, e = quotable(doc)
        ja.update({k: v for k, v in j.items() if k not in ja})
        en.update({k: v for k, v in e.items() if k not in en})
    assert len(ja) > 100 and len(en) > 100  # the documents were read
    found = []
    for path in committed_files():
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}:{hit}" for hit in copies(path, ja, en)]
    assert not found, (f"{len(found)} copies of the source documents (cite the section instead, and say it in "
                       "our own words):\n" + "\n".join(found))

"""Coverage of the source documents by the shipped rule files.

* Every seed document is registered as a source by some game.
* A source's section registry locates, it never quotes: a section is named by one of the document's
  own headings, or by a short label in our own words with the lines it covers ([first, last]); the
  lines lie inside the document, a heading lies inside its lines. Every real heading of a seed
  document is registered.
* Every registered section of a seed document is cited by at least one node.

(tests/test_no_quotes.py checks that no file of the repository copies a sentence of the documents.)

The documents live in ../shared/ (seeds/ and rules-notes.md) in development and CI; they are not
copied into the repository. Without them these tests skip, saying so.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest

from tcgtiming.frontend.pipeline import compile_file

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TCGTIMING_SHARED", ROOT.parent / "shared"))
SEEDS = SHARED / "seeds"
RULE_FILES = sorted(p for p in (ROOT / "rules").glob("*/game.yaml"))

needs_shared = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"source documents not found at {SEEDS} "
                                  "(set TCGTIMING_SHARED to the folder holding seeds/ and rules-notes.md)")


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def headings(name: str, text: str) -> list[str]:
    """The real headings of a document, by its format. Repeated structural markers (the Weiß
    Schwarz flow's "フェイズ開始/フェイズ終了" under every phase) are not sections."""
    return list(dict.fromkeys(h for h, _ in heading_lines(name, text)))


def heading_lines(name: str, text: str) -> list[tuple[str, int]]:
    """Each heading of a document with the (1-based) line it stands on, in document order."""
    lines = text.split("\n")
    out: list[tuple[str, int]] = []
    if name.endswith(".md"):
        found = [(re.sub(r"^#+\s*", "", ln).strip(), i) for i, ln in enumerate(lines, 1) if re.match(r"^#{1,6}\s", ln)]
        counts = Counter(h for h, _ in found)
        skip = set() if name == "rules-notes.md" else {h for h, c in counts.items() if c > 1}
        return [(h, i) for h, i in found if h not in skip and not h.startswith("tags:")]
    if name == "ws-phases.en.txt":
        return [(ln.strip(), i) for i, ln in enumerate(lines, 1)
                if ln.strip() and len(ln) < 45 and not ln.strip().endswith(".")]
    if name == "versus-turn-and-phases.ja.txt":
        out = [(lines[0].rsplit("\t", 1)[-1].strip(), 1)]
        out += [(ln.strip(), i) for i, ln in enumerate(lines[1:], 2)
                if ln.startswith("\t") and "。" not in ln and len(ln.strip()) < 30]
        return out
    if name == "gundam-war-play-timing.ja.txt":
        # the chart's cells are its column and row headings; this copy breaks the vertical ー of
        # ターン into "|" ("自 軍 タ | ン"), which is kept whole
        for i, ln in enumerate(lines, 1):
            for cell in ln.replace("タ | ン", "タ\0ン").split("|"):
                c = cell.strip().replace("タ\0ン", "タ | ン")
                if c and "。" not in c and len(c) < 30 and c[0] not in "※-":
                    out.append((c, i))
        return out
    if name == "aquarian-age-faction-phase.ja.txt":
        for i, ln in enumerate(lines, 1):
            s = ln.strip()
            if s.startswith("■"):
                out.append((s.lstrip("■").strip(), i))
            elif re.match(r"^[１-９]．", s) and "。" not in s and len(s) < 20:  # a numbered step's own title
                out.append((s, i))
        return out
    return []


def _sources():
    out = []
    for rf in RULE_FILES:
        res = compile_file(rf, str(rf.relative_to(ROOT)))
        assert res.game is not None, [str(d.message) for d in res.errors]
        for src in res.game.sources.values():
            if src.file:
                out.append((res.game, src))
    return out


def test_the_five_games_are_shipped():
    assert sorted(p.parent.name for p in RULE_FILES) == ["aquarian", "gundam", "mtg", "versus", "ws"]


@needs_shared
def test_every_seed_document_is_registered():
    registered = {Path(src.file).name for _, src in _sources()}
    seeds = {p.name for p in SEEDS.iterdir() if p.name != "README.md"}
    assert seeds, f"no seed documents under {SEEDS}"
    assert seeds <= registered, f"seed documents no game cites: {sorted(seeds - registered)}"


@needs_shared
@pytest.mark.parametrize("rule_file", RULE_FILES, ids=lambda p: p.parent.name)
def test_sections_locate_the_document_by_heading_or_by_label_and_lines(rule_file):
    res = compile_file(rule_file, str(rule_file.relative_to(ROOT)))
    assert res.game is not None, [f"{d.line}:{d.col} {d.message}" for d in res.errors]
    for src in res.game.sources.values():
        if not src.file:
            continue
        path = SHARED / src.file
        assert path.is_file(), f"source '{src.id}' names {src.file}, not found under {SHARED}"
        text = path.read_text(encoding="utf-8")
        n_lines = len(text.split("\n"))
        where: dict[str, list[int]] = {}
        for h, i in heading_lines(path.name, text):
            where.setdefault(_norm(h), []).append(i)
        wrong = []
        for sec in src.sections:
            at = where.get(_norm(sec.title))
            if sec.lines:
                a, b = sec.lines
                if not 1 <= a <= b <= n_lines:
                    wrong.append(f"{sec.id}: lines {a}-{b} outside the document's 1-{n_lines}")
                elif at is not None and not any(a <= i <= b for i in at):
                    wrong.append(f"{sec.id}: the heading stands on line(s) {at}, outside lines {a}-{b}")
            elif at is None:
                wrong.append(f"{sec.id}: '{sec.title}' is not a heading of the document: "
                             "name it in our own words and give its lines")
        assert not wrong, f"{src.id} ({src.file}):\n" + "\n".join(wrong)
        if not src.file.startswith("seeds/"):
            continue  # shared notes (rules-notes.md): each game registers only its own part
        titles = {_norm(s.title) for s in src.sections}
        ranges = [s.lines for s in src.sections if s.lines]  # a heading we name in our own words, by its lines
        unregistered = [h for h, i in heading_lines(path.name, text)
                        if _norm(h) not in titles and not any(a <= i <= b for a, b in ranges)]
        assert not unregistered, f"{src.id}: headings of {src.file} missing from the registry: {unregistered}"


@needs_shared
@pytest.mark.parametrize("rule_file", RULE_FILES, ids=lambda p: p.parent.name)
def test_every_section_is_cited(rule_file):
    res = compile_file(rule_file, str(rule_file.relative_to(ROOT)))
    assert res.game is not None
    game = res.game
    cited = {(c.source, c.section) for n in game.nodes.values() for c in n.cites}
    cited |= {(c.source, c.section) for c in game.containers.values() for c in c.cites}
    for src in game.sources.values():
        if not src.file or not src.file.startswith("seeds/"):
            continue
        uncited = [s.id for s in src.sections if (src.id, s.id) not in cited]
        assert not uncited, f"{src.id}: sections no node cites: {uncited}"


def test_heading_extraction_reads_the_formats():
    md = "# Title\n## A\n#### フェイズ開始\n## B\n#### フェイズ開始\n"
    assert headings("x.md", md) == ["Title", "A", "B"]
    assert heading_lines("x.md", md) == [("Title", 1), ("A", 2), ("B", 4)]
    aq = "勢力フェイズ\n\n■勢力パーティ\n　◆text\n■勢力チェック\n　１．一文です。\n　３．見出し\n"
    assert headings("aquarian-age-faction-phase.ja.txt", aq) == ["勢力パーティ", "勢力チェック", "３．見出し"]
    gw = "タイミングチャート\n自 軍 タ | ン |\nフェイズ開始 | 敵 軍 タ | ン |\n※注記。\n"
    assert heading_lines("gundam-war-play-timing.ja.txt", gw) == [
        ("タイミングチャート", 1), ("自 軍 タ | ン", 2), ("フェイズ開始", 3), ("敵 軍 タ | ン", 3)]

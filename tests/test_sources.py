"""Coverage of the source documents by the shipped rule files.

* Every seed document is registered as a source by some game.
* A source's section registry matches the document: every section title occurs in the document
  verbatim, and every real heading of the document is registered.
* Every registered section of a seed document is cited by at least one node.

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
    lines = text.split("\n")
    if name.endswith(".md"):
        found = [re.sub(r"^#+\s*", "", ln).strip() for ln in lines if re.match(r"^#{1,6}\s", ln)]
        counts = Counter(found)
        return [h for h in found if counts[h] == 1 and not h.startswith("tags:")]
    if name == "ws-phases.en.txt":
        return [ln.strip() for ln in lines if ln.strip() and len(ln) < 45 and not ln.strip().endswith(".")]
    if name == "versus-turn-and-phases.ja.txt":
        found = [lines[0].rsplit("\t", 1)[-1].strip()]
        found += [ln.strip() for ln in lines[1:] if ln.startswith("\t") and "。" not in ln and len(ln.strip()) < 30]
        return found
    if name == "gundam-war-play-timing.ja.txt":
        out = []
        for ln in lines:
            s = ln.strip()
            if s and "|" not in s and "。" not in s and len(s) < 30 and s[0] not in "※-" and s not in out:
                out.append(s)
        return out
    if name == "aquarian-age-faction-phase.ja.txt":
        return [ln.strip().lstrip("■").strip() for ln in lines if ln.strip().startswith("■")]
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


def test_the_four_games_are_shipped():
    assert sorted(p.parent.name for p in RULE_FILES) == ["aquarian", "gundam", "versus", "ws"]


@needs_shared
def test_every_seed_document_is_registered():
    registered = {Path(src.file).name for _, src in _sources()}
    seeds = {p.name for p in SEEDS.iterdir() if p.name != "README.md"}
    assert seeds, f"no seed documents under {SEEDS}"
    assert seeds <= registered, f"seed documents no game cites: {sorted(seeds - registered)}"


@needs_shared
@pytest.mark.parametrize("rule_file", RULE_FILES, ids=lambda p: p.parent.name)
def test_section_registry_matches_document(rule_file):
    res = compile_file(rule_file, str(rule_file.relative_to(ROOT)))
    assert res.game is not None, [f"{d.line}:{d.col} {d.message}" for d in res.errors]
    for src in res.game.sources.values():
        if not src.file:
            continue
        path = SHARED / src.file
        assert path.is_file(), f"source '{src.id}' names {src.file}, not found under {SHARED}"
        text = path.read_text(encoding="utf-8")
        flat = _norm(text)
        titles = [_norm(s.title) for s in src.sections]
        missing_in_doc = [t for t in titles if t not in flat]
        assert not missing_in_doc, f"{src.id}: section titles not found verbatim in {src.file}: {missing_in_doc}"
        if not src.file.startswith("seeds/"):
            continue  # shared notes (rules-notes.md): each game registers only its own part
        unregistered = [h for h in headings(path.name, text) if _norm(h) not in titles]
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
    aq = "勢力フェイズ\n\n■勢力パーティ\n　◆text\n■勢力チェック\n"
    assert headings("aquarian-age-faction-phase.ja.txt", aq) == ["勢力パーティ", "勢力チェック"]

"""Rebuilding the site for a change in some games' files (``tcgtiming serve``), in place: only those
games are compiled again and their scenarios and rulings run again, only their charts are drawn (the
chart cache keeps the unchanged ones), and only their pages, search records, models, tables and
traces are written, each file only when its text changed; the shared pages (home, reference, guide,
search) are made again from all games and, being the same, left as they are. Links are checked on
the files written. When the navigation every page shows changes (a game, phase, procedure, scenario
or ruling added, removed or renamed), or the games' ids do, ``update`` returns None: the caller
builds everything (``publish.build``).

The search index is not part of it: Pagefind has no way to update an index on disk (its index is
built from all pages, as a whole), so ``publish.search_index`` runs again over each language after
the pages are in place.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ...core.text import LANGS
from .docs import HAND_WRITTEN, generate, nav
from .inputs import Inputs, collect


@dataclass
class Updated:
    inputs: Inputs  # all games: the changed ones compiled again, the others as before
    games: list[str]  # the ids of the games rebuilt
    written: list[Path]  # the site's files written (the pages and files of those games)


def game_folders(inputs: Inputs, rules_dir: str) -> dict[str, str]:
    """Game id -> the folder of the rules folder that holds its rule file ('' when it is not in one)."""
    out = {}
    for g in inputs.games:
        parts = Path(os.path.relpath(g.file, rules_dir)).parts
        out[g.id] = parts[0] if len(parts) > 1 and parts[0] != ".." else ""
    return out


def changed_folders(paths, rules_dir: str, inputs: Inputs) -> set[str] | None:
    """The game folders the changed files are in; None when a file is anywhere else (a new game's
    folder, a file directly in the rules folder, a template): then everything is built again."""
    known = set(game_folders(inputs, rules_dir).values()) - {""}
    out = set()
    for p in paths:
        rel = os.path.relpath(p, rules_dir)
        parts = Path(rel).parts
        if len(parts) < 2 or parts[0] == ".." or parts[0] not in known:
            return None
        out.add(parts[0])
    return out


def update(rules_dir: str, out: Path, before: Inputs, folders: set[str], cache: Path | None = None,
           workers: int | None = None, templates: Path | None = None) -> Updated | None:
    """Rebuild the games in the given folders of the rules folder into OUT (built before, from
    ``before``); None when everything has to be built again. Raises what ``publish.build`` raises."""
    from .publish import BuildError, draw_charts, render_pages, write_models, write_tables, write_traces
    from .render import write_bytes, check_links

    fresh = collect(rules_dir, folders)
    where = game_folders(before, rules_dir)
    ids = {g.id for g in fresh.games}
    if ids != {gid for gid, f in where.items() if f in folders}:
        return None  # a game's id changed, or a folder holds another game now
    merged = Inputs(sorted([g for g in before.games if g.id not in ids] + fresh.games, key=lambda g: g.id),
                    {**{k: v for k, v in before.runs.items() if k not in ids}, **fresh.runs},
                    {**{k: v for k, v in before.rulings.items() if k not in ids}, **fresh.rulings})
    navs = {lang: nav(merged, lang) for lang in LANGS}
    if any(navs[lang] != nav(before, lang) for lang in LANGS):
        return None
    site = out / "site"
    with tempfile.TemporaryDirectory(prefix=".update-", dir=out) as tmp:
        stage = Path(tmp)
        draw_charts(fresh, stage, cache, workers)
        pages = {lang: generate(merged, stage, lang, HAND_WRITTEN, games=ids) for lang in LANGS}
        changed: dict[Path, bytes] = {}
        render_pages(pages, navs, site, templates, shared=False, changed=changed)
        for f in sorted((stage / "charts").rglob("*")):  # the charts as 'render' draws them
            if f.is_file():
                write_bytes(out / f.relative_to(stage), f.read_bytes())
    write_models(fresh, out / "models")
    write_tables(fresh, out / "charts")
    write_traces(fresh, out / "traces")
    written = [site / lang / path for lang, p in pages.items() for path in [*p.pages, *p.files]]
    _drop_stale(site, ids, set(written))
    problems = check_links(site, files=_to_check(changed, written))
    if problems:
        raise BuildError(f"{len(problems)} broken link(s):\n  " + "\n  ".join(problems[:20]))
    return Updated(merged, sorted(ids), written)


def _to_check(changed: dict[Path, bytes], written: list[Path]) -> list[Path]:
    """The files whose links are checked: those that changed; all the games' files when a changed
    page lost an anchor (a page that did not change may link to it)."""
    from .render import ids_of

    pages = [f for f in changed if f.suffix in (".html", ".svg")]
    for f in pages:
        if f.suffix == ".html" and changed[f]:
            if not ids_of(changed[f].decode("utf-8")) <= ids_of(f.read_text(encoding="utf-8")):
                return [f for f in written if f.suffix in (".html", ".svg")]
    return pages


def _drop_stale(site: Path, ids: set[str], made: set[Path]) -> None:
    """Files of the rebuilt games' folders (and search records) that this build did not make."""
    for lang in LANGS:
        for gid in ids:
            for folder in (site / lang / gid, site / lang / "nodes" / gid):
                if folder.is_dir():
                    for f in folder.rglob("*"):
                        if f.is_file() and f not in made:
                            f.unlink()


__all__ = ["Updated", "changed_folders", "game_folders", "update"]

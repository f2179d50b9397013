"""tcgtiming reference: print the reference tables, or check / refresh the generated blocks of the
guide pages (and of the Markdown files given, e.g. README.md)."""
from __future__ import annotations

import sys
from pathlib import Path

from ..present.reference import BLOCKS, command_list, commands_reference, file_page, guide_pages
from .common import write_atomic
from .parser import parser


def blocks() -> dict:
    """Every block: the present layer's, and the commands, which come from this layer's parser."""
    return {**BLOCKS, "commands": lambda base: commands_reference(parser()),
            "command_list": lambda base: command_list(parser())}


def run(args) -> int:
    made = blocks()
    if not (args.files or args.check or args.update):
        for name, make in made.items():
            sys.stdout.write(f"## {name}\n\n{make(Path.cwd())}\n\n")
        return 0
    pages = guide_pages(made)
    for f in args.files:
        try:
            pages.append(file_page(Path(f), made))
        except OSError as exc:
            sys.stderr.write(f"tcgtiming reference: error: cannot read {f}: {exc.strerror or exc}\n")
            return 2
    problems = [p for page in pages for p in page.problems]
    for p in problems:
        sys.stderr.write(f"{p}\n")
    stale = [page for page in pages if page.stale]
    if args.check:
        for page in stale:
            sys.stderr.write(f"{page.name}: generated blocks are stale: run "
                             f"'tcgtiming reference --update{''.join(' ' + f for f in args.files)}'\n")
        if not (problems or stale):
            sys.stdout.write(f"generated blocks are current in {len(pages)} pages\n")
        return 1 if problems or stale else 0
    for page in stale:
        if page.path is None:
            sys.stderr.write(f"{page.name}: stale, but not a file that can be rewritten\n")
            return 1
        write_atomic(str(page.path), page.fresh)
        sys.stderr.write(f"updated {page.name}\n")
    return 1 if problems else 0

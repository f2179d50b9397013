"""The front end: file -> loaded YAML -> schema -> semantic checks -> compiled model.

Like a compiler's front end (scan, parse, resolve), each layer runs only on what the previous one
accepted, but every layer reports all it finds. Nothing is returned as a model when any error was
found (warnings do not block).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from . import checks, compiler, schema
from .diagnostics import Diagnostic
from .loader import Document, load
from .model import Game

YAML_SUFFIXES = (".yaml", ".yml")


@dataclass
class Result:
    file: str
    doc: Document | None
    game: Game | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]


def compile_document(doc: Document) -> Result:
    res = Result(doc.file, doc, diagnostics=list(doc.diagnostics))
    if doc.data is None:  # the YAML could not be read at all
        return _done(res)
    rf, diags = schema.validate(doc)
    res.diagnostics += diags
    placeholders: tuple = ()
    if rf is None:
        if any(d.code == "S200" for d in diags):
            return _done(res)
        rf, placeholders = schema.recover(doc, diags)
        if rf is None:
            return _done(res)
    later = checks.check_file(rf, doc)
    game, diags = compiler.build(rf, doc)
    later += diags
    if placeholders:  # problems inside a replaced node are artefacts of the recovery
        later = [d for d in later if not any(_inside(doc, d, p) for p in placeholders)]
    res.diagnostics += later
    if game is not None and not res.errors:
        res.diagnostics += checks.check_graph(game, doc)
    if not res.errors:
        res.game = game
    return _done(res)


def _inside(doc: Document, d: Diagnostic, path: tuple) -> bool:
    span = doc.span(path)
    return (d.line, d.col) >= (span.line, span.col) and (d.line < span.end_line or
                                                       (d.line == span.end_line and d.col < span.end_col))


def _done(res: Result) -> Result:
    seen = set()
    unique = []
    for d in sorted(res.diagnostics, key=Diagnostic.sort_key):
        k = (d.code, d.line, d.col, d.message)
        if k not in seen:
            seen.add(k)
            unique.append(d)
    res.diagnostics = unique
    return res


def compile_file(path: str | os.PathLike, display: str | None = None) -> Result:
    return compile_document(load(path, display))


def find_rule_files(path: str) -> list[str]:
    """A file as given, or every YAML file below a directory (sorted), skipping scenario folders."""
    if os.path.isdir(path):
        found = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("scenarios", "rulings"))
            found += [os.path.join(root, f) for f in sorted(files) if f.endswith(YAML_SUFFIXES)]
        return found
    return [path]

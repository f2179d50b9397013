"""Reports of diagnostics for people (text with the source line and a caret) and for tools (JSON)."""
from __future__ import annotations

import json
import os
import unicodedata

from ..core.diagnostics import Diagnostic


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


class Style:
    def __init__(self, color: bool):
        self.color = color

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text


def use_color(stream) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def format_text(d: Diagnostic, line_text: str | None, style: Style | None = None) -> str:
    st = style or Style(False)
    sev = st(d.severity, "1;31" if d.severity == "error" else "1;33")
    head = f"{d.file}:{d.line}:{d.col}: {sev}[{d.code}]: {d.message}" if d.line else f"{d.file}: {sev}[{d.code}]: {d.message}"
    out = [st(head, "1") if not st.color else head]
    if d.line and line_text is not None:
        shown = line_text.replace("\t", " ")
        gutter = " " * len(str(d.line))
        pad = _width(shown[: max(d.col - 1, 0)])
        under = max(1, _width(shown[d.col - 1: d.col - 1 + d.length])) if d.col - 1 < len(shown) else 1
        out.append(f"{gutter} |")
        out.append(f"{d.line} | {shown}")
        out.append(f"{gutter} | {' ' * pad}{st('^' * under, '1;31' if d.severity == 'error' else '1;33')}")
    for note in d.notes:
        out.append(f"  = note: {note}")
    if d.help:
        out.append(f"  = help: {d.help}")
    return "\n".join(out)


def summary(diags: list[Diagnostic], files: int) -> str:
    errors = sum(1 for d in diags if d.severity == "error")
    warnings = len(diags) - errors
    noun = "file" if files == 1 else "files"
    if not diags:
        return f"ok: {files} {noun} checked, no problems"
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)} in {files} {noun}"


def as_json(diags: list[Diagnostic], files: list[str]) -> str:
    errors = sum(1 for d in diags if d.severity == "error")
    return json.dumps({
        "version": 1,
        "files": files,
        "errors": errors,
        "warnings": len(diags) - errors,
        "diagnostics": [d.as_json() for d in diags],
    }, ensure_ascii=False, indent=2)


def write(stream, text: str) -> None:
    stream.write(text)
    if not text.endswith("\n"):
        stream.write("\n")


"""The loader: bytes on disk -> plain Python data plus the source position of every value.

This is the only module that imports yaml. It reads YAML through libyaml's event stream (the C
parser when available) and builds the data itself, so that it can:

* refuse aliases and explicit tags (no "billion laughs", no object construction);
* reject duplicate keys instead of silently keeping the last one;
* resolve plain scalars the YAML 1.2 way (``no`` stays a word) and flag every scalar that a
  YAML 1.1 reader would turn into something else (``yes/no/on/off``, ``1:30``, ``0755``);
* bound the size and nesting of what it accepts, and never open a FIFO, socket or device;
* refuse control, bidirectional-control and line-separator characters (``UNSAFE_CHARS``), raw or
  escaped, and count lines as editors do (only \\n, \\r\\n and \\r break a line);
* remember the line and column of every value and of every mapping key (``Span``), so that
  later layers (schema, checks) can point at the exact place of a problem.

Nothing here raises on bad input: every problem is a ``Diagnostic``.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field

import yaml

from ..core.diagnostics import Diagnostic
from ..core.text import UNSAFE_CHARS, char_name, editor_lines, line_col, unsafe_in_file

try:  # the C parser is ~10x faster; fall back to the pure-Python one where libyaml is missing
    _LOADER = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _LOADER = yaml.SafeLoader

MAX_BYTES = 1024 * 1024  # rule files are tens of kB; 1 MiB is generous and reads in ~0.4 s
MAX_PROBLEMS = 100  # stop reading a file after this many problems: the rest is noise
MAX_DEPTH = 64  # the deepest real rule file nests about 20 levels
MAX_NODES = 500_000

Path = tuple  # a data path: keys (str) and list indices (int)


@dataclass(frozen=True, slots=True)
class Span:
    line: int  # 1-based
    col: int  # 1-based
    end_line: int
    end_col: int

    @property
    def length(self) -> int:
        return max(1, self.end_col - self.col) if self.end_line == self.line else 1


@dataclass
class Document:
    """One loaded YAML file: its data and where each piece of it came from."""

    file: str  # the name used in messages (as given on the command line)
    text: str
    data: object = None
    spans: dict = field(default_factory=dict)  # path -> Span of the value
    key_spans: dict = field(default_factory=dict)  # path -> Span of the mapping key naming it
    diagnostics: list = field(default_factory=list)
    _lines: list | None = field(default=None, repr=False, compare=False)

    def span(self, path: Path, key: bool = False) -> Span:
        """The span of the value at ``path`` (or of its key), falling back to the nearest parent."""
        path = tuple(path)
        if key and path in self.key_spans:
            return self.key_spans[path]
        while path not in self.spans and path:
            path = path[:-1]
        return self.spans.get(path, Span(1, 1, 1, 2))

    def diag(self, code: str, message: str, path: Path = (), *, key: bool = False,
             help: str | None = None, notes: tuple = ()) -> Diagnostic:
        s = self.span(path, key=key)
        return Diagnostic(code, message, self.file, s.line, s.col, s.length, help, tuple(notes))

    def line_text(self, line: int) -> str:
        if self._lines is None:
            self._lines = editor_lines(self.text)
        return self._lines[line - 1] if 0 < line <= len(self._lines) else ""


# --- scalar resolution (YAML 1.2 core schema, with YAML 1.1 traps flagged) -------------------
_NULL = {"", "~", "null", "Null", "NULL"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_YAML11_BOOL = re.compile(r"^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$")
_INT = re.compile(r"^[-+]?[0-9]+$")
_OCTAL_LIKE = re.compile(r"^[-+]?0[0-9]+$")
_SEXAGESIMAL = re.compile(r"^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_INF_NAN = {".inf": float("inf"), "+.inf": float("inf"), "-.inf": float("-inf"), ".nan": float("nan")}
_BASE_INT = re.compile(r"^0[xob][0-9a-fA-F_]+$")


def _resolve_plain(value: str):
    """Returns (python value, problem or None)."""
    if value in _NULL:
        return None, None
    if value in _TRUE:
        return True, None
    if value in _FALSE:
        return False, None
    if _YAML11_BOOL.match(value):
        meaning = "true" if value.lower() in {"y", "yes", "on"} else "false"
        return value, (f"'{value}' is read as {meaning} by YAML 1.1 tools but as a string here",
                       f"write {meaning} for a yes/no value, or quote it ('{value}') for the word")
    if _OCTAL_LIKE.match(value):
        return value, (f"'{value}' is an octal number for YAML 1.1 tools",
                       f"write {int(value.lstrip('+-0') or '0')} or quote it ('{value}')")
    if _SEXAGESIMAL.match(value):
        return value, (f"'{value}' is a base-60 number for YAML 1.1 tools (1:30 -> 90)",
                       f"quote it ('{value}')")
    if _INT.match(value):
        if len(value.lstrip("+-")) > 18:
            return value, ("number-range", None)
        return int(value), None
    if _BASE_INT.match(value):
        return value, (f"'{value}' is a number in another base for some YAML tools",
                       f"write it in decimal or quote it ('{value}')")
    if value.lower() in _INF_NAN:
        return _INF_NAN[value.lower()], None
    if _FLOAT.match(value):
        return float(value), None
    return value, None


# --- the event-driven composer ---------------------------------------------------------------
class _Abort(Exception):
    pass


def _span(ev) -> Span:
    s, e = ev.start_mark, ev.end_mark
    return Span(s.line + 1, s.column + 1, e.line + 1, e.column + 1)


_SPECIAL = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"))


def special_file(mode: int) -> str | None:
    """What a file that is neither a regular file nor a folder is (a FIFO, a socket, a device), or None."""
    return next((what for test, what in _SPECIAL if test(mode)), None if stat.S_ISREG(mode) or stat.S_ISDIR(mode)
                else "not a regular file")


def load(path: str | os.PathLike, display: str | None = None) -> Document:
    """Load one YAML file. Never raises for bad input: problems are in ``doc.diagnostics``. A FIFO,
    socket or device is refused without being opened (reading one could block for ever)."""
    name = display if display is not None else str(path)
    doc = Document(name, "")
    try:
        raw = _read(path, name, doc)
    except OSError as exc:
        doc.diagnostics.append(Diagnostic("Y100", f"cannot read the file: {exc.strerror or exc}", name, 0, 0))
        return doc
    return doc if raw is None else load_bytes(raw, name)


def _read(path, name: str, doc: Document) -> bytes | None:
    st = os.stat(path)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(21, "Is a directory", str(path))
    what = special_file(st.st_mode)
    if what is None and st.st_size > MAX_BYTES:
        doc.diagnostics.append(Diagnostic(
            "Y107", f"file is {st.st_size:,} bytes; the limit is {MAX_BYTES:,} bytes", name, 1, 1,
            help="a rule file describes one game and is normally well under 100 kB"))
        return None
    if what is None:  # opened without blocking, and checked again: it may have been swapped meanwhile
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as fh:
            what = special_file(os.fstat(fd).st_mode)
            if what is None:
                return fh.read(MAX_BYTES + 1)
    doc.diagnostics.append(Diagnostic("Y100", f"not a regular file but {what}: refused without reading it", name, 0, 0,
                                      help="name the rule or scenario file itself"))
    return None


def load_bytes(raw: bytes, name: str) -> Document:
    doc = Document(name, "")
    if len(raw) > MAX_BYTES:
        doc.diagnostics.append(Diagnostic("Y107", f"file is {len(raw):,} bytes; the limit is {MAX_BYTES:,} bytes", name, 1, 1))
        return doc
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    nul = raw.find(b"\x00")
    if nul >= 0:
        line, col = line_col(raw[:nul + 1].decode("utf-8", "replace"), len(raw[:nul].decode("utf-8", "replace")))
        doc.diagnostics.append(Diagnostic("Y108", "the file contains a NUL byte: it looks binary, not YAML text", name, line, col,
                                          help="rule files are UTF-8 text"))
        return doc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start].decode("utf-8", "replace")
        line, col = line_col(before + "?", len(before))
        doc.diagnostics.append(Diagnostic("Y108", f"byte 0x{raw[exc.start]:02x} is not valid UTF-8", name, line, col,
                                          help="save the file as UTF-8 (Shift_JIS and other encodings are not read)"))
        return doc
    doc.text = text
    _compose(doc, _refuse_unsafe(doc))
    if doc.data is None and not doc.diagnostics:
        doc.diagnostics.append(Diagnostic("Y109", "the file is empty: no YAML document in it", name, 1, 1))
    return doc


def _refuse_unsafe(doc: Document) -> str:
    """A located Y115 for every character of UNSAFE_CHARS in the file; the text for the parser, with
    each of them replaced by a space (the same length: the parser's positions stay the editor's)."""
    text, found = doc.text, []
    for i, ch in unsafe_in_file(text):
        if len(found) < MAX_PROBLEMS:
            line, col = line_col(text, i)
            found.append(_unsafe_diag(doc, ch, line, col))
        text = text[:i] + " " + text[i + 1:]
    doc.diagnostics += found
    return text


def _unsafe_diag(doc: Document, ch: str, line: int, col: int, length: int = 1) -> Diagnostic:
    if ch in "\u2028\u2029\x85":
        why, fix = "a line break to YAML but not to editors: line numbers would disagree", "use a real new line"
    elif ch in "\u061c\u200e\u200f" or "\u202a" <= ch <= "\u202e" or "\u2066" <= ch <= "\u2069":
        why, fix = "a bidirectional control: it reorders how the text around it is shown", "remove it"
    else:
        why, fix = "a control character: invisible, and refused by charts and pages", "remove it"
    return Diagnostic("Y115", f"{char_name(ch)} in the text: {why}", doc.file, line, col, length,
                      help=fix + " (it may be written as an escape in a quoted string)")


def _compose(doc: Document, text: str) -> None:
    # stack items: [container, path, pending_key, pending_key_span, span]
    stack: list[list] = []
    documents = 0
    count = 0
    try:
        for ev in yaml.parse(text, Loader=_LOADER):
            if isinstance(ev, (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)):
                continue
            if isinstance(ev, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    s = _span(ev)
                    doc.diagnostics.append(Diagnostic("Y110", "a second YAML document ('---') in one file", doc.file,
                                                      s.line, s.col, 3, help="one file holds one game definition"))
                    raise _Abort
                continue
            count += 1
            if len(doc.diagnostics) >= MAX_PROBLEMS:
                s = _span(ev)
                doc.diagnostics.append(Diagnostic("Y114", f"{MAX_PROBLEMS} problems found; stopped reading the file here",
                                                  doc.file, s.line, s.col))
                raise _Abort
            if count > MAX_NODES:
                s = _span(ev)
                doc.diagnostics.append(Diagnostic("Y107", f"more than {MAX_NODES:,} YAML values", doc.file, s.line, s.col))
                raise _Abort
            if isinstance(ev, yaml.AliasEvent):
                s = _span(ev)
                doc.diagnostics.append(Diagnostic("Y105", f"alias '*{ev.anchor}' refused: anchors and aliases are not supported",
                                                  doc.file, s.line, s.col, s.length,
                                                  help="write the value out, or define a named procedure and call it"))
                raise _Abort
            anchor = getattr(ev, "anchor", None)
            if anchor is not None:
                s = _span(ev)
                doc.diagnostics.append(Diagnostic("Y105", f"anchor '&{anchor}' refused: anchors and aliases are not supported",
                                                  doc.file, s.line, s.col, len(anchor) + 1,
                                                  help="write the value out, or define a named procedure and call it"))
                raise _Abort
            tag = getattr(ev, "tag", None)
            if tag is not None and tag != "!":
                s = _span(ev)
                doc.diagnostics.append(Diagnostic("Y111", f"explicit tag '{tag}' refused", doc.file, s.line, s.col,
                                                  help="remove the tag; quote the value if it must be a string"))
                raise _Abort
            if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                value, path, _, _, start = stack.pop()
                end = ev.end_mark
                doc.spans[path] = Span(start.line, start.col, end.line + 1, end.column + 1)
                _place(doc, stack, value, path, None)
                continue
            if stack and isinstance(stack[-1][0], dict) and stack[-1][2] is None:
                _take_key(doc, stack, ev)
                continue
            path = _child_path(stack)
            span = _span(ev)
            if isinstance(ev, yaml.ScalarEvent):
                _check_chars(doc, ev.value, span)
                if not ev.style and ev.implicit[0]:
                    value, problem = _resolve_plain(ev.value)
                    if problem is not None:
                        if problem[0] == "number-range":
                            doc.diagnostics.append(Diagnostic("Y113", f"number with {len(ev.value)} digits is out of range",
                                                              doc.file, span.line, span.col, span.length))
                        else:
                            doc.diagnostics.append(Diagnostic("Y104", problem[0], doc.file, span.line, span.col,
                                                              span.length, help=problem[1]))
                else:
                    value = ev.value
                doc.spans[path] = span
                _place(doc, stack, value, path, span)
            else:
                if len(stack) >= MAX_DEPTH:
                    doc.diagnostics.append(Diagnostic("Y106", f"nesting deeper than {MAX_DEPTH} levels",
                                                      doc.file, span.line, span.col,
                                                      help="split deep structures into named procedures"))
                    raise _Abort
                doc.spans[path] = span
                stack.append([{} if isinstance(ev, yaml.MappingStartEvent) else [], path, None, None, span])
    except _Abort:
        doc.data = None
        return
    except yaml.MarkedYAMLError as exc:
        doc.data = None
        doc.diagnostics.append(_syntax_diagnostic(doc, exc))
        return
    except yaml.reader.ReaderError as exc:  # a character YAML refuses (the unsafe ones are already replaced)
        doc.data = None
        line, col = line_col(doc.text, exc.position)
        doc.diagnostics.append(Diagnostic("Y101", f"YAML refuses the character {char_name(chr(exc.character))}"
                                          if isinstance(exc.character, int) else f"YAML error: {exc.reason}",
                                          doc.file, line, col))
        return
    except yaml.YAMLError as exc:  # pragma: no cover - libyaml always marks its errors
        doc.data = None
        doc.diagnostics.append(Diagnostic("Y101", f"YAML error: {exc}", doc.file, 1, 1))
        return
    except RecursionError:  # pragma: no cover - the composer does not recurse
        doc.data = None
        doc.diagnostics.append(Diagnostic("Y106", "nesting too deep", doc.file, 1, 1))


def _child_path(stack) -> tuple:
    if not stack:
        return ()
    container, path, key, *_ = stack[-1]
    if isinstance(container, dict):
        return path + (key,)
    return path + (len(container),)


def _take_key(doc: Document, stack, ev) -> None:
    top = stack[-1]
    span = _span(ev)
    if not isinstance(ev, yaml.ScalarEvent):
        doc.diagnostics.append(Diagnostic("Y112", "a mapping key must be a plain string, not a list or mapping",
                                          doc.file, span.line, span.col))
        raise _Abort
    key = ev.value
    _check_chars(doc, key, span)
    if key in top[0]:
        first = doc.key_spans.get(top[1] + (key,))
        where = f" (first at line {first.line}, column {first.col})" if first else ""
        doc.diagnostics.append(Diagnostic("Y103", f"duplicate key '{key}'{where}", doc.file, span.line, span.col,
                                          span.length, help="YAML keeps only the last value: remove or merge one of them"))
        key = _DuplicateKey(key)  # keep composing so that later problems are found too
    top[2] = key
    doc.key_spans[top[1] + (key,)] = span


def _check_chars(doc: Document, value: str, span: Span) -> None:
    """Y115 for a character of UNSAFE_CHARS that a quoted scalar wrote as an escape ("\\x1b", "\\u202e")."""
    m = UNSAFE_CHARS.search(value)
    if m is not None:
        doc.diagnostics.append(_unsafe_diag(doc, m.group(), span.line, span.col, span.length))


class _DuplicateKey(str):
    """A key seen twice: its value is composed (to find further errors) and then dropped."""


def _place(doc: Document, stack, value, path, span) -> None:
    if not stack:
        doc.data = value
        return
    top = stack[-1]
    if isinstance(top[0], dict):
        if not isinstance(top[2], _DuplicateKey):
            top[0][top[2]] = value
        top[2] = None
    else:
        top[0].append(value)


def _syntax_diagnostic(doc: Document, exc: yaml.MarkedYAMLError) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem = exc.problem or "invalid YAML"
    text_line = doc.line_text(line)
    ch = text_line[col - 1] if 0 < col <= len(text_line) else ""
    if ch == "\t" or ("\t" in text_line[:col] and "cannot start any token" in problem):
        tab_col = text_line.index("\t") + 1
        return Diagnostic("Y102", "tab character in indentation: YAML indents with spaces only", doc.file, line, tab_col,
                          help="replace the tab with spaces")
    context = f" ({exc.context})" if exc.context else ""
    message = f"YAML syntax: {problem}{context}"
    hint = None
    if "mapping values are not allowed" in problem:
        hint = "a value containing ': ' must be quoted, or the indentation is off"
    elif "could not find expected ':'" in problem:
        hint = "a key is missing its ':' or a quoted string is not closed"
    return Diagnostic("Y101", message, doc.file, line, col, help=hint)

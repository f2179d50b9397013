"""Text: the two languages, display width and line wrapping (Japanese line-break rules), lines as
editors count them, the characters no output may carry, and the escaping of text for Markdown.
Pure functions, no dependency.
"""
from __future__ import annotations

import functools
import html
import re
import unicodedata

LANGS = ("ja", "en")


_NO_START = set("、。，．・：；？！）」』】〕〉》ー～ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々,.:;!?)]}%")
_NO_END = set("（「『【〔〈《([{")
_GOOD_BREAK_AFTER = set("、。・：；）」』】 ,;:)—")


@functools.lru_cache(maxsize=4096)
def _cw(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def width(s: str) -> int:
    """Display columns: a wide (CJK) character counts 2."""
    return sum(map(_cw, s))


@functools.lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[str, ...]:
    """Words of ASCII letters/digits stay together; every wide character is a token of its own."""
    out: list[str] = []
    for ch in text:
        if out and ch.isascii() and not ch.isspace() and out[-1][-1:].isascii() and not out[-1][-1:].isspace() \
                and ch not in "([{" and out[-1][-1] not in ",;)]}":
            out[-1] += ch
        else:
            out.append(ch)
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def _wrap_cached(text: str, limit: int) -> tuple[str, ...]:
    return tuple(_wrap_balanced(text, limit))


def wrap(text: str, limit: int) -> list[str]:
    """Wrap to at most `limit` display columns; see _wrap_balanced."""
    return list(_wrap_cached(text, limit))


def _wrap_balanced(text: str, limit: int) -> list[str]:
    """Wrap to at most `limit` display columns (a wide character counts 2), balanced so that the
    last line is not a lone character, with Japanese line-break rules: no line starts with closing
    punctuation or a small kana, none ends with an opening bracket, and a break after 、 ） or a
    space is preferred when the line is already half full."""
    text = " ".join(text.split())
    total = width(text)
    if total <= limit:
        return [text] if text else [""]
    lines = _wrap(text, limit, True)
    plain = _wrap(text, limit, False)
    prefer = len(lines) <= len(plain)  # nice break points only when they cost no extra line
    lines = lines if prefer else plain
    if len(lines) > 1:  # balance: the same number of lines, the best break points, then the narrowest
        def quality(ls: list[str]) -> tuple:
            breaks = sum(_break_score(a, b) for a, b in zip(ls, ls[1:]))
            return (breaks, -max(width(x) for x in ls))

        best = lines
        floor = max(-(-total // len(lines)), max(width(t) for t in _tokens(text)), limit // 2, 6)
        for target in range(limit - 1, floor - 1, -1):
            cand = _wrap(text, target, prefer)
            if len(cand) != len(lines):
                break
            if quality(cand) > quality(best):
                best = cand
        lines = best
    return lines


def _wrap(text: str, limit: int, prefer: bool) -> list[str]:
    lines: list[str] = []
    cur: list[str] = []
    cw: list[int] = []  # running width of cur[:i+1]
    for tok in _tokens(" ".join(text.split())):
        if not cur and tok == " ":
            continue
        tw = width(tok)
        if cur and cw[-1] + tw > limit:
            if tok[0] in _NO_START or tok == " ":  # keep closing punctuation on this line
                cur.append(tok)
                cw.append(cw[-1] + tw)
                continue
            cut = len(cur)
            if prefer:  # the best break point in the second half of the line, the latest on a tie
                best = -1
                for i in range(len(cur), 0, -1):
                    if cw[i - 1] < limit // 2:
                        break
                    score = _break_score(cur[i - 1], cur[i] if i < len(cur) else tok)
                    if score > best:
                        best, cut = score, i
            while cut > 1 and cur[cut - 1][-1] in _NO_END:
                cut -= 1
            lines.append("".join(cur[:cut]).strip())
            cur = cur[cut:]
            while cur and cur[0] == " ":
                cur.pop(0)
            cw = []
            for t in cur:
                cw.append((cw[-1] if cw else 0) + width(t))
        cur.append(tok)
        cw.append((cw[-1] if cw else 0) + tw)
    if cur:
        lines.append("".join(cur).strip())
    return [ln for ln in lines if ln] or [""]


def _kind(ch: str) -> str:
    if "\u3041" <= ch <= "\u309f":
        return "hira"
    if "\u30a0" <= ch <= "\u30ff" or ch == "ー":
        return "kata"
    if ch.isascii() and ch.isalnum():
        return "ascii"
    return "other"


def _break_score(before: str, after: str) -> int:
    """How good a line break between two tokens is: after punctuation best, then at a hiragana to
    kanji/katakana change (a phrase boundary), never inside a katakana word."""
    a, b = before[-1], after[0]
    if a in _GOOD_BREAK_AFTER:
        return 3
    ka, kb = _kind(a), _kind(b)
    if ka == "hira" and kb != "hira":
        return 2
    if ka == kb and ka in ("kata", "ascii"):
        return 0
    return 1


def md_text(s: str) -> str:
    """Text for a Markdown context, shown as written: HTML-escaped (no tag, no entity), Markdown's
    special characters backslash-escaped (no link, no emphasis, no code), on one line."""
    s = html.escape(visible(s), quote=False)
    return re.sub(r"([\\`*_\[\]{}|])", r"\\\1", s).replace("\n", " ")


def md_cell(s: str) -> str:
    """Text for a Markdown table cell: as ``md_text`` (the column bar is one of the characters escaped)."""
    return md_text(s)


# --- lines as editors count them -------------------------------------------------------------------

_BREAK = re.compile(r"\r\n|\r|\n")


def editor_lines(text: str) -> list[str]:
    """The lines of a text as editors count them: broken only at \\n, \\r\\n and \\r (str.splitlines
    also breaks at \\v, \\f, U+0085, U+2028 and U+2029, which would shift every later line number)."""
    lines = _BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def line_col(text: str, index: int) -> tuple[int, int]:
    """The 1-based line (as editors count them) and column (in characters) of text[index]."""
    before = text[:index]
    breaks = list(_BREAK.finditer(before))
    if breaks and breaks[-1].group() == "\r" and text[index:index + 1] == "\n":  # inside a \r\n
        breaks.pop()
    start = breaks[-1].end() if breaks else 0
    return len(breaks) + 1, index - start + 1


# --- characters no output carries ------------------------------------------------------------------

# control characters but tab and line feed, DEL, the C1 controls (U+0085 among them), the line and
# paragraph separators, and the bidirectional controls (they reorder how the text around them is
# shown: "Trojan Source"); carriage return is allowed only as a line break of the file itself
UNSAFE_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_C0_NAMES = {"\x0b": "LINE TABULATION", "\x0c": "FORM FEED", "\x0d": "CARRIAGE RETURN", "\x1b": "ESCAPE",
             "\x7f": "DELETE", "\x85": "NEXT LINE"}


def unsafe_in_file(text: str):
    """(index, character) of every character of a file's text that UNSAFE_CHARS refuses (carriage
    returns, line breaks of the file, excepted)."""
    return ((m.start(), m.group()) for m in _UNSAFE_RAW.finditer(text))


def char_name(ch: str) -> str:
    """U+202E RIGHT-TO-LEFT OVERRIDE: a character as a message names it."""
    name = _C0_NAMES.get(ch) or unicodedata.name(ch, "") or "CONTROL CHARACTER"
    return f"U+{ord(ch):04X} {name}"


def visible(s: str) -> str:
    """Text with every character of UNSAFE_CHARS replaced by U+FFFD (what an output shows instead)."""
    return UNSAFE_CHARS.sub("\ufffd", s) if UNSAFE_CHARS.search(s) else s


# --- terms as written (a condition or an action of the compiled model, in the rule language's words) --
def value_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    return str(v)


def call_text(name: str, args) -> str:
    return name if not args else f"{name}({', '.join(f'{k}={value_text(v)}' for k, v in args)})"


def cond_text(c) -> str:
    from . import model as m  # the model imports this module (its languages)

    if isinstance(c, m.Pred):
        return call_text(c.name, c.args)
    if isinstance(c, m.Not):
        inner = cond_text(c.cond)
        return f"not ({inner})" if isinstance(c.cond, (m.All, m.AnyOf)) else f"not {inner}"
    if isinstance(c, (m.All, m.AnyOf)):
        sep = " and " if isinstance(c, m.All) else " or "
        parts = [f"({cond_text(x)})" if isinstance(x, (m.All, m.AnyOf)) else cond_text(x) for x in c.conds]
        return sep.join(parts)
    return str(c)

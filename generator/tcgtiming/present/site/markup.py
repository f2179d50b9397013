"""The site's HTML, escaped by construction: every fragment is a ``Markup`` built by ``h`` (or a
template with autoescaping), and every string put into one is escaped on the way in. Rule text never
becomes markup, and a URL from a rule file becomes a link only when it is http(s).

Also: the words of the site (the catalogue), links between pages, the chart files beside the pages,
and model objects (conditions, calls, citations, roles) as text in one language.
"""
from __future__ import annotations

import html
import posixpath
import re
from urllib.parse import urlsplit

from markupsafe import Markup, escape

from ...core import model as m
from ...core.model import Game, Node, Text
from ...core.text import call_text, cond_text, value_text  # noqa: F401  (the site's pages use them from here)
from ...core.words import word

# --- words ----------------------------------------------------------------------------------------


def w(key: str, lang: str, *args) -> str:
    """A word of the site, from the catalogue."""
    return word(f"site.{key}", lang, *args)


def tx(t: Text | None, lang: str) -> str:
    """A text of the rules in one language ('' for none)."""
    return "" if t is None else t.get(lang)


# --- building HTML --------------------------------------------------------------------------------

_VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "source"}


def h(tag: str, *children, **attrs) -> Markup:
    """An element: its children escaped unless they are Markup; attribute values escaped. ``class_``
    is ``class``; ``data_x`` is ``data-x``; None and False attributes are left out, True is bare."""
    parts = [tag]
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        parts.append(name if value is True else f'{name}="{escape(str(value))}"')
    head = Markup(f"<{' '.join(parts)}>")
    if tag in _VOID:
        return head
    return head + join("", children) + Markup(f"</{tag}>")


def join(sep, parts) -> Markup:
    """Parts joined, each escaped unless it is Markup."""
    return escape(sep).join(escape(x) if not isinstance(x, Markup) else x for x in parts if x is not None)


def a(href: str, *children, **attrs) -> Markup:
    return h("a", *children, href=href, **attrs)


def code(s: str) -> Markup:
    return h("code", s)


def safe_url(url: str | None) -> str | None:
    """A URL from a rule file that may be a link: http or https only (never javascript:, data:, …)."""
    if not url:
        return None
    clean = "".join(ch for ch in url if ch > " " and ch != "\x7f")
    try:
        scheme = urlsplit(clean).scheme.lower()
    except ValueError:
        return None
    return url if scheme in ("http", "https") and clean == url.strip() else None


def url_link(url: str | None) -> Markup:
    """A source's url: a link when it is http(s), else the text."""
    ok = safe_url(url)
    if ok is None:
        return code(url or "")
    return a(ok, ok, rel="noopener noreferrer")


# --- paths and links ------------------------------------------------------------------------------


def node_page(game: Game, node: Node) -> str:
    """The site path of a node's page; the page ``charts.node_url`` links to."""
    from ..charts import page_of

    return f"{game.id}/{page_of(node)}.html"


def rel(from_page: str, to_page: str, anchor: str | None = None) -> str:
    """A relative link from one page to another (and an anchor on it)."""
    frag = f"#{anchor}" if anchor else ""
    if to_page == from_page and anchor:
        return frag
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".") + frag


def link_node(game: Game, from_page: str, nid: str, text=None) -> Markup:
    node = game.nodes[nid]
    return a(rel(from_page, node_page(game, node), nid), text if text is not None else nid)


_HREF = re.compile(r'xlink:href="\.\./([^/"]+)/([^"#]+)\.md#([^"]*)"')
_SIZE = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"')
# the charts' own font first, then what a reader without it may have (CSS beats the font-family attributes)
_SVG_STYLE = ('<style>text { font-family: "IPAexGothic", "IPAGothic", "Noto Sans CJK JP", "Hiragino Sans", '
              '"Yu Gothic", sans-serif; }</style>')


def chart_file(svg: str, at: str) -> tuple[str, float, float]:
    """An SVG chart as a file of the site at path ``at``: links to the built pages (relative to it;
    they open in the whole window), no XML prologue or comments, no fixed size (it fills its frame).
    Returns the text and graphviz's size in points."""
    mo = _SIZE.search(svg)
    width, height = (float(mo.group(1)), float(mo.group(2))) if mo else (800.0, 600.0)
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.DOTALL)
    svg = _SIZE.sub('<svg width="100%"', svg, count=1)
    svg = svg.replace(' xmlns:xlink="http://www.w3.org/1999/xlink">',
                      ' xmlns:xlink="http://www.w3.org/1999/xlink">\n' + _SVG_STYLE, 1)

    def href(mo):
        page = f"{mo.group(1)}/{mo.group(2)}.html"
        return f'xlink:href="{html.escape(rel(at, page, html.unescape(mo.group(3))), quote=True)}"'

    svg = _HREF.sub(href, svg)
    # pan and zoom: our script, inside the chart's own document (it works in the page and alone)
    script = html.escape(rel(at, "assets/chart.js"), quote=True)
    end = svg.rfind("</svg>")
    if end >= 0:
        svg = svg[:end] + f'<script xlink:href="{script}"/>\n' + svg[end:]
    text = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + \
        "\n".join(line for line in svg.splitlines() if line.strip()) + "\n"
    return text, width, height

# --- model objects as text ------------------------------------------------------------------------


def role_text(game: Game, role: str | None, lang: str) -> str:
    from ..charts import role_label

    return role_label(game, role, lang)


def named(reg, key: str | None, lang: str) -> str:
    n = reg.get(key or "")
    return tx(n.name, lang) if n is not None else (key or "")


def cite(game: Game, c: m.Citation, page: str) -> Markup:
    """A citation: the source's title and section, linked to the sources page; its url when it has one."""
    src = game.sources.get(c.source)
    if src is None:
        return escape(str(c))
    anchor = f"src:{src.id}" + (f":{c.section}" if c.section else "")
    text = src.title
    if c.section:
        text += " § " + next((s.title for s in src.sections if s.id == c.section), c.section)
    out = a(rel(page, f"{game.id}/sources/index.html", anchor), text)
    if safe_url(src.url):
        out += Markup(" — ") + url_link(src.url)
    return out


def local_no(game: Game, node: Node) -> str:
    """The item's number, as on the chart and the phase page (``3.1.``)."""
    from ..charts import local_label

    return local_label(game, node)


def kind_word(game: Game, node: Node, lang: str) -> str:
    from ..charts import style_key, ui

    if node.kind == "begin":
        return w("start", lang)
    if node.kind == "end":
        return w("end", lang)
    return ui("k." + style_key(game, node), lang)


def slug(text: str) -> str:
    """A heading's id: its words, lower case, joined by '-' (Japanese kept)."""
    s = re.sub(r"[^\w\s-]", "", text.lower(), flags=re.UNICODE)
    return re.sub(r"[\s_]+", "-", s.strip()) or "section"

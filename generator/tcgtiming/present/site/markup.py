"""The site's Markdown and HTML: its words, escaping, bilingual text, links between pages, the chart
files beside the pages, and model objects (conditions, calls, citations, roles) as text."""
from __future__ import annotations

import html
import json
import posixpath
import re

from ...core import model as m
from ...core.model import Game, Node, Text
from ...core.text import md_text
from ...core.words import WORDS, word

# --- words ----------------------------------------------------------------------------------------


def w(key: str, lang: str) -> str:
    """A word of the site, from the catalogue."""
    return word(f"site.{key}", lang)


def both(key: str, sep: str = " / ") -> str:
    """'日本語 / English' for a word of the site."""
    ja, en = WORDS[f"site.{key}"]
    return f"{ja}{sep}{en}"


esc = md_text


def attr(s: str) -> str:
    return html.escape(s, quote=True)


def para(body: str, cls: str = "", lang: str = "") -> str:
    """A Markdown paragraph (one block: no blank line inside) with a class and a language (attr_list)."""
    attrs = " ".join(x for x in (" ".join(f".{c}" for c in cls.split()), f'lang="{lang}"' if lang else "") if x)
    return f"{body}\n{{: {attrs} }}\n" if attrs else f"{body}\n"


def note_para(t: Text, cls: str = "tcg-cnote") -> str:
    """A note in both languages, one paragraph."""
    return para(f'<span lang="ja">{esc(t.ja)}</span><br>\n<span lang="en">{esc(t.en)}</span>', cls)


def hb(key: str) -> str:
    """A table header in both languages, one above the other."""
    ja, en = WORDS[f"site.{key}"]
    return f'{esc(ja)}<br><span lang="en">{esc(en)}</span>'


def heading(ja: str, en: str) -> str:
    """A bilingual heading: the Japanese text, then the English one small (its id keeps both)."""
    if ja == en:
        return esc(ja)
    return f'{esc(ja)} <small lang="en">{esc(en)}</small>'


def bi(t: Text | None, sep: str = " / ") -> str:
    """Both languages of a text, escaped for Markdown."""
    if t is None:
        return ""
    if t.ja == t.en:
        return esc(t.ja)
    return f'{esc(t.ja)}{sep}<span lang="en">{esc(t.en)}</span>'


# --- paths and links ------------------------------------------------------------------------------


def node_page(game: Game, node: Node) -> str:
    """The docs path of a node's page; the same page as ``render.node_url``."""
    from ..charts import page_of

    return f"{game.id}/{page_of(node)}.md"


def rel(from_page: str, to_page: str, anchor: str | None = None) -> str:
    """A relative link from one docs page to another (and an anchor on it)."""
    frag = f"#{anchor}" if anchor else ""
    if to_page == from_page and anchor:
        return frag
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".") + frag


def html_url(page: str) -> str:
    """The built file of a docs page (use_directory_urls: false)."""
    return page[:-3] + ".html" if page.endswith(".md") else page


def link_node(game: Game, from_page: str, nid: str, text: str | None = None) -> str:
    node = game.nodes[nid]
    return f"[{text if text is not None else esc(nid)}]({rel(from_page, node_page(game, node), nid)})"


_HREF = re.compile(r'xlink:href="\.\./([^/"]+)/([^"#]+)\.md#([^"]*)"')
_SIZE = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"')
# the charts' own font first, then what a reader without it may have (CSS beats the font-family attributes)
_SVG_STYLE = ('<style>text { font-family: "IPAexGothic", "IPAGothic", "Noto Sans CJK JP", "Hiragino Sans", '
              '"Yu Gothic", sans-serif; }</style>')


def chart_file(svg: str, at: str) -> tuple[str, float, float]:
    """An SVG chart as a file of the site at docs path ``at``: links to the built pages (relative to
    it; they open in the whole window), no XML prologue or comments, no fixed size (it fills its
    frame: the page sets the size, a browser showing the file alone scales it to the window).
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
        return f'xlink:href="{attr(rel(html_url(at), page, html.unescape(mo.group(3))))}"'

    svg = _HREF.sub(href, svg)
    text = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + \
        "\n".join(line for line in svg.splitlines() if line.strip()) + "\n"
    return text, width, height

# --- formatting model objects ---------------------------------------------------------------------


def value_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    return str(v)


def call_text(name: str, args) -> str:
    return name if not args else f"{name}({', '.join(f'{k}={value_text(v)}' for k, v in args)})"


def cond_text(c) -> str:
    if isinstance(c, m.Pred):
        return call_text(c.name, c.args)
    if isinstance(c, m.Not):
        inner = cond_text(c.cond)
        return f"not ({inner})" if isinstance(c.cond, (m.All, m.AnyOf)) else f"not {inner}"
    if isinstance(c, (m.All, m.AnyOf)):
        word = " and " if isinstance(c, m.All) else " or "
        parts = [f"({cond_text(x)})" if isinstance(x, (m.All, m.AnyOf)) else cond_text(x) for x in c.conds]
        return word.join(parts)
    return str(c)


def code(s: str) -> str:
    return f"<code>{html.escape(s, quote=False)}</code>"


def role_text(game: Game, role: str | None) -> str:
    from ..charts import role_label

    return bi(Text(role_label(game, role, "ja"), role_label(game, role, "en")))


def named(reg, key: str | None) -> str:
    n = reg.get(key or "")
    return bi(n.name) if n is not None else esc(key or "")


def cite_md(game: Game, c: m.Citation, page: str) -> str:
    src = game.sources.get(c.source)
    sources_page = f"{game.id}/sources/index.md"
    if src is None:
        return esc(str(c))
    anchor = f"src:{src.id}" + (f":{c.section}" if c.section else "")
    text = esc(src.title)
    if c.section:
        sec = next((s.title for s in src.sections if s.id == c.section), c.section)
        text += f" § {esc(sec)}"
    out = f"[{text}]({rel(page, sources_page, anchor)})"
    if src.url:
        out += f" — <{src.url}>"
    return out


def local_no(node: Node) -> str:
    from ..charts import local_label

    return "" if node.kind in ("begin", "end") else local_label(node) + "."


def kind_words(game: Game, node: Node) -> tuple[str, str]:
    from ..charts import style_key, ui

    key = style_key(game, node)
    if node.kind == "begin":
        return "開始", "start"
    if node.kind == "end":
        return "終了", "end"
    return ui("k." + key, "ja"), ui("k." + key, "en")


def front_matter(title: str) -> str:
    """A page's YAML front matter: its title (JSON is YAML)."""
    return f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\n---\n\n"

"""Writing the site: every page of each language through the Jinja2 templates (autoescaping on; the
packaged ones in ``data/templates``, any of them overridden by a folder of the user's), the files
beside the pages, the root page (the two languages) and the 404 page; then every link checked.

Layout of the site folder: ``<lang>/...`` (``ja/``, ``en/``: the same paths in both, so that the
language switch keeps the page and the anchor), ``index.html`` (choose a language), ``404.html``.
"""
from __future__ import annotations

import posixpath
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from markupsafe import Markup

from ...core.text import LANGS
from .markup import rel, w
from .pages import Page, Pages

SITE_NAME = "tcgtiming"


def environment(templates: Path | None = None):
    """The templates: the user's folder first (any file there replaces the packaged one), then ours;
    ours also as ``tcgtiming/<name>``, so that a replacement can extend the one it replaces."""
    import jinja2

    ours = jinja2.PackageLoader("tcgtiming.present.site", "data/templates")
    loaders: list = [jinja2.FileSystemLoader(str(templates))] if templates is not None else []
    loaders += [ours, jinja2.PrefixLoader({"tcgtiming": ours})]  # "tcgtiming/base.html": ours, to extend
    return jinja2.Environment(loader=jinja2.ChoiceLoader(loaders), autoescape=True, undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=True)


def _other(lang: str) -> str:
    return next(x for x in LANGS if x != lang)


def frame_words(lang: str) -> dict[str, str]:
    other = _other(lang)
    return {"skip": w("skip", lang), "search": w("search", lang), "menu": w("menu", lang),
            "other_lang": w("lang_name", other), "search_go": w("search_go", lang), "english_only": w("english_only", lang), "footer": w("footer", lang)}


def nav_for(items: list[dict], page: Page) -> list[dict]:
    """The navigation as a page sees it: links relative to it, the current page marked, the branches
    leading to it (and its game's) open."""
    out = []
    for it in items:
        kids = nav_for(it["children"], page)
        current = it["path"] == page.path
        out.append({"title": it["title"], "href": rel(page.path, it["path"]) if it["path"] else None,
                    "children": kids, "current": current,
                    "open": current or any(k["open"] or k["current"] for k in kids)
                    or (it["game"] is not None and it["game"] == page.game)})
    return out


def kind_of(page: Page) -> str:
    return "home" if page.path == "index.html" else (page.path.split("/")[0] if page.game is None else "game")


def write_site(pages: dict[str, Pages], navs: dict[str, list], out: Path, templates: Path | None = None,
               shared: bool = True, changed: dict[Path, bytes] | None = None) -> int:
    """Write every language's pages and files into out; returns the number of pages. A file whose text
    is already there is left as it is (its time too); shared=False leaves out the landing and 404 pages.
    changed: filled with the files written (path -> what the file held before, b'' for a new one)."""
    changed = {} if changed is None else changed
    env = environment(templates)
    base = env.get_template("base.html")
    n = 0
    for lang, p in pages.items():
        root = out / lang
        for path, page in sorted(p.pages.items()):
            up = "../" * path.count("/")
            other_href = rel(path, f"../{_other(lang)}/{path}")
            body = page.body if page.template is None else Markup(env.get_template(page.template).render(**page.context))
            text = base.render(lang=lang, other_lang=_other(lang), other_href=other_href, title=page.title,
                               site_name=SITE_NAME, root=up, body=body, nav=nav_for(navs[lang], page),
                               words=frame_words(lang), kind=kind_of(page), search=page.search,
                               lang_body=page.lang_body, scripts=page.scripts)
            _write(root / path, text, changed)
            n += 1
        for path, content in sorted(p.files.items()):
            data = content.encode("utf-8") if isinstance(content, str) else content.read_bytes()
            _write(root / path, data, changed)
    if not shared:
        return n
    langs = [{"lang": x, "name": w("lang_name", x), "tagline": w("tagline", x), "not_found": w("not_found", x),
              "home": w("home", x)} for x in LANGS]
    _write(out / "index.html", env.get_template("landing.html").render(site_name=SITE_NAME, langs=langs), changed)
    _write(out / "404.html", env.get_template("404.html").render(site_name=SITE_NAME, langs=langs), changed)
    return n


def _write(path: Path, text: str | bytes, changed: dict[Path, bytes] | None = None) -> None:
    old = write_bytes(path, text.encode("utf-8") if isinstance(text, str) else text)
    if old is not None and changed is not None:
        changed[path] = old


def write_bytes(path: Path, data: bytes) -> bytes | None:
    """Write the file unless it holds these bytes already (a rebuild of the served site touches only
    what changed); returns what it held before (b'' when new), None when left as it was."""
    try:
        old = path.read_bytes()
        if old == data:
            return None
    except OSError:
        old = b""
        path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return old


# --- checking the links ---------------------------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for key in ("href", "src", "data", "xlink:href"):
            if a.get(key) and not (tag == "link" and a.get("rel") == "alternate" and key == "href" and False):
                self.links.append(a[key])


def ids_of(text: str) -> set[str]:
    """The anchors (ids) of a page's text."""
    p = _Links()
    p.feed(text)
    return p.ids


def _read(path: Path) -> _Links:
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def check_links(out: Path, skip: tuple[str, ...] = ("404.html",), files: list[Path] | None = None) -> list[str]:
    """Every link of every page and chart of the site folder (or of the given files in it) that does
    not resolve: 'file: link'. Links out of the site (http, https, mailto) are not followed."""
    parsed: dict[Path, _Links] = {}

    def get(f: Path) -> _Links:
        if f not in parsed:
            parsed[f] = _read(f)
        return parsed[f]

    root = out.resolve()
    inside: dict[Path, bool] = {}  # a link's target: a file of the site (each target checked once)

    def found(target: Path) -> bool:
        ok = inside.get(target)
        if ok is None:
            ok = inside[target] = target.is_file() and root in target.resolve().parents
        return ok

    problems = []
    for f in sorted(files if files is not None else [*out.rglob("*.html"), *out.rglob("*.svg")]):
        if f.relative_to(out).as_posix() in skip:
            continue
        for link in get(f).links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https", "mailto") or link == "data:,":
                continue
            if parts.scheme or link.startswith("/"):
                problems.append(f"{f.relative_to(out).as_posix()}: {link} (not a relative link)")
                continue
            target = f if not parts.path else Path(posixpath.normpath(f.parent / unquote(parts.path)))
            if not found(target):
                problems.append(f"{f.relative_to(out).as_posix()}: {link}")
                continue
            anchor = unquote(parts.fragment)
            if anchor and target.suffix == ".html" and anchor not in get(target).ids:
                problems.append(f"{f.relative_to(out).as_posix()}: {link} (no such anchor)")
    return problems

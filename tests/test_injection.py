"""The injection corpus (tests/injection.py) built into a site and opened, page by page, in headless
Chromium on 127.0.0.1: no dialog fires, no script from rule text runs, no link or frame points at a
``javascript:`` URL, no element carries an event-handler attribute, and the hostile strings show as
text."""
from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest
from injection import EVIL_CONSTANT, GAME_NAME, PLAYER_NAME, make_corpus

from tcgtiming.present import site

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by `make test`")
pytestmark = [pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is installed by `make test`"),
              pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")]

# what the page may not hold after it loaded: event handlers, javascript: URLs, scripts that are not ours
_AUDIT = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) {
      const v = a.value.trim().toLowerCase().replace(/[\\s\\u0000-\\u001f]/g, '');
      if (a.name.toLowerCase().startsWith('on')) bad.push(`${el.tagName} ${a.name}`);
      if (['href', 'src', 'data', 'action', 'formaction', 'xlink:href', 'srcdoc'].includes(a.name.toLowerCase())
          && (v.startsWith('javascript:') || a.name.toLowerCase() === 'srcdoc'))
        bad.push(`${el.tagName} ${a.name}=${a.value}`);
    }
  }
  for (const s of document.querySelectorAll('script')) {
    if (s.type === 'application/json') {  // data (the trace player's): it must parse, and hold no raw '<'
      try { JSON.parse(s.textContent); } catch (e) { bad.push('data that does not parse: ' + s.textContent.slice(0, 60)); }
      if (s.textContent.includes('<')) bad.push('data with a raw <: ' + s.textContent.slice(0, 60));
    } else if (s.textContent.includes('alert(')) bad.push('script: ' + s.textContent.slice(0, 60));
  }
  for (const f of document.querySelectorAll('iframe')) bad.push('iframe');
  return bad;
}"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    base = tmp_path_factory.mktemp("injection")
    rules = make_corpus(ROOT / "rules", base)
    out = site.build(str(rules), base / "out", cache=base / "cache").out / "site"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", out
    finally:
        server.shutdown()
        server.server_close()


def test_no_script_runs_from_rule_text_on_any_page(hostile_site):
    url, out = hostile_site
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    assert len(pages) > 50
    dialogs: list[str] = []
    found: dict[str, list[str]] = {}
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()

        def on_dialog(d):
            dialogs.append(f"{page.url}: {d.message}")
            d.dismiss()

        page.on("dialog", on_dialog)
        for rel in pages:
            page.goto(f"{url}/{rel}", wait_until="load")
            bad = page.evaluate(_AUDIT)
            for frame in page.frames[1:]:  # the charts (SVG in <object>)
                try:
                    bad += [f"chart: {x}" for x in frame.evaluate(_AUDIT)]
                except playwright_api.Error:
                    pass
            if bad:
                found[rel] = bad[:5]
        # the strings are shown as text
        page.goto(f"{url}/en/index.html")
        body = page.locator("body").inner_text()
        assert GAME_NAME in body
        assert GAME_NAME in page.locator("nav").inner_text()  # the navigation
        page.goto(f"{url}/en/ws/turn.html")
        assert GAME_NAME in page.title() and EVIL_CONSTANT in page.locator("main").inner_text()  # <title>, constants
        scenario = next(r for r in pages if r.startswith("en/ws/scenarios/") and not r.endswith("index.html"))
        page.goto(f"{url}/{scenario}")
        assert PLAYER_NAME in page.locator("body").inner_text()
        browser.close()
    assert dialogs == []
    assert found == {}


def test_every_format_of_render_and_simulate_keeps_rule_text_as_text(tmp_path):
    """The same corpus through `render` (SVG, PNG, DOT, Mermaid, the tables as Markdown, HTML and text)
    and `simulate` (text, JSON Lines, Markdown): graphviz accepts every DOT file (no attribute came
    from rule text), no SVG or HTML gets markup from it (opened in Chromium: no dialog, no handler,
    no javascript: link), no Markdown gets a link or a tag from it, every JSON line parses."""
    import json
    import re
    import subprocess
    import sys

    rules = make_corpus(ROOT / "rules", tmp_path)
    env = {"PYTHONPATH": str(ROOT / "generator"), "PATH": "/usr/bin:/bin", "TCGTIMING_CACHE_DIR": str(tmp_path / "c")}

    def tcg(*args):
        p = subprocess.run([sys.executable, "-m", "tcgtiming", *map(str, args)], env=env, capture_output=True,
                           text=True, timeout=600)
        assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
        return p.stdout

    out = tmp_path / "charts"
    tcg("render", rules, "--lang", "ja", "--lang", "en", "--format", "svg", "--format", "png", "--format", "dot",
        "--format", "mermaid", "--format", "table", "--out", out)
    files = sorted(p for p in out.rglob("*") if p.is_file())
    assert {p.suffix for p in files} >= {".svg", ".png", ".dot", ".mmd", ".md", ".html", ".txt"}
    link = re.compile(r"(?<!\\)\]\(\s*javascript:|<(script|img|svg|iframe|a)\b", re.I)  # Markdown: a link (not \]) or a tag
    tag = re.compile(r"<(script|img|svg|iframe|a)\b", re.I)  # Mermaid: labels are quoted text, no Markdown
    for f in files:
        if f.suffix in (".md", ".mmd"):
            text = f.read_text(encoding="utf-8")
            if f.suffix == ".mmd":  # the front matter's title is a YAML string that Mermaid draws as text
                text = "\n".join(line for line in text.splitlines() if not line.startswith("title: "))
            found = (link if f.suffix == ".md" else tag).search(text)
            assert not found, f"{f.name}: {found.group(0)}"
            if f.suffix == ".mmd":
                # Mermaid syntax from a label stays inside its quoted label: never a statement of its own
                assert not re.search(r"^\s*(click X|X\(\(evil)", text, re.M)
    traces = tmp_path / "traces"
    scenarios = sorted(rules.glob("*/scenarios/*.yaml"))
    tcg("simulate", *scenarios, "--out-dir", traces, "--lang", "ja")
    for f in sorted(traces.rglob("*")):
        if f.suffix == ".md":
            text = f.read_text(encoding="utf-8")
            assert not link.search(text), f"{f.name}: {link.search(text).group(0)}"
        elif f.suffix == ".jsonl":
            for line in f.read_text(encoding="utf-8").splitlines():
                json.loads(line)
    for fmt in ("markdown", "text"):
        text = tcg("simulate", scenarios[0], "--format", fmt, "--lang", "en")
        assert PLAYER_NAME in text.replace("&lt;", "<").replace("&gt;", ">").replace("\\", "") or fmt == "markdown"
        if fmt == "markdown":
            assert not link.search(text)
    dialogs, found = [], {}
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for f in files:
            if f.suffix in (".svg", ".html"):
                page.goto(f.as_uri(), wait_until="load")
                bad = page.evaluate(_AUDIT)
                if bad:
                    found[f.name] = bad[:5]
        browser.close()
    assert dialogs == [] and found == {}

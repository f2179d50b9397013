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
    if (s.textContent.includes('alert(')) bad.push('script: ' + s.textContent.slice(0, 60));
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

"""The built site in a real browser: headless Chromium (Debian's, driven by Playwright) on a local
server. What a reader does: open the home page, follow a game to a phase, land on a node's anchor
from a chart link, search the site. `make test` installs Debian's chromium and the playwright
package; Playwright cannot download browsers here, so it is pointed at /usr/bin/chromium.
"""
from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from tcgtiming.present import site
ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by `make test`")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is installed by `make test`")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    base = tmp_path_factory.mktemp("site-browser")
    out = site.build(str(ROOT / "rules"), base / "out", cache=base / "cache").out / "site"
    handler = functools.partial(_Quiet, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", base
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def page(served):
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        pg = browser.new_page(viewport={"width": 1280, "height": 1600})
        yield pg
        browser.close()


def test_home_lists_the_four_games_and_leads_to_a_phase(served, page):
    url, base = served
    page.goto(f"{url}/index.html")
    assert "tcgtiming" in page.title()
    table = page.locator("table").first
    for name in ("ヴァイスシュヴァルツ", "ＶＥＲＳＵＳ〜ヴァーサス〜", "ガンダムウォー", "アクエリアンエイジ"):
        assert table.get_by_text(name).count() >= 1
    page.get_by_role("link", name="ヴァイスシュヴァルツ").first.click()
    page.wait_for_load_state()
    assert page.url.endswith("/ws/turn.html")
    page.goto(f"{url}/ws/attack.html")
    assert page.locator("h1").first.inner_text().startswith("アタックフェイズ")
    page.screenshot(path=str(base / "ws-attack.png"), full_page=False)
    assert (base / "ws-attack.png").stat().st_size > 10_000


def test_a_chart_link_lands_on_the_node_entry(served, page):
    url, _ = served
    page.goto(f"{url}/ws/attack.html#attack.counter.3")
    entry = page.locator('[id="attack.counter.3"]')
    assert entry.count() == 1
    assert entry.is_visible() or page.locator('[id="attack.counter.3"] ~ *').count() > 0
    # the anchor is scrolled into view: it sits near the top of the viewport
    top = page.evaluate("document.getElementById('attack.counter.3').getBoundingClientRect().top")
    assert -50 < top < 400
    # the entry names the defender as the actor and carries both languages
    body = page.locator("body").inner_text()
    assert "非ターンプレイヤー" in body and "non-turn player" in body


def test_the_chart_object_loads_its_svg(served, page):
    url, _ = served
    page.goto(f"{url}/ws/attack.html")
    data = page.locator("object").first.get_attribute("data")
    assert data and data.endswith(".svg")
    response = page.request.get(f"{url}/ws/{data}" if not data.startswith(("/", "http")) else data)
    assert response.ok and b"<svg" in response.body()[:2000]


def test_search_finds_a_timing(served, page):
    url, _ = served
    page.goto(f"{url}/index.html")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    box.fill("カウンターステップ")
    box.press("End")  # material's search reacts to key presses, not to fill() alone
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=15_000)
    assert results.count() >= 1
    assert "カウンター" in page.locator(".md-search-result").inner_text()

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
    page.goto(f"{url}/ja/index.html")
    assert "tcgtiming" in page.title()
    table = page.locator("table").first
    for name in ("ヴァイスシュヴァルツ", "ＶＥＲＳＵＳ〜ヴァーサス〜", "ガンダムウォー", "アクエリアンエイジ"):
        assert table.get_by_text(name).count() >= 1
    page.get_by_role("link", name="ヴァイスシュヴァルツ").first.click()
    page.wait_for_load_state()
    assert page.url.endswith("/ja/ws/turn.html")
    page.goto(f"{url}/ja/ws/attack.html")
    assert page.locator("h1").first.inner_text().startswith("アタックフェイズ")
    page.screenshot(path=str(base / "ws-attack.png"), full_page=False)
    assert (base / "ws-attack.png").stat().st_size > 10_000


def test_a_chart_link_lands_on_the_node_entry(served, page):
    url, _ = served
    page.goto(f"{url}/ja/ws/attack.html#attack.counter.3")
    entry = page.locator('[id="attack.counter.3"]')
    assert entry.count() == 1
    assert entry.is_visible() or page.locator('[id="attack.counter.3"] ~ *').count() > 0
    # the anchor is scrolled into view: it sits near the top of the viewport
    top = page.evaluate("document.getElementById('attack.counter.3').getBoundingClientRect().top")
    assert -50 < top < 400
    # the entry names the defender as the actor, in the page's language
    body = page.locator("body").inner_text()
    assert "非ターンプレイヤー" in body and "non-turn player" not in body
    # the language switch keeps the page and the node
    page.locator("a.tcg-lang").click()
    page.wait_for_load_state()
    assert page.url.endswith("/en/ws/attack.html#attack.counter.3")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "non-turn player" in page.locator('[id="attack.counter.3"]').inner_text()


def test_the_chart_object_loads_its_svg(served, page):
    url, _ = served
    page.goto(f"{url}/ja/ws/attack.html")
    data = page.locator("object").first.get_attribute("data")
    assert data and data.endswith(".ja.svg")
    response = page.request.get(f"{url}/ja/ws/{data}" if not data.startswith(("/", "http")) else data)
    assert response.ok and b"<svg" in response.body()[:2000]


TERMS = ("勢力チェック", "勢力フェイズ", "ダメージ判定", "規定の効果", "アタック宣言", "自動能力", "待機状態", "チェックタイミング")
PARTIAL = ("勢力チェ", "ダメージ判", "アタック宣")


def _search(page, url: str, term: str, lang: str = "ja") -> list[dict]:
    page.goto(f"{url}/{lang}/search.html?q={term}")
    page.wait_for_function("document.getElementById('tcg-search-status').textContent.match(/件|found|見つかりません|Nothing/)",
                           timeout=15_000)
    return page.evaluate("""() => [...document.querySelectorAll('#tcg-search-results li')].map(li => ({
        node: li.classList.contains('tcg-hit-node'), href: li.querySelector('a').href,
        text: li.innerText}))""")


@pytest.mark.parametrize("term", TERMS + PARTIAL)
def test_search_finds_a_node_for_every_term(served, page, term):
    url, _ = served
    hits = _search(page, url, term)
    assert hits, term
    assert hits[0]["node"] and "#" in hits[0]["href"], hits[0]  # a node entry first, at its anchor
    assert "/nodes/" not in hits[0]["href"]
    page.goto(hits[0]["href"])
    anchor = hits[0]["href"].split("#", 1)[1]
    assert page.locator(f'[id="{anchor}"]').count() == 1


def test_search_says_it_needs_a_server_on_file_urls(served, page):
    _, base = served
    page.goto((base / "out" / "site" / "ja" / "search.html").as_uri() + "?q=x")
    status = page.locator("#tcg-search-status")
    status.wait_for()
    page.wait_for_timeout(200)
    assert "http.server" in status.inner_text()


def test_the_header_search_box_leads_to_the_results(served, page):
    url, _ = served
    page.goto(f"{url}/en/ws/turn.html")
    box = page.locator("header input[type=search]")
    box.fill("check timing")
    box.press("Enter")
    page.wait_for_url("**/en/search.html?q=check+timing")
    hits = _search(page, url, "check timing", "en")
    assert hits and hits[0]["node"]

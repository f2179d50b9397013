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


# --- charts that fit: pan and zoom, the steps of a large phase, print ------------------------------

def _zoom(page, i: int = 0) -> tuple[float, list[float]]:
    """The zoom of the page's i-th chart and its view box (read inside the chart's own document)."""
    return page.evaluate("""i => { const svg = document.querySelectorAll('object')[i].contentDocument.documentElement;
        return [parseFloat(svg.getAttribute('data-zoom')), svg.getAttribute('viewBox').split(' ').map(Number)]; }""", i)


def _chart_ready(page, i: int = 0) -> None:
    page.wait_for_function("""i => { const o = document.querySelectorAll('object')[i];
        return o && o.contentDocument && o.contentDocument.documentElement.getAttribute('data-zoom'); }""", arg=i)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_chart_fits_the_content_width_and_pans_and_zooms(served, page, width):
    url, _ = served
    page.set_viewport_size({"width": width, "height": 900})
    try:
        page.goto(f"{url}/ja/aquarian/faction.html")
        _chart_ready(page)
        frame = page.locator(".tcg-chart").first
        content = page.locator("main").first.bounding_box()
        box = frame.bounding_box()
        # no box scrolls of its own: the chart is inside the content, and the page does not scroll sideways
        assert box["x"] >= content["x"] - 1 and box["x"] + box["width"] <= content["x"] + content["width"] + 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate("""() => [...document.querySelectorAll('.tcg-chart, .tcg-chart-frame')].every(
            e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1)""")
        # the legend is HTML beside the chart (under it on a phone), not part of the drawing
        legend = page.locator(".tcg-legend").first.bounding_box()
        assert (legend["x"] >= box["x"] + box["width"] - 1) if width > 1000 else (legend["y"] >= box["y"] + box["height"] - 1)
        z, full = _zoom(page)
        assert z == 1
        page.locator(".tcg-zoom button[data-chart=in]").first.click()
        page.wait_for_function("parseFloat(document.querySelector('object').contentDocument.documentElement.getAttribute('data-zoom')) > 1.4")
        z, vb = _zoom(page)
        assert z == pytest.approx(1.5, rel=0.01) and vb[2] == pytest.approx(full[2] / 1.5, rel=0.01)
        # a drag pans the chart (the view box moves the other way) and follows no link
        before = page.url
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 120)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] / 2 - 80, box["y"] + 60, steps=6)
        page.mouse.up()
        z2, moved = _zoom(page)
        assert z2 == z and moved[0] > vb[0] and moved[1] > vb[1]
        assert page.url == before
        # pinch with two fingers zooms further (touch pointers inside the chart's document)
        page.evaluate("""() => { const svg = document.querySelector('object').contentDocument.documentElement;
            const ev = (type, id, x, y) => svg.dispatchEvent(new PointerEvent(type, {pointerId: id, clientX: x, clientY: y,
                pointerType: 'touch', bubbles: true, cancelable: true}));
            ev('pointerdown', 1, 100, 100); ev('pointerdown', 2, 140, 100);
            ev('pointermove', 2, 180, 100); ev('pointerup', 1, 100, 100); ev('pointerup', 2, 180, 100); }""")
        z3, _ = _zoom(page)
        assert z3 > z * 1.5
        page.locator(".tcg-zoom button[data-chart=fit]").first.click()
        page.wait_for_function("document.querySelector('object').contentDocument.documentElement.getAttribute('data-zoom') === '1.000'")
        assert _zoom(page)[1] == full
    finally:
        page.set_viewport_size({"width": 1280, "height": 1600})


def test_the_steps_of_a_large_phase_lead_to_each_steps_chart(served, page):
    url, _ = served
    page.goto(f"{url}/en/ws/attack.html")
    _chart_ready(page)
    objects = page.evaluate("[...document.querySelectorAll('object')].map(o => o.getAttribute('data'))")
    assert objects[0].endswith("attack.steps.en.svg") and len(objects) == 7
    # a click on a step of the overview lands on the step's heading, with the step's own chart under it
    # where the step's box is on the screen: the chart's place on the page plus the box's place in the chart
    x, y = page.evaluate("""() => { const o = document.querySelector('object'), r = o.getBoundingClientRect();
        const b = o.contentDocument.getElementById('a_n:attack.counter').getBoundingClientRect();
        return [r.left + b.left + b.width / 2, r.top + b.top + b.height / 2]; }""")
    page.mouse.click(x, y)
    page.wait_for_function("location.hash === '#attack.counter.begin'")
    page.wait_for_timeout(200)
    top = page.evaluate("document.getElementById('attack.counter.begin').getBoundingClientRect().top")
    assert -50 < top < 400
    heading = page.evaluate("document.getElementById('attack.counter.begin').nextElementSibling.textContent")
    assert heading.startswith("counter step")
    after = page.evaluate("""() => { let e = document.getElementById('attack.counter.begin').nextElementSibling;
        while (e && !e.querySelector('object')) e = e.nextElementSibling; return e.querySelector('object').getAttribute('data'); }""")
    assert after.endswith("attack.counter.en.svg")


def test_print_keeps_whole_charts_and_no_scroll_boxes(served, page):
    url, _ = served
    page.goto(f"{url}/ja/aquarian/faction.html")
    _chart_ready(page)
    page.emulate_media(media="print")
    try:
        assert page.locator(".tcg-zoom").first.is_hidden()
        style = page.evaluate("""() => { const c = document.querySelector('.tcg-chart'), o = c.querySelector('object');
            return [getComputedStyle(c).overflow, c.scrollHeight <= c.clientHeight + 1, o.getBoundingClientRect().height > 300]; }""")
        assert style == ["visible", True, True]
        assert page.evaluate("""() => [...document.querySelectorAll('*')].filter(e => ['auto', 'scroll'].includes(
            getComputedStyle(e).overflowY) && e.scrollHeight > e.clientHeight + 1).length""") == 0
    finally:
        page.emulate_media(media="screen")


def test_a_phase_page_shows_the_sources_colours_and_the_code_behind_its_switch(served, page):
    url, _ = served
    page.goto(f"{url}/ja/ws/attack.html")

    def colour(nid: str) -> str:
        return page.evaluate(f"getComputedStyle(document.getElementById('{nid}').querySelector('.tcg-line')).color")

    assert colour("attack.encore.3") == "rgb(0, 0, 255)"  # a decision by the rules: blue, as the seed draws it
    assert colour("attack.encore.3.reversed.4") == "rgb(0, 0, 255)"  # "back to 3." too
    assert colour("attack.encore.3.reversed.3") == "rgb(255, 0, 0)"  # the check timing after the built-in encore
    assert colour("attack.encore.3.reversed.1") == "rgb(0, 159, 0)"  # a player's action: green
    assert colour("attack.encore.2") == "rgb(255, 0, 0)"  # a check timing: red
    code = page.locator('[id="attack.declaration.3"] .tcg-cond .tcg-code').first
    assert code.is_hidden()
    page.locator(".tcg-code-switch").check()
    assert code.is_visible() and "can_attack" in code.inner_text()


def test_pan_and_zoom_work_from_file_urls_too(served, page):
    _, base = served
    page.goto((base / "out" / "site" / "en" / "aquarian" / "faction.html").as_uri())
    page.wait_for_timeout(500)
    # the chart's document is another origin on file://: it reports its zoom by a message
    page.evaluate("window.__zoom = []; addEventListener('message', e => window.__zoom.push(e.data && e.data.tcgChartZoom))")
    page.locator(".tcg-zoom button[data-chart=in]").first.click()
    page.wait_for_function("window.__zoom.length > 0")
    assert page.evaluate("window.__zoom") == [1.5]

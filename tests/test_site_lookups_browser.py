"""The lookup pages in a real browser (headless Debian Chromium, Playwright, a local server): the
"May I play now?" filter of each game gives the facts `tcgtiming when` gives, without a console
error or a request outside the site; without scripts the full table is there; the coverage page's
heat-map charts load; the search finds the lookup page."""
from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.present import when
from tcgtiming.present.site import build
from conftest import serving

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by `make test`")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is installed by `make test`")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    base = tmp_path_factory.mktemp("lookups-browser")
    out = build(str(ROOT / "rules"), base / "out", cache=base / "cache").out / "site"
    with serving(out) as url:
        yield url, out


@pytest.fixture(scope="module")
def browser(served):
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu",
                                                             "--disable-background-networking", "--no-first-run"])
        yield b
        b.close()


@pytest.fixture
def page(browser, served):
    url, _ = served
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    pg = ctx.new_page()
    pg.problems = []
    pg.on("console", lambda m: pg.problems.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.problems.append(str(e)))
    host = urlsplit(url).netloc
    pg.on("request", lambda r: pg.problems.append("outside: " + r.url)
          if urlsplit(r.url).scheme in ("http", "https") and urlsplit(r.url).netloc != host else None)
    yield pg
    ctx.close()


def _visible(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('#tcg-when tbody tr')].filter(r => !r.hidden).map(r => ({
        href: r.querySelector('a').getAttribute('href'), status: r.className.match(/s-(\\S+)/)[1],
        text: r.querySelector('.tcg-when-status').textContent}))""")


def _filter(page, play="", player="", phase="", only_open=False):
    form = page.locator("#tcg-when-filter")
    form.locator("select[name=play]").select_option(play)
    form.locator("select[name=player]").select_option(player)
    form.locator("select[name=phase]").select_option(phase)
    form.locator("input[name=open]").set_checked(only_open)


def test_ws_counter_filter_finds_only_the_counter_step(served, page):
    url, _ = served
    page.goto(f"{url}/en/ws/when/index.html")
    assert page.locator("#tcg-when-filter").is_visible()
    _filter(page, "counter", "non_turn", only_open=True)
    rows = _visible(page)
    assert [r["href"].split("#")[1] for r in rows] == ["attack.counter.3"]
    assert rows[0]["text"] == when.wd("status.open", "en")
    assert page.locator("#tcg-when-count").inner_text().startswith("showing 1")
    _filter(page, "counter", "turn", only_open=True)
    assert _visible(page) == []
    _filter(page, "counter", "turn")
    statuses = {r["href"].split("#")[1]: r["status"] for r in _visible(page)}
    assert statuses["attack.counter.3"] == "other_player" and "open" not in statuses.values()
    _filter(page, phase="attack.encore")
    encore = _visible(page)
    assert encore and {r["status"] for r in encore} == {"closed"}
    assert "play=counter" not in page.url and "phase=attack.encore" in page.url  # the filter is in the address
    assert page.problems == []


def test_gundam_filter_matches_the_model_and_survives_the_language_switch(served, page):
    url, _ = served
    game = compile_file(ROOT / "rules" / "gundam" / "game.yaml").game
    expected = [r.timing.node for r in when.rows(game, when.Filter(("text",), "non_turn")) if r.status == "open"]
    page.goto(f"{url}/ja/gundam/when/index.html#play=text&player=non_turn&open=1")
    rows = _visible(page)
    assert [r["href"].split("#")[1] for r in rows] == expected and len(expected) == 12
    assert {r["text"] for r in rows} == {when.wd("status.open", "ja")}
    page.locator("a.tcg-lang").click()
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.lang") == "en" and "/en/gundam/when/" in page.url
    assert [r["href"].split("#")[1] for r in _visible(page)] == expected
    assert page.problems == []


def test_gundam_text_timing_filter_is_seen_from_the_player(served, page):
    # a text timed "own battle phase": open for the attacking (turn) player only, as `tcgtiming when` says
    url, _ = served
    game = compile_file(ROOT / "rules" / "gundam" / "game.yaml").game
    page.goto(f"{url}/en/gundam/when/index.html")
    opened = {}
    for seat in ("turn", "non_turn"):
        want = {r.timing.node: r.status for r in when.rows(game, when.Filter(("own_battle_text",), seat))}
        _filter(page, "own_battle_text", seat)
        got = {r["href"].split("#")[1]: r["status"] for r in _visible(page)}
        assert got == want
        opened[seat] = [n for n, s in got.items() if s == "open"]
    assert len(opened["turn"]) == 8 and opened["non_turn"] == []  # the battle steps' free timings; none
    assert page.problems == []


def test_mtg_sorcery_speed_filter_depends_on_the_stack_in_the_main_phases(served, page):
    # a play kind's when: sorcery speed is the active player's, in a main phase, only with an empty stack
    url, _ = served
    game = compile_file(ROOT / "rules" / "mtg" / "game.yaml").game
    page.goto(f"{url}/ja/mtg/when/index.html")
    for kind in ("sorcery", "land", "instant"):
        for seat in ("", "turn", "non_turn"):
            want = [r.status for r in when.rows(game, when.Filter((kind,), seat or None))]
            _filter(page, kind, seat)
            got = _visible(page)
            assert [r["status"] for r in got] == want, (kind, seat)
            assert {r["text"] for r in got} == {when.wd("status." + s, "ja") for s in want}
    _filter(page, "sorcery", "turn")
    assert {r["status"] for r in _visible(page)} == {"closed", "other_kind", "depends"}
    assert page.problems == []


def test_without_scripts_the_full_table_is_shown(served, browser):
    url, _ = served
    ctx = browser.new_context(java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(f"{url}/en/ws/when/index.html")
    game = compile_file(ROOT / "rules" / "ws" / "game.yaml").game
    assert pg.locator("#tcg-when tbody tr").count() == len(when.rows(game))
    assert not pg.locator("#tcg-when-filter").is_visible()
    ctx.close()


def test_every_game_links_its_lookup_pages(served, page):
    url, out = served
    for gid in ("ws", "gundam", "versus", "aquarian"):
        page.goto(f"{url}/en/{gid}/turn.html")
        for target in ("when/index.html", "coverage/index.html"):
            assert page.locator(f'main a[href="{target}"]').count() == 1
            assert page.locator(f'nav a[href="{target}"]').count() == 1
    assert page.problems == []


def test_coverage_heat_map_charts_load(served, page):
    url, out = served
    page.goto(f"{url}/ja/ws/coverage/index.html")
    data = page.locator("details[open] object").first.get_attribute("data")
    svg = page.request.get(f"{url}/ja/ws/coverage/{data}").text()
    assert "heat-" in svg and 'class="node heat-' in svg
    assert page.locator('h3[id^="reason-"]').count() >= 1  # the nodes no scenario visits, by reason
    assert page.problems == []


def test_search_finds_the_lookup_page(served, page):
    url, _ = served
    page.goto(f"{url}/en/search.html?q=may I play now")
    page.wait_for_function("document.getElementById('tcg-search-status').textContent.match(/found|Nothing/)", timeout=15_000)
    hrefs = page.evaluate("() => [...document.querySelectorAll('#tcg-search-results li a')].map(a => a.href)")
    assert any("/ws/when/" in h for h in hrefs[:6]), hrefs  # Pagefind drops the index.html

"""The trace player of the scenario pages: its data rebuilds every run's final zones from the
changes it carries; in Chromium it steps through a run, shows the entry's node and marks it on
the chart, and its zones panel at the last entry is the board at the end of the run."""
from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
from pathlib import Path

import pytest

from tcgtiming.present import site
from tcgtiming.present.site.inputs import collect
from tcgtiming.present.site.player import player_data, zones_after

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def _final(run) -> dict:
    return {pid: {z: set(ids) for z, ids in zones} for pid, zones in run.zones if zones}


def test_the_changes_rebuild_every_runs_final_zones():
    inputs = collect(str(ROOT / "rules"))
    checked = 0
    for game in inputs.games:
        for sr in inputs.runs.get(game.id, []):
            for lang in ("ja", "en"):
                data = player_data(game, sr, lang, f"{game.id}/scenarios/{sr.stem}.html")
                assert zones_after(data) == _final(sr.run), (game.id, sr.stem)
                assert len(data["entries"]) == len(sr.run.entries)
                assert all(n in data["hrefs"] for n in {e[2] for e in data["entries"]})
            checked += 1
    assert checked >= 24


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    pytest.importorskip("playwright.sync_api", reason="playwright is installed by `make test`")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is installed by `make test`")
    base = tmp_path_factory.mktemp("player")
    shutil.copytree(ROOT / "rules" / "ws", base / "rules" / "ws")
    out = site.build(str(base / "rules"), base / "out", cache=base / "cache").out / "site"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", base
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_player_steps_marks_the_chart_and_ends_on_the_board(served, lang):
    from playwright.sync_api import sync_playwright

    url, base = served
    inputs = collect(str(base / "rules"))
    game = inputs.games[0]
    sr = next(r for r in inputs.runs["ws"] if r.stem == "encore")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(url + f"{lang}/ws/scenarios/encore.html")
        page.wait_for_load_state("load")
        player = page.locator(".tcg-player")
        data = json.loads(page.locator(".tcg-player-data").text_content())
        brief = [e for e in data["entries"] if e[11]]
        assert player.get_attribute("data-seq") == str(brief[0][0])
        for _ in range(5):
            page.locator("[data-act=forward]").click()
        e = brief[5]
        assert player.get_attribute("data-seq") == str(e[0]) and player.get_attribute("data-node") == e[2]
        assert page.locator(".tcg-player-what").text_content() == e[6]
        page.locator("[data-act=back]").click()
        assert player.get_attribute("data-seq") == str(brief[4][0])
        page.locator("[data-act=every]").check()  # every entry: the same place, finer steps
        assert player.get_attribute("data-seq") == str(brief[4][0])
        page.locator("[data-act=forward]").click()
        assert player.get_attribute("data-seq") == str(brief[4][0] + 1)
        # the chart (a turn overview) marks the entry's node, or its step or phase
        page.wait_for_function("""() => { const o = document.querySelector("object[type='image/svg+xml']");
            return o && o.contentDocument && o.contentDocument.querySelector('.tcg-player-here'); }""")
        page.locator("[data-act=last]").click()
        last = data["entries"][-1]
        assert player.get_attribute("data-seq") == str(last[0])
        marked = page.evaluate("""() => [...document.querySelector("object[type='image/svg+xml']").contentDocument
            .querySelectorAll('.tcg-player-here')].map(g => g.id)""")
        assert marked and marked[0] in {f"n:{x}" for x in (last[2], last[4], last[3]) if x}
        shown = {}
        for row in page.locator(".tcg-player-zones tr").all():
            shown.setdefault(row.get_attribute("data-player"), {})[row.get_attribute("data-zone")] = \
                set(row.get_attribute("data-cards").split())
        assert shown == _final(sr.run)
        player.focus()
        page.keyboard.press("Home")
        assert player.get_attribute("data-seq") == str(data["entries"][0][0])
        assert not errors, errors
        browser.close()
    assert game.id == "ws"

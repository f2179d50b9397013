"""``tcgtiming serve``: the site built and served on 127.0.0.1, rebuilt when a rule file changes,
a failed rebuild shown in the page over the last good site, the reload script never written to disk."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _status(base: str) -> dict:
    with urllib.request.urlopen(base + "__tcgtiming/status", timeout=10) as r:
        return json.loads(r.read())


def _get(base: str, path: str) -> str:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return r.read().decode("utf-8")


def _wait(base: str, test, timeout: float = 120.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = _status(base)
        if test(s):
            return s
        time.sleep(0.3)
    raise AssertionError(f"timed out; last status {s}")


@pytest.fixture
def served(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "aquarian", rules / "aquarian")
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "generator"))
    p = subprocess.Popen([sys.executable, "-m", "tcgtiming", "serve", "--rules", str(rules), "--out", str(out),
                          "--port", "0", "--interval", "0.2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env, cwd=tmp_path)
    try:
        base = None
        end = time.monotonic() + 180
        while base is None and time.monotonic() < end:
            line = p.stdout.readline()
            assert line, p.stderr.read()
            if line.startswith("serving http://127.0.0.1:"):
                base = line.split()[1]
        assert base
        yield base, rules / "aquarian" / "game.yaml", out
    finally:
        p.send_signal(signal.SIGINT)
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        p.stdout.close()
        p.stderr.close()


def test_serve_rebuilds_on_change_and_shows_errors(served):
    base, game_file, out = served
    assert _status(base) == {"version": 1, "error": None, "building": False}
    page = _get(base, "ja/index.html")
    assert "__tcgtiming/status" in page  # the reload script, added when served
    assert "__tcgtiming" not in (out / "site" / "ja" / "index.html").read_text(encoding="utf-8")  # never written

    text = game_file.read_text(encoding="utf-8")
    assert "アクエリアンエイジ" in _get(base, "ja/index.html")
    game_file.write_text(text.replace("{ja: アクエリアンエイジ,", "{ja: アクエリアンエイジ改,", 1), encoding="utf-8")
    _wait(base, lambda s: s["version"] == 2)
    assert "アクエリアンエイジ改" in _get(base, "ja/index.html")

    lines = text.splitlines(keepends=True)
    broken = "".join(lines[:5]) + "  bogus_key: [unclosed\n" + "".join(lines[5:])
    game_file.write_text(broken, encoding="utf-8")
    s = _wait(base, lambda s: s["error"] is not None)
    assert s["version"] == 2 and "game.yaml:" in s["error"]
    assert "アクエリアンエイジ改" in _get(base, "ja/index.html")  # the last good site is still served

    game_file.write_text(text, encoding="utf-8")
    s = _wait(base, lambda s: s["version"] == 3)
    assert s["error"] is None


def test_serve_refuses_a_missing_folder(tmp_path):
    p = subprocess.run([sys.executable, "-m", "tcgtiming", "serve", "--rules", str(tmp_path / "none"), "--port", "0"],
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "generator")),
                       timeout=60)
    assert p.returncode == 2 and "U401" in (p.stdout + p.stderr)


CHROMIUM = "/usr/bin/chromium"


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is installed by `make test`")
def test_the_page_shows_a_failed_build_and_reloads_after_a_good_one(served):
    playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by `make test`")
    base, game_file, _ = served
    text = game_file.read_text(encoding="utf-8")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        outside = []
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(base) else None)
        page.goto(base + "en/index.html")
        assert page.locator("#tcgtiming-build-error").count() == 0
        game_file.write_text(text.replace("{ja: アクエリアンエイジ,", "{ja: <b>x</b>: [", 1), encoding="utf-8")
        page.wait_for_selector("#tcgtiming-build-error", timeout=120_000)
        shown = page.locator("#tcgtiming-build-error").inner_text()
        assert "game.yaml:" in shown
        assert page.locator("#tcgtiming-build-error b").count() == 0  # the error is text, not markup
        game_file.write_text(text.replace("en: Aquarian Age}", "en: Aquarian Age Two}", 1), encoding="utf-8")
        page.wait_for_function("document.body.innerText.includes('Aquarian Age Two')", timeout=120_000)
        assert page.locator("#tcgtiming-build-error").count() == 0
        assert not outside
        browser.close()


def test_a_change_in_one_games_file_rebuilds_only_that_games_pages(tmp_path):
    """The rebuild serve makes after a change in one game's rule file (present.site.update): the
    pages of the other game are left as they were (bytes and time of change), the changed game's page
    shows the change, and a change of what every page's navigation shows builds everything."""
    sys.path.insert(0, str(ROOT / "generator"))
    from tcgtiming.present.site import build
    from tcgtiming.present.site.update import changed_folders, update

    rules = tmp_path / "rules"
    for g in ("aquarian", "versus"):
        shutil.copytree(ROOT / "rules" / g, rules / g)
    out = tmp_path / "out"
    built = build(str(rules), out, tmp_path / "cache")
    site = out / "site"

    def files(game):
        return {p: (p.stat().st_mtime_ns, p.read_bytes()) for lang in ("ja", "en")
                for folder in (site / lang / game, site / lang / "nodes" / game) for p in folder.rglob("*") if p.is_file()}

    others, shared = files("versus"), {p: p.stat().st_mtime_ns for p in site.glob("*/index.html")}
    assert others and len(shared) == 2
    time.sleep(0.05)
    rule = rules / "aquarian" / "game.yaml"
    text = rule.read_text(encoding="utf-8")
    rule.write_text(text.replace("label: {ja: 手札からパワーカードをセットする, en: set power cards from hand}",
                                 "label: {ja: 手札からパワーカードを置く, en: put power cards from hand}", 1), encoding="utf-8")
    folders = changed_folders([str(rule)], str(rules), built.inputs)
    assert folders == {"aquarian"}
    done = update(str(rules), out, built.inputs, folders, tmp_path / "cache")
    assert done is not None and done.games == ["aquarian"]
    assert files("versus") == others  # untouched: same bytes, same time
    assert {p: p.stat().st_mtime_ns for p in site.glob("*/index.html")} == shared
    assert "手札からパワーカードを置く" in (site / "ja" / "aquarian" / "power.html").read_text(encoding="utf-8")
    assert "put power cards from hand" in (site / "en" / "aquarian" / "power.html").read_text(encoding="utf-8")
    # a phase renamed: the navigation of every page changes, so everything is built again
    rule.write_text(text.replace("label: {ja: パワーカードフェイズ", "label: {ja: パワーのフェイズ", 1), encoding="utf-8")
    assert "パワーのフェイズ" in rule.read_text(encoding="utf-8")
    assert update(str(rules), out, done.inputs, {"aquarian"}, tmp_path / "cache") is None
    # a file outside every game's folder: everything too
    assert changed_folders([str(rules / "new" / "game.yaml")], str(rules), built.inputs) is None

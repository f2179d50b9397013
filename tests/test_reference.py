"""The generated reference text: the guide pages shipped with the package, README.md, and the
README's picture.

* Every generated block of the guide pages and of README.md is current (``tcgtiming reference
  --check README.md``); a stale, unknown or unclosed block fails the check.
* The guide pages link only to each other (mkdocs publishes them in strict mode), and the package
  data ships them.
* The README's picture (``docs/ws-turn.en.svg``) is the turn chart of the current rules: the DOT
  text committed beside it equals a fresh one. After a deliberate change of the rules or of the
  charts, redraw both with::

      TCGTIMING_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/test_reference.py
"""
from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from conftest import ROOT

from tcgtiming.present import reference

GUIDE = ROOT / "generator" / "tcgtiming" / "present" / "guide"
README = ROOT / "README.md"
SVG, DOT = ROOT / "docs" / "ws-turn.en.svg", ROOT / "docs" / "ws-turn.en.dot"
UPDATE = os.environ.get("TCGTIMING_UPDATE_GOLDEN") == "1"


# --- freshness -------------------------------------------------------------------------------------


def test_guide_pages_and_readme_are_current(cli):
    code, out, err = cli("reference", "--check", README)
    assert code == 0, err
    assert out.strip() == f"generated blocks are current in {len(list(GUIDE.glob('*.md'))) + 1} pages"


def test_check_without_a_file_checks_the_guide_pages(cli):
    code, out, err = cli("reference", "--check")
    assert code == 0, err
    assert f"in {len(list(GUIDE.glob('*.md')))} pages" in out


def test_the_packaged_guide_is_the_source_folder():
    assert Path(str(reference.guide_folder())).resolve() == GUIDE.resolve()
    names = {p.name for p in GUIDE.glob("*.md")}
    assert {"index.md", "commands.md", "rule-language.md", "scenarios.md", "diagnostics.md", "charts.md",
            "site.md", "performance.md"} <= names


@pytest.fixture
def guide_copy(tmp_path, monkeypatch):
    """A copy of the guide pages that the reference command takes for the packaged ones."""
    folder = tmp_path / "guide"
    shutil.copytree(GUIDE, folder)
    monkeypatch.setattr(reference, "guide_folder", lambda: folder)
    return folder


def test_a_stale_guide_page_fails_the_check_and_update_rewrites_it(cli, guide_copy):
    page = guide_copy / "diagnostics.md"
    text = page.read_text(encoding="utf-8")
    stale = re.sub(r"(<!-- BEGIN GENERATED: codes -->\n).*?(<!-- END GENERATED: codes -->)", r"\1old\n\2", text,
                   flags=re.S)
    assert stale != text
    page.write_text(stale, encoding="utf-8")
    code, _, err = cli("reference", "--check")
    assert code == 1 and f"{page}: generated blocks are stale: run 'tcgtiming reference --update'" in err
    assert cli("reference", "--update")[0] == 0
    assert page.read_text(encoding="utf-8") == text
    assert cli("reference", "--check")[0] == 0


def test_a_stale_file_fails_the_check_and_update_rewrites_it(cli, tmp_path):
    f = tmp_path / "r.md"
    f.write_text("<!-- BEGIN GENERATED: codes -->\nold\n<!-- END GENERATED: codes -->\n", encoding="utf-8")
    code, _, err = cli("reference", f, "--check")
    assert code == 1 and f"{f}: generated blocks are stale: run 'tcgtiming reference --update {f}'" in err
    assert cli("reference", f, "--update")[0] == 0
    assert "`Y101`" in f.read_text(encoding="utf-8")
    assert cli("reference", f, "--check")[0] == 0
    f.write_text("<!-- BEGIN GENERATED: codes -->\nold\n<!-- END GENERATED: codes -->\n", encoding="utf-8")
    assert cli("reference", f)[0] == 0  # a file without --check: update
    assert "`Y101`" in f.read_text(encoding="utf-8")


def test_unknown_unclosed_and_misplaced_blocks_are_reported(cli, tmp_path, guide_copy):
    f = tmp_path / "r.md"
    f.write_text("x\n<!-- BEGIN GENERATED: codez -->\n<!-- END GENERATED: codez -->\n"
                 "<!-- BEGIN GENERATED: codes -->\nno end\n", encoding="utf-8")
    code, _, err = cli("reference", f, "--check")
    assert code == 1
    assert f"{f}:2: unknown generated block 'codez'" in err
    assert f"{f}:4: generated block 'codes' has no '<!-- END GENERATED: codes -->' line" in err
    assert cli("reference", f, "--update")[0] == 1  # nothing is rewritten around a broken block
    page = guide_copy / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n<!-- BEGIN GENERATED: games -->\n"
                    "<!-- END GENERATED: games -->\n", encoding="utf-8")
    code, _, err = cli("reference", "--check")
    assert code == 1 and "generated block 'games' needs the repository's rules/: keep it in README.md" in err


def test_an_unreadable_file_is_a_usage_error(cli, tmp_path):
    code, _, err = cli("reference", "--check", tmp_path / "missing.md")
    assert code == 2 and "cannot read" in err


def test_printing_the_tables_lists_every_block(cli):
    code, out, _ = cli("reference")
    assert code == 0
    names = re.findall(r"^## (\w+)$", out, flags=re.M)
    assert names == list(reference.BLOCKS) + ["commands", "command_list"]


def test_the_commands_page_lists_every_command_and_option():
    from tcgtiming.cli.parser import parser

    text = (GUIDE / "commands.md").read_text(encoding="utf-8")
    sub = next(a for a in parser()._actions if isinstance(a.choices, dict))
    for name, sp in sub.choices.items():
        assert f"### `tcgtiming {name}`" in text
        for action in sp._actions:
            for opt in action.option_strings:
                if opt not in ("-h", "--help"):
                    assert f"`{opt}" in text, (name, opt)


# --- the guide pages as pages of a site ------------------------------------------------------------

_LINK = re.compile(r"\]\(([^)\s]+)\)")
_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def _slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    return {_slug(h) for h in re.findall(r"^#+ (.+)$", _CODE.sub(lambda m: "" if m.group(0).startswith("```")
                                                                    else m.group(0), text), flags=re.M)}


def test_guide_pages_link_only_to_each_other():
    pages = {p.name: p.read_text(encoding="utf-8") for p in GUIDE.glob("*.md")}
    for name, text in pages.items():
        for target in _LINK.findall(_CODE.sub("", text)):
            page, _, anchor = target.partition("#")
            page = page or name
            assert page in pages, f"{name}: link to {target}: only links between guide pages"
            if anchor:
                assert anchor in _anchors(pages[page]), f"{name}: no heading for {target}"


def test_guide_pages_hold_no_raw_html():
    for p in GUIDE.glob("*.md"):
        text = re.sub(r"<!-- (BEGIN|END) GENERATED: [\w-]+ -->", "", _CODE.sub("", p.read_text(encoding="utf-8")))
        assert not re.search(r"<[A-Za-z!/]", text), p.name


def test_the_package_data_ships_the_guide_pages():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["tcgtiming.present"]
    for p in GUIDE.glob("*.md"):
        assert any(p.relative_to(GUIDE.parent).match(pat) for pat in patterns), p.name


def test_readme_links_lead_to_files_of_the_repository():
    text = README.read_text(encoding="utf-8")
    links = _LINK.findall(_CODE.sub("", text))
    assert "docs/ws-turn.en.svg" in links
    for target in links:
        assert not target.startswith(("http:", "https:", "/")), target
        assert (ROOT / target.partition("#")[0]).is_file(), target
    for p in GUIDE.glob("*.md"):  # every guide page is linked from the README but the contents page
        assert p.name == "index.md" or f"generator/tcgtiming/present/guide/{p.name}" in links, p.name


# --- the README's picture --------------------------------------------------------------------------


def _render(cli, out: Path, *formats: str) -> None:
    args = ["render", ROOT / "rules" / "ws" / "game.yaml", "--phase", "turn", "--lang", "en", "--no-cache",
            "--out", out]
    for f in formats:
        args += ["--format", f]
    code, _, err = cli(*args)
    assert code == 0, err


def _dot_graph(dot: str) -> Counter:
    """The nodes and the drawn edges of DOT text, edge ends with their ports as SVG titles name them."""
    nodes = re.findall(r'^\s*"([^"]+)" \[', dot, flags=re.M)
    edges = []
    for a, b, attrs in re.findall(r'^\s*"([^"]+)" -> "([^"]+)" \[(.*)\]$', dot, flags=re.M):
        if re.search(r"\bstyle=\"?invis\b", attrs):  # not drawn (the order of the steps, the legend)
            continue
        ports = dict(re.findall(r'(tailport|headport)="(\w+)"', attrs))
        edges.append((a + (f":{ports['tailport']}" if "tailport" in ports else ""),
                      b + (f":{ports['headport']}" if "headport" in ports else "")))
    return Counter([(n,) for n in nodes] + edges)


def _svg_graph(svg: str) -> Counter:
    nodes = re.findall(r'class="node">\s*<title>([^<]*)</title>', svg)
    edges = re.findall(r'class="edge">\s*<title>([^<]*)</title>', svg)
    return Counter([(html.unescape(n),) for n in nodes] + [tuple(html.unescape(e).split("->", 1)) for e in edges])


def _graphviz_version() -> str | None:
    try:
        p = subprocess.run(["dot", "-V"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"version (\S+ \(\S+\))", p.stderr or p.stdout)
    return m.group(1) if m else None


def test_the_readme_picture_is_the_turn_chart_of_the_current_rules(cli, tmp_path):
    if UPDATE:
        _render(cli, tmp_path, "svg", "dot")
        for target in (SVG, DOT):
            shutil.copyfile(tmp_path / "ws" / target.name.replace("ws-", ""), target)
    _render(cli, tmp_path, "dot")
    fresh = (tmp_path / "ws" / "turn.en.dot").read_text(encoding="utf-8")
    committed = DOT.read_text(encoding="utf-8")
    assert committed == fresh, ("docs/ws-turn.en.dot is not the turn chart of the current rules: redraw it with "
                                "TCGTIMING_UPDATE_GOLDEN=1 pytest tests/test_reference.py")
    svg = SVG.read_text(encoding="utf-8")
    assert _svg_graph(svg) == _dot_graph(committed), "docs/ws-turn.en.svg was not drawn from docs/ws-turn.en.dot"
    drawn_by = re.search(r"Generated by graphviz version (\S+ \(\S+\))", svg)
    if drawn_by and drawn_by.group(1) == _graphviz_version():  # the same graphviz draws the same bytes
        _render(cli, tmp_path, "svg")
        assert (tmp_path / "ws" / "turn.en.svg").read_text(encoding="utf-8") == svg

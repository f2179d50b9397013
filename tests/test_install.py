"""tcgtiming installed from its wheel (`pip install .`, not editable) into a fresh venv works outside the
repository: `tcgtiming site` finds its templates, hand-written pages and CSS in the package.

The wheel is built from a copy of the project's sources (the build leaves build/ and *.egg-info/ in
the tree it runs in). It is built with the project's build backend (setuptools, from pyproject.toml):
without build isolation when this environment has a fitting one, otherwise by pip in an isolated
environment from the indexes pip is configured with (on this machine a local file index); the test is
skipped, saying why, only when no such backend can be had. The fresh venv gets the wheel alone; the
libraries tcgtiming needs (PyYAML, pydantic, Jinja2, Markdown) come from this environment's
site-packages folders through a .pth file, the way --system-site-packages lends the system's: they
cannot be downloaded offline, and this environment is the pinned set. Nothing of the checkout is
reachable from the installed command: no PYTHONPATH, run from a folder outside the repository, the
rules copied there.
"""
from __future__ import annotations

import importlib.metadata as md
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT
from packaging.version import Version

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")

DATA = ["tcgtiming/present/site/data/templates/base.html", "tcgtiming/present/site/data/pages/index.ja.md",
        "tcgtiming/present/site/data/pages/assets/site.css", "tcgtiming/present/guide/rule-language.md"]
NO_BACKEND = ("No matching distribution found for setuptools", "Could not find a version that satisfies the "
              "requirement setuptools", "Failed to establish a new connection", "Network is unreachable")


def _run(*cmd, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)


def _local_backend() -> bool:
    """Whether this environment can build the wheel itself (setuptools >= 68 with bdist_wheel)."""
    try:
        version = Version(md.version("setuptools"))
    except md.PackageNotFoundError:
        return False
    if version < Version("68"):
        return False
    return version >= Version("70.1") or _has("wheel")


def _has(dist: str) -> bool:
    try:
        md.version(dist)
        return True
    except md.PackageNotFoundError:
        return False


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "generator", src / "generator",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"))
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-w", base / "dist"]
    if _local_backend():
        cmd.append("--no-build-isolation")
    p = _run(*cmd, src, cwd=base, timeout=600)
    if p.returncode != 0:
        said = p.stdout + p.stderr
        if not _local_backend() and any(s in said for s in NO_BACKEND):
            pytest.skip("cannot build a wheel offline: no setuptools>=68 with bdist_wheel here, and pip cannot "
                        "fetch one from its indexes")
        pytest.fail(f"pip wheel failed:\n{said}")
    [whl] = (base / "dist").glob("tcgtiming-*.whl")
    return whl


def test_the_wheel_carries_the_sites_hand_written_parts(wheel):
    with zipfile.ZipFile(wheel) as z:
        for name in DATA:  # there, with the same bytes as in the checkout
            assert z.read(name) == (ROOT / "generator" / name).read_bytes(), name


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A fresh venv holding the wheel alone, a folder outside the repository with a copy of the rules,
    and the environment to run the installed command in."""
    tmp_path = tmp_path_factory.mktemp("installed")
    venv = tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", "--without-pip", venv).returncode == 0
    py = venv / "bin" / "python"
    p = _run(sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "--no-index",
             "--disable-pip-version-check", wheel)
    assert p.returncode == 0, p.stdout + p.stderr
    purelib = Path(_run(py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    lend = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (purelib / "_tcgtiming_test_deps.pth").write_text("".join(f"{d}\n" for d in sorted(lend)), encoding="utf-8")

    work = tmp_path / "elsewhere"  # outside the repository; the rules are a copy
    shutil.copytree(ROOT / "rules", work / "rules")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", TCGTIMING_CACHE_DIR=str(tmp_path / "cache"))
    where = _run(py, "-c", "import tcgtiming; print(tcgtiming.__file__)", cwd=work, env=env).stdout.strip()
    assert Path(where).is_relative_to(venv), where  # the wheel's copy, not the checkout
    return venv, work, env


def test_the_installed_command_builds_the_site_outside_the_repository(installed):
    venv, work, env = installed
    p = _run(venv / "bin" / "tcgtiming", "site", "--rules", "rules", "--out", "out", cwd=work, env=env, timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    out = work / "out"
    assert f"site: {(out / 'site' / 'index.html').resolve()}" in p.stdout
    assert (out / "site" / "index.html").is_file()
    assert (out / "site" / "ja" / "ws" / "turn.html").is_file() and (out / "site" / "en" / "ws" / "attack.html").is_file()
    assert (out / "site" / "ja" / "assets" / "site.css").read_bytes() == (ROOT / "generator" / DATA[2]).read_bytes()
    assert "ゲーム" in (out / "site" / "ja" / "index.html").read_text(encoding="utf-8")  # the hand-written home page
    assert (out / "models" / "ws.json").is_file() and (out / "charts" / "ws" / "turn.ja.svg").is_file()
    assert list((out / "traces" / "ws").glob("*.jsonl"))
    page = (out / "site" / "ja" / "ws" / "attack.html").read_text(encoding="utf-8")
    assert str(venv) not in page and str(ROOT) not in page  # no install path in the pages


@pytest.mark.parametrize("args, expect", [
    (["--version"], "tcgtiming "),
    (["validate", "rules"], "no problems"),
    (["compile", "rules/ws/game.yaml"], '"id": "ws"'),
    (["render", "rules/gundam/game.yaml", "--phase", "turn", "--format", "png", "--format", "mermaid",
      "--lang", "en", "--out", "charts"], ""),
    (["render", "rules/gundam/game.yaml", "--format", "table"], "×"),
    (["simulate", "rules/ws/scenarios/front-attack-counter.yaml", "--lang", "ja", "--strict"], "アタック"),
    (["explore", "rules/ws/scenarios/both-players-pending.yaml", "--open", "check_timing.3.pending.1",
      "--format", "json"], '"complete": true'),
    (["schema", "--kind", "scenario"], '"$schema"'),
    (["when", "ws", "--play", "counter"], "attack.counter.3"),
    (["coverage", "--game", "gundam"], "Gundam War"),
    (["codes"], "C315"),
    (["reference", "--check"], "current"),
])
def test_every_other_command_works_installed(installed, args, expect):
    venv, work, env = installed
    p = _run(venv / "bin" / "tcgtiming", *args, cwd=work, env=env, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert expect in p.stdout
    if args[0] == "render" and "--out" in args:
        assert (work / "charts" / "gundam" / "turn.en.png").stat().st_size > 1000
        assert (work / "charts" / "gundam" / "turn.en.mmd").is_file()

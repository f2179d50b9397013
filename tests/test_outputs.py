"""Outputs (issue 14): the render cache verifies what it reads; a command's set of outputs is swapped
into place as one unit (a run killed at any point leaves the old set or the new set, never a mix);
leftovers of killed runs are removed by the next run, a live run's never; a full disk is named; a
closed pipe ends quietly."""
from __future__ import annotations

import errno
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import MINI, ROOT
from tcgtiming.present import charts, outputs

CRASH = ROOT / "tests" / "fuzz" / "crash.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "generator")}
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TCGTIMING_CACHE_DIR", str(tmp_path / "cache"))


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.parent.iterdir() if p.name.startswith("."))


# --- #4 the cache ---------------------------------------------------------------------------------


@needs_dot
@pytest.mark.parametrize("damage", ["truncate", "empty", "garbage", "old-format"])
def test_a_damaged_cache_entry_is_drawn_again(cli, tmp_path, damage):
    cache = tmp_path / "cache"
    code, _, _ = cli("render", MINI, "--phase", "start", "--lang", "en", "--out", tmp_path / "a")
    assert code == 0
    good = snapshot(tmp_path / "a")
    entries = [p for p in cache.rglob("*.svg")]
    assert entries
    for e in entries:
        raw = e.read_bytes()
        e.write_bytes({"truncate": raw[: len(raw) // 2], "empty": b"", "garbage": b"x" * 100,
                       "old-format": raw.partition(b"\n")[2]}[damage])  # the bare SVG, as before hashes
    code, out, err = cli("render", MINI, "--phase", "start", "--lang", "en", "--out", tmp_path / "b")
    assert code == 0, out + err
    assert "from the cache" not in out  # old: the damaged bytes were copied, 'from the cache'
    assert snapshot(tmp_path / "b") == good
    assert all(charts.read_entry(e) is not None for e in entries)  # and the entries are whole again


@needs_dot
def test_a_full_cache_disk_leaves_no_entry(cli, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    real_write = os.write

    def full(fd, data):  # the cache's file system is full; the output's is not
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(cache)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    code, out, err = cli("render", MINI, "--phase", "start", "--lang", "en", "--out", tmp_path / "a", "--jobs", "1")
    assert code == 0, out + err
    assert [p for p in cache.rglob("*") if p.is_file()] == []  # no 0-byte entry, no temporary file
    monkeypatch.setattr(os, "write", real_write)
    code, out, _ = cli("render", MINI, "--phase", "start", "--lang", "en", "--out", tmp_path / "b")
    assert code == 0 and snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_cache_entries_hold_the_hash_of_their_content(tmp_path):
    path = tmp_path / "ab" / "abcd.svg"
    charts.write_entry(path, b"<svg/>")
    assert charts.read_entry(path) == b"<svg/>"
    raw = path.read_bytes()
    path.write_bytes(raw[:-1] + b"!")
    assert charts.read_entry(path) is None and not path.exists()


# --- #5 output sets ---------------------------------------------------------------------------------


def _crash(k: int, *args: str, count: Path | None = None) -> int:
    env = dict(ENV, TCGTIMING_CRASH_COUNT=str(count)) if count else ENV
    return subprocess.run([sys.executable, str(CRASH), str(k), *args], env=env, capture_output=True,
                          timeout=120).returncode


def _render_args(game: Path, out: Path) -> list[str]:
    return ["render", str(game), "--format", "dot", "--format", "mermaid", "--lang", "ja", "--lang", "en",
            "--out", str(out), "--jobs", "1", "--no-cache"]


@pytest.fixture
def two_sets(tmp_path, variant):
    """An output folder holding the old set (and a file of the user's), and the set a new run makes."""
    new_game = variant(("en: stand all characters}", "en: stand every character}"), name="new.yaml")
    base = tmp_path / "base"
    assert _crash(0, *_render_args(MINI, base / "out")) == 0
    (base / "out" / "keep.txt").write_text("the user's", encoding="utf-8")
    old = snapshot(base / "out")
    assert _crash(0, *_render_args(new_game, tmp_path / "fresh")) == 0
    new = {**snapshot(tmp_path / "fresh"), "keep.txt": old["keep.txt"]}
    assert new != old and set(new) == set(old)
    return base, new_game, old, new


def _ops(args: list[str], tmp_path: Path) -> int:
    count = tmp_path / "count"
    assert _crash(0, *args, count=count) == 0
    return int(count.read_text())


def test_render_killed_at_any_point_leaves_the_old_set_or_the_new(tmp_path, two_sets):
    base, new_game, old, new = two_sets
    run = tmp_path / "run"
    shutil.copytree(base, run)
    n = _ops(_render_args(new_game, run / "out"), tmp_path)
    rng = random.Random(14)
    points = sorted(set(rng.sample(range(1, n + 1), min(n, 8)) + list(range(max(1, n - 24), n + 1, 2))))
    for k in points:
        shutil.rmtree(run)
        shutil.copytree(base, run)
        assert _crash(k, *_render_args(new_game, run / "out")) == -signal.SIGKILL
        seen = snapshot(run / "out")
        assert seen in (old, new), f"killed at operation {k} of {n}: a mix of old and new files"
    # the next run removes what the killed one left, and finishes
    assert _crash(0, *_render_args(new_game, run / "out")) == 0
    assert snapshot(run / "out") == new and leftovers(run / "out") == []


def test_render_killed_at_random_times_leaves_the_old_set_or_the_new(tmp_path, two_sets):
    base, new_game, old, new = two_sets
    run = tmp_path / "run"
    rng = random.Random(5)
    for _ in range(6):
        shutil.rmtree(run, ignore_errors=True)
        shutil.copytree(base, run)
        p = subprocess.Popen([sys.executable, "-m", "tcgtiming", *_render_args(new_game, run / "out")], env=ENV,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, 0.8))
        p.send_signal(signal.SIGKILL)
        p.wait()
        assert snapshot(run / "out") in (old, new)


def test_leftovers_of_a_dead_run_go_and_a_live_runs_stay(tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    dead = tmp_path / ".render-out-999999-abc"
    (dead / "mini").mkdir(parents=True)
    (dead / "mini" / "x.svg").write_text("half", encoding="utf-8")
    old_aside = tmp_path / ".old-out-999999-def"
    old_aside.mkdir()
    tmp_file = tmp_path / ".tmp-q1w2e3out"
    tmp_file.write_text("", encoding="utf-8")
    live = tmp_path / ".render-out-1-live"
    live.mkdir()
    past = time.time() - 60
    for p in (dead, old_aside, tmp_file, live):
        os.utime(p, (past, past))
    fd = os.open(live, os.O_RDONLY)
    import fcntl
    fcntl.flock(fd, fcntl.LOCK_EX)  # a live run holds its staging folder
    try:
        young = tmp_path / ".render-out-2-young"  # made after the cleaning run started
        young.mkdir()
        assert outputs.remove_leftovers(target, time.time() - 5) == 3
        assert leftovers(target) == [".render-out-1-live", ".render-out-2-young"]
    finally:
        os.close(fd)


def test_a_swap_without_rename_exchange_puts_the_old_set_back_after_a_crash(tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "exchange", lambda a, b: False)
    target = tmp_path / "out"
    target.mkdir()
    (target / "a.txt").write_text("old", encoding="utf-8")
    with outputs.output_set(target, "render") as stage:
        (stage / "a.txt").write_text("new", encoding="utf-8")
    assert (target / "a.txt").read_text(encoding="utf-8") == "new" and leftovers(target) == []
    # killed between the two renames: the target is missing, the old set is aside
    aside = tmp_path / ".old-out-999999-x"
    os.rename(target, aside)
    past = time.time() - 60
    os.utime(aside, (past, past))
    outputs.recover(target)
    assert (target / "a.txt").read_text(encoding="utf-8") == "new" and leftovers(target) == []


@pytest.mark.parametrize("where", [".", "..", "~"])
def test_an_output_folder_that_would_swap_away_the_current_folder_is_refused(cli, tmp_path, monkeypatch, where):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    code, _, err = cli("render", MINI, "--format", "dot", "--out", os.path.expanduser(where))
    assert code == 2 and "an output folder must be a folder of its own" in err
    assert sorted(os.listdir(tmp_path)) == ["cache"] or sorted(os.listdir(tmp_path)) == []


def test_single_files_are_written_whole_with_the_usual_permissions(tmp_path):
    path = tmp_path / "model.json"
    outputs.write_file(str(path), "{}\n")
    mask = os.umask(0)
    os.umask(mask)
    assert path.read_text(encoding="utf-8") == "{}\n" and (path.stat().st_mode & 0o777) == 0o666 & ~mask
    assert leftovers(path) == []


def _simulate_args(out: Path, lang: str) -> list[str]:
    scenarios = [str(ROOT / "rules" / "ws" / "scenarios" / s) for s in ("encore.yaml", "damage-cancel.yaml")]
    return ["simulate", *scenarios, "--lang", lang, "--out-dir", str(out)]


def test_simulate_out_dir_killed_at_any_point_leaves_the_old_set_or_the_new(tmp_path):
    base = tmp_path / "base"
    assert _crash(0, *_simulate_args(base / "traces", "ja")) == 0
    old = snapshot(base / "traces")
    assert _crash(0, *_simulate_args(tmp_path / "fresh", "en")) == 0
    new = snapshot(tmp_path / "fresh")
    assert new != old and set(new) == set(old)
    run = tmp_path / "run"
    shutil.copytree(base, run)
    n = _ops(_simulate_args(run / "traces", "en"), tmp_path)
    for k in range(1, n + 1):
        shutil.rmtree(run)
        shutil.copytree(base, run)
        assert _crash(k, *_simulate_args(run / "traces", "en")) == -signal.SIGKILL
        assert snapshot(run / "traces") in (old, new), f"killed at operation {k} of {n}: a mix of old and new files"
    assert _crash(0, *_simulate_args(run / "traces", "en")) == 0
    assert snapshot(run / "traces") == new and leftovers(run / "traces") == []


# --- #10 a closed pipe, a full disk ---------------------------------------------------------------


FIVE = ROOT / "tests" / "fixtures" / "broken" / "five_mistakes.yaml"


@pytest.mark.parametrize("args", [["validate", str(MINI)], ["validate"] + [str(FIVE)] * 300,
                                  ["render", str(ROOT / "rules"), "--format", "table"], ["codes"]])
def test_output_into_a_pipe_closed_early_ends_quietly(args):
    """tcgtiming ... | head -1, through a real pipe."""
    cmd = subprocess.Popen([sys.executable, "-m", "tcgtiming", *args], env=ENV, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    head = subprocess.Popen(["head", "-1"], stdin=cmd.stdout, stdout=subprocess.PIPE)
    cmd.stdout.close()  # head holds the only reading end
    first, _ = head.communicate(timeout=60)
    with cmd.stderr:
        err = cmd.stderr.read()
    assert cmd.wait(timeout=60) == 0, err
    assert err == b"" and first.strip()


def test_a_full_disk_is_named_as_such(cli, tmp_path, monkeypatch):
    def full(src, dst, *a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst))

    monkeypatch.setattr(os, "replace", full)
    code, _, err = cli("compile", MINI, "--out", tmp_path / "m.json")
    assert code == 2 and "disk full" in err, err  # old: "No space left on device"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_writing_to_dev_full_says_disk_full_and_keeps_the_device(cli):
    code, _, err = cli("compile", MINI, "--out", "/dev/full")
    assert code == 2 and "cannot write /dev/full: disk full" in err, err
    assert not Path("/dev/full").is_file()  # written into, never replaced by a file


def _small_disk(tmp_path: Path, script: str) -> subprocess.CompletedProcess:
    """Run a shell script with a 200 kB file system mounted at tmp_path/disk (a private mount
    namespace: gone with the process); skipped where that cannot be done."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare")
    disk = tmp_path / "disk"
    disk.mkdir()
    p = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=200k tmpfs {disk} || exit 99\n{script}"],
                       env=ENV, capture_output=True, text=True, timeout=300)
    if p.returncode == 99 or "unshare failed" in p.stderr or "Operation not permitted" in p.stderr:
        pytest.skip(f"cannot mount a small file system here: {p.stderr.strip()}")
    return p


@needs_dot
@pytest.mark.parametrize("fmt", ["svg", "dot"])
def test_a_render_onto_a_full_disk_says_disk_full_and_leaves_nothing(tmp_path, fmt):
    disk = tmp_path / "disk"
    p = _small_disk(tmp_path, f"{sys.executable} -m tcgtiming render {ROOT / 'rules' / 'ws' / 'game.yaml'} "
                    f"--lang ja --lang en --format {fmt} --no-cache --out {disk}/out; echo rc=$?; ls -A {disk}")
    assert "rc=1" in p.stdout and "disk full" in p.stderr, p  # old, svg: "dot failed (1): gvwrite_no_z problem 5"
    assert "Traceback" not in p.stderr
    assert p.stdout.strip().endswith("rc=1"), p.stdout  # nothing left on the disk


def test_an_output_folder_reached_by_a_link_keeps_the_link(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "old.txt").write_text("old", encoding="utf-8")
    link = tmp_path / "link"
    link.symlink_to(real)
    with outputs.output_set(link, "render") as stage:
        (stage / "new.txt").write_text("new", encoding="utf-8")
    assert link.is_symlink() and sorted(os.listdir(link)) == ["new.txt", "old.txt"]
    assert sorted(os.listdir(tmp_path)) == ["cache", "link", "real"] or sorted(os.listdir(tmp_path)) == ["link", "real"]

"""Output sets: the files of one run, built in a staging folder beside their target folder and swapped
into place as one unit, so that a reader (or a run killed at any point) sees the old set or the new
set, never a mix.

    with output_set(Path("build/charts"), "render") as stage:
        ...write files under stage...
    # now build/charts holds them, and every file of the old build/charts that the run did not write

The swap is one ``renameat2(RENAME_EXCHANGE)`` on Linux; elsewhere (or on a file system without it)
the old folder is renamed aside (``.old-*``) and the new one into place, and a run that finds the
target missing and an ``.old-*`` beside it puts that back first. Files of the old set that the run
did not write are carried into the new set as hard links (copies across devices).

Leftovers of killed runs (``.<tag>-<name>-*`` staging folders, ``.old-<name>-*``) are removed by the
next run on the same target; a live run's folder is never removed: every run holds an ``flock`` on
its staging folder (released by the kernel when the run dies), and a folder newer than the cleaning
run is left alone. ``write_file`` is the same for one file (a temporary ``.tmp-*`` file, renamed).
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import functools
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path
from typing import Iterator

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class UnsafeTarget(OSError):
    """A target folder that a swap must not replace (the current folder, one above it, the home folder)."""


@contextlib.contextmanager
def output_set(target: Path, tag: str, owned: tuple[str, ...] = ()) -> Iterator[Path]:
    """A staging folder for the files of one run; on a normal exit they replace the target as one
    unit (see the module); on an exception nothing changes. ``owned`` names top-level entries of the
    target that the run writes whole: what the old set had there is not carried over (a page the
    new run no longer makes goes). Raises OSError (UnsafeTarget, a target that is a file, a folder
    that cannot be written)."""
    target = Path(os.path.realpath(target))  # a link to the output folder: the folder it names is swapped
    check_target(target)
    started = time.time()
    target.parent.mkdir(parents=True, exist_ok=True)
    recover(target)
    remove_leftovers(target, started)
    stage = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{tag}-{target.name}-{os.getpid()}-"))
    lock = _lock(stage)
    os.chmod(stage, _mode(target, 0o777))
    try:
        yield stage
        if any(stage.iterdir()):
            _carry_over(target, stage, skip=owned)
            _swap(stage, target)
    finally:
        shutil.rmtree(stage, ignore_errors=True)  # the staging folder, or the old set after the swap
        os.close(lock)


def new_files(stage: Path) -> list[Path]:
    """The files written under a staging folder, relative to it (sorted)."""
    return sorted(p.relative_to(stage) for p in stage.rglob("*") if p.is_file())


def check_target(target: Path) -> None:
    """Raise OSError unless target can be an output set's folder (see UnsafeTarget)."""
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(target))
    real = Path(os.path.realpath(target))
    here = Path(os.path.realpath(os.getcwd()))
    home = Path(os.path.realpath(os.path.expanduser("~")))
    if real == here or real in here.parents or real == home or real.parent == real or os.path.ismount(real):
        raise UnsafeTarget(errno.EINVAL, "an output folder must be a folder of its own (not the current folder, "
                           "a folder above it, the home folder or a mount point)", str(target))


def _mode(path: Path | str, default: int) -> int:
    """The permissions a new file or folder replacing path gets: path's own, or the default less the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return default & ~mask


def _lock(folder: Path) -> int:
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def _carry_over(old: Path, new: Path, skip: tuple[str, ...] = ()) -> None:
    """Link every file of the old set that the new one lacks into it (a copy across devices), but
    nothing below the top-level entries named in skip."""
    if not old.is_dir():
        return
    for root, dirs, files in os.walk(old):
        rel = Path(root).relative_to(old)
        if rel == Path("."):
            dirs[:] = [d for d in dirs if d not in skip]
            files = [f for f in files if f not in skip]
        (new / rel).mkdir(exist_ok=True)
        for name in [d for d in dirs if os.path.islink(os.path.join(root, d))] + files:
            src, dst = Path(root) / name, new / rel / name
            if dst.exists() or dst.is_symlink():
                continue
            if os.path.islink(src):
                os.symlink(os.readlink(src), dst)
            elif stat.S_ISREG(os.lstat(src).st_mode):
                try:
                    os.link(src, dst)
                except OSError:
                    shutil.copy2(src, dst)


@functools.lru_cache(maxsize=1)
def _renameat2():
    try:
        return ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where that is not available."""
    fn = _renameat2()
    if fn is None:
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _swap(stage: Path, target: Path) -> None:
    """Put the staged set at target; the old set ends at the stage's path (removed by the caller)."""
    if not target.exists():
        try:
            os.rename(stage, target)
            return
        except OSError as exc:
            if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                raise
    if exchange(stage, target):
        return
    aside = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".old-{target.name}-{os.getpid()}-"))
    lock = _lock(target)  # locked aside too: no other run puts it back while this one is swapping
    try:
        os.rename(target, aside)  # the old set aside (a run killed now: the next one puts it back)
        os.rename(stage, target)
        os.rename(aside, stage)
    finally:
        os.close(lock)


def recover(target: Path) -> None:
    """A run killed between the two renames of a swap without RENAME_EXCHANGE: put the old set back."""
    if target.exists():
        return
    prefix = f".old-{target.name}-"
    for name in sorted(n for n in os.listdir(target.parent) if n.startswith(prefix)):
        aside = target.parent / name
        if aside.is_dir() and not _locked(aside):
            os.rename(aside, target)
            return


def _locked(path: Path) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def remove_leftovers(target: Path, started: float, tags: tuple[str, ...] = ("render", "simulate", "site", "old")) -> int:
    """Remove what killed runs left beside target: staging folders (``.<tag>-<name>-*``) and
    temporary files (``.tmp-*<name>``) that are older than this run and locked by no live run.
    Returns how many were removed."""
    prefixes = tuple(f".{t}-{target.name}-" for t in tags)
    removed = 0
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return 0
    for e in entries:
        if not (e.name.startswith(prefixes) or (e.name.startswith(".tmp-") and e.name.endswith(target.name))):
            continue
        try:
            if e.stat(follow_symlinks=False).st_mtime > started or _locked(Path(e.path)):
                continue
            if e.is_dir(follow_symlinks=False):
                shutil.rmtree(e.path)
            else:
                os.unlink(e.path)
            removed += 1
        except OSError:
            continue
    return removed


def write_file(path: str, text: str) -> None:
    """Write a text file as one unit: a locked temporary file beside it, renamed over it (so a
    killed run leaves the old file or the new one). A path that is a FIFO or a device
    (/dev/stdout, /dev/null, /dev/full) is written directly: it is never replaced by a file.
    Raises OSError, naming path."""
    try:
        _write_file(path, text.encode("utf-8"))
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror, path) from None
        raise


def _write_file(path: str, data: bytes) -> None:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        with open(path, "wb") as fh:
            fh.write(data)
        return
    folder = os.path.dirname(os.path.abspath(path))
    started = time.time()
    os.makedirs(folder, exist_ok=True)
    remove_leftovers(Path(os.path.abspath(path)), started, tags=())
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.fchmod(fd, _mode(path, 0o666))
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        os.close(fd)

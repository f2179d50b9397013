"""Running graphviz: SVG and PNG from DOT text by the ``dot`` binary, cached by content hash (the DOT
text, the format and the graphviz version); each cache entry carries the hash of its own content and
is verified when it is read."""
from __future__ import annotations

import errno
import functools
import hashlib
import os
import subprocess
import tempfile
import time
from pathlib import Path


class RenderError(Exception):
    """graphviz is missing, or dot failed on a chart (the message says why)."""


@functools.lru_cache(maxsize=None)
def graphviz_version(dot: str = "dot") -> str:
    try:
        p = subprocess.run([dot, "-V"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        raise RenderError(f"graphviz is not available ({exc}): install the Debian package 'graphviz'") from None
    return (p.stderr or p.stdout).strip()


def cache_dir() -> Path:
    env = os.environ.get("TCGTIMING_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tcgtiming" / "charts"


def cache_key(dot_text: str, fmt: str, version: str) -> str:
    h = hashlib.sha256()
    for part in (dot_text.encode("utf-8"), fmt.encode(), version.encode()):
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


# --- cache entries: verified on every read ---------------------------------------------------------
#
# An entry is one file, <cache>/<key[:2]>/<key>.<fmt>: a header line "tcgtiming-cache 1 <sha256 of the
# content> <length>\n", then the content. It is written to a temporary file beside it and renamed
# into place, so a full disk or a killed run leaves no entry at all rather than a short one; an entry
# whose header, length or hash does not match (truncated, emptied, written by an older version,
# damaged on disk) is removed and drawn again.

_MAGIC = b"tcgtiming-cache 1 "
_STALE_TMP = 600  # seconds: a cache write takes milliseconds; an older temporary file is a dead run's


def cache_entry(cache: Path, key: str, fmt: str) -> Path:
    return cache / key[:2] / f"{key}.{fmt}"


def read_entry(path: Path) -> bytes | None:
    """The content of a cache entry if it is whole; None when it is missing or damaged (then removed)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    head, sep, data = raw.partition(b"\n")
    parts = head[len(_MAGIC):].split(b" ")
    if (sep and head.startswith(_MAGIC) and len(parts) == 2 and parts[1] == str(len(data)).encode()
            and parts[0] == hashlib.sha256(data).hexdigest().encode()):
        return data
    try:
        path.unlink()
    except OSError:
        pass
    return None


def write_entry(path: Path, data: bytes) -> None:
    """Store content under a cache entry (temporary file, then rename); raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        view = memoryview(_MAGIC + f"{hashlib.sha256(data).hexdigest()} {len(data)}\n".encode() + data)
        while view:
            view = view[os.write(fd, view):]
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _remove_stale(folder: Path) -> None:
    """Remove the temporary files that killed runs left in a cache folder."""
    now = time.time()
    try:
        with os.scandir(folder) as it:
            for e in it:
                if e.name.startswith(".tmp-") and now - e.stat(follow_symlinks=False).st_mtime > _STALE_TMP:
                    os.unlink(e.path)
    except OSError:
        pass


def _store(path: Path | None, data: bytes) -> None:
    if path is not None:
        try:
            write_entry(path, data)
        except OSError:
            pass  # a cache that cannot be written (full, read-only) is no reason to fail


def run_dot(dot_text: str, fmt: str, cache: Path | None = None) -> tuple[bytes, bool]:
    """SVG or PNG bytes for DOT text, and whether they came from the cache."""
    path = cache_entry(cache, cache_key(dot_text, fmt, graphviz_version()), fmt) if cache is not None else None
    data = read_entry(path) if path is not None else None
    if data is not None:
        return data, True
    p = subprocess.run(["dot", f"-T{fmt}"], input=dot_text.encode("utf-8"), capture_output=True)
    if p.returncode != 0 or not p.stdout:
        raise RenderError(f"dot failed ({p.returncode}): {p.stderr.decode('utf-8', 'replace').strip()}")
    _store(path, p.stdout)
    return p.stdout, False


def render_file(dot_text: str, fmt: str, target: Path, cache: Path | None = None) -> bool:
    """Draw DOT text into a file (SVG or PNG); True when it came from the cache (verified). dot writes
    the file itself (no output through Python: the threads of a parallel run do not wait for each
    other). A disk that fills up while dot writes is raised as OSError(ENOSPC), not as dot's words."""
    path = cache_entry(cache, cache_key(dot_text, fmt, graphviz_version()), fmt) if cache is not None else None
    data = read_entry(path) if path is not None else None
    if data is not None:
        target.write_bytes(data)
        return True
    p = subprocess.run(["dot", f"-T{fmt}", "-o", str(target)], input=dot_text.encode("utf-8"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0 or not target.is_file() or target.stat().st_size == 0:
        _raise_if_full(target)
        raise RenderError(f"dot failed ({p.returncode}): {p.stderr.decode('utf-8', 'replace').strip()}")
    if path is not None:
        _store(path, target.read_bytes())
    return False


def _raise_if_full(target: Path) -> None:
    """OSError(ENOSPC) when the file system of target has no free block left (dot says only
    'gvwrite_no_z problem 5')."""
    try:
        full = os.statvfs(target.parent).f_bavail == 0
    except OSError:
        return
    if full:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

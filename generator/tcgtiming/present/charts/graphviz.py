"""Running graphviz: SVG and PNG from DOT text by the ``dot`` binary, cached by content hash (the DOT
text, the format and the graphviz version)."""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
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


def run_dot(dot_text: str, fmt: str, cache: Path | None = None) -> tuple[bytes, bool]:
    """SVG or PNG bytes for DOT text, and whether they came from the cache."""
    version = graphviz_version()
    path = None
    if cache is not None:
        key = cache_key(dot_text, fmt, version)
        path = cache / key[:2] / f"{key}.{fmt}"
        try:
            return path.read_bytes(), True
        except OSError:
            pass
    p = subprocess.run(["dot", f"-T{fmt}"], input=dot_text.encode("utf-8"), capture_output=True)
    if p.returncode != 0 or not p.stdout:
        raise RenderError(f"dot failed ({p.returncode}): {p.stderr.decode('utf-8', 'replace').strip()}")
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as fh:
                fh.write(p.stdout)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written is no reason to fail
    return p.stdout, False


def render_file(dot_text: str, fmt: str, target: Path, cache: Path | None = None) -> bool:
    """Draw DOT text into a file (SVG or PNG); True when it came from the cache. dot writes the file
    itself (no output through Python: the threads of a parallel run do not wait for each other)."""
    cached = None
    if cache is not None:
        key = cache_key(dot_text, fmt, graphviz_version())
        cached = cache / key[:2] / f"{key}.{fmt}"
        try:
            shutil.copyfile(cached, target)
            return True
        except OSError:
            pass
    p = subprocess.run(["dot", f"-T{fmt}", "-o", str(target)], input=dot_text.encode("utf-8"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0 or not target.is_file() or target.stat().st_size == 0:
        raise RenderError(f"dot failed ({p.returncode}): {p.stderr.decode('utf-8', 'replace').strip()}")
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=cached.parent, prefix=".tmp-")
            os.close(fd)
            shutil.copyfile(target, tmp)
            os.replace(tmp, cached)
        except OSError:
            pass  # a cache that cannot be written is no reason to fail
    return False

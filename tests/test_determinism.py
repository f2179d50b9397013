"""Same input, same bytes: across processes and hash seeds, not only twice in one process."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

SCENARIOS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rules").glob("*/scenarios/*.yaml"))


def _run(args: list[str], seed: str, cwd: Path) -> None:
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT / "generator"))
    proc = subprocess.run([sys.executable, "-m", "tcgtiming.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _outputs(tmp: Path, seed: str) -> dict[str, bytes]:
    """Everything make site writes (models, charts and tables, traces, the site's pages), and the
    charts as DOT and Mermaid."""
    out = tmp / f"seed{seed}"
    _run(["site", "--rules", "rules", "--out", str(out / "build")], seed, ROOT)
    _run(["render", "rules", "--lang", "ja", "--lang", "en", "--format", "dot", "--format", "mermaid",
          "--out", str(out / "charts")], seed, ROOT)
    _run(["simulate", *SCENARIOS, "--out-dir", str(out / "traces")], seed, ROOT)
    return _tree(out)


def test_outputs_are_byte_identical_across_processes_and_hash_seeds(tmp_path):
    first, second = _outputs(tmp_path, "1"), _outputs(tmp_path, "4242")
    assert len(first) > 300
    assert first.keys() == second.keys()
    differ = [name for name in first if first[name] != second[name]]
    assert differ == []

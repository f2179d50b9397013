import contextlib
import functools
import http.server
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generator"))

MINI = ROOT / "tests" / "fixtures" / "mini" / "game.yaml"


@pytest.fixture
def mini_text() -> str:
    return MINI.read_text(encoding="utf-8")


@pytest.fixture
def variant(tmp_path, mini_text):
    """Write the fixture game with replacements applied; each `old` must occur exactly once."""

    def make(*pairs, name="game.yaml"):
        text = mini_text
        for old, new in pairs:
            assert text.count(old) == 1, f"fixture text not unique: {old!r}"
            text = text.replace(old, new)
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return make


@pytest.fixture
def cli(capsys):
    """Run the CLI in-process: returns (exit code, stdout, stderr)."""
    from tcgtiming.cli.main import main

    def run(*args):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse exits on usage errors and --help/--version
            code = exc.code
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@contextlib.contextmanager
def serving(folder):
    """A folder served on 127.0.0.1 (an unused port) for the browser tests: yields its base URL."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()

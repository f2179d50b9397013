"""tcgtiming serve: the authoring loop. Builds the site (as ``tcgtiming site``) into OUT, serves
OUT/site on 127.0.0.1, and rebuilds whenever a file under the rules folder (or the templates
folder) changes; the pages it serves reload themselves after a rebuild, and show the located
errors of a failed one over the last good pages.

A change in the files of some games' folders rebuilds only those games (``present.site.update``):
they are compiled and run again, their charts drawn (the chart cache keeps the unchanged ones), their
pages written where their text changed, and the pages reload; then the search index is made again
(Pagefind cannot update an index: it is built from all pages). A change anywhere else (a template, a
new game, a renamed phase or scenario: what every page's navigation shows) builds everything, as
``tcgtiming site`` does. The pages on disk are the ones ``tcgtiming site`` writes: the reload script
is added to HTML pages as they are served, never written.
"""
from __future__ import annotations

import contextlib
import functools
import io
import re
import json
import os
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .common import os_error_text, print_usage_problems

STATUS = "/__tcgtiming/status"

# Added before </body> of each HTML page served: polls the status, reloads after a new build, and
# shows the errors of a failed build in a panel (as text: textContent, never markup).
RELOAD = """<script>(function(){var seen=null,box=null;function show(t){if(!t){if(box){box.remove();box=null}return}
if(!box){box=document.createElement('pre');box.id='tcgtiming-build-error';box.setAttribute('role','alert');
box.style.cssText='position:fixed;left:0;right:0;bottom:0;max-height:50vh;overflow:auto;margin:0;padding:1em;'+
'background:#fff0f0;color:#600;border-top:3px solid #c00;font:13px/1.4 monospace;white-space:pre-wrap;z-index:99999';
document.body.appendChild(box)}box.textContent=t}
function poll(){fetch('%s',{cache:'no-store'}).then(function(r){return r.json()}).then(function(s){
if(seen!==null&&s.version!==seen&&!s.error){location.reload();return}seen=s.version;show(s.error)})
.catch(function(){}).finally(function(){setTimeout(poll,700)})}poll()})();</script>""" % STATUS


class State:
    """What the server knows: the build number (each good build), the last build's error text, and
    what the last good build was made from (for a rebuild of only what changed)."""

    def __init__(self):
        self.version = 0
        self.error: str | None = None
        self.building = False
        self.lock = threading.Lock()
        self.inputs = None  # present.site.Inputs of the site on disk
        self.detail = ""  # what the last build made

    def as_json(self) -> bytes:
        with self.lock:
            return json.dumps({"version": self.version, "error": self.error, "building": self.building}).encode()


class Handler(SimpleHTTPRequestHandler):
    state: State

    def log_message(self, format, *args):  # noqa: A002 - quiet: the command prints what it does
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self):  # noqa: N802
        if self.path.split("?")[0] == STATUS:
            body = self.state.as_json()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if path.endswith(".html") and os.path.isfile(path):
            with open(path, "rb") as fh:
                page = fh.read()
            cut = page.rfind(b"</body>")
            page = (page[:cut] + RELOAD.encode() + page[cut:]) if cut >= 0 else page + RELOAD.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)
            return
        super().do_GET()


def watched(folders: list[str]) -> tuple:
    """The files the site is built from, with their size and time of change."""
    out = []
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for f in sorted(files):
                if f.startswith("."):
                    continue
                p = os.path.join(root, f)
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                out.append((p, st.st_mtime_ns, st.st_size))
    return tuple(out)


def changed_paths(before: tuple, now: tuple) -> set[str]:
    """The files added, removed or changed between two ``watched`` lists."""
    return {p for p, *_ in set(before) ^ set(now)}


def rebuild(args, state: State, templates: Path | None, changed: set[str] | None = None) -> tuple[bool, float]:
    """One build: (it succeeded, seconds). changed: the files that changed since the last good build
    (None: build everything); only the games whose folders hold them are rebuilt when that is enough.
    A failure keeps the last good site and records the errors."""
    from ..present.charts import RenderError, cache_dir
    from ..present.site import BuildError, InputError, build
    from ..present.site.publish import search_index
    from ..present.site.update import changed_folders, update
    from .site import report_invalid

    with state.lock:
        state.building = True
    t0 = time.perf_counter()
    text = io.StringIO()
    ok = False
    done = None
    cache = None if args.no_cache else cache_dir()
    try:
        with contextlib.redirect_stdout(text):
            folders = None
            if changed is not None and state.inputs is not None and not (templates and any(
                    Path(p).resolve().is_relative_to(templates.resolve()) for p in changed)):
                folders = changed_folders(changed, args.rules, state.inputs)
            done = update(args.rules, Path(args.out), state.inputs, folders, cache, args.jobs, templates) if folders else None
            if done is not None:
                with state.lock:  # the pages are in place: reload them, then make the search index again
                    state.inputs, state.version, state.error = done.inputs, state.version + 1, None
                state.detail = f"{', '.join(done.games)}: pages in {time.perf_counter() - t0:.1f} s"
                search_index(done.inputs, Path(args.out) / "site")
            else:
                state.inputs = build(args.rules, Path(args.out), cache, args.jobs, templates=templates).inputs
                state.detail = "everything"
        ok = True
    except InputError as exc:
        with contextlib.redirect_stdout(text):
            report_invalid(exc)
    except (BuildError, RenderError) as exc:
        text.write(f"error: {exc}\n")
    except OSError as exc:
        text.write(f"error: cannot write {exc.filename or args.out}: {os_error_text(exc)}\n")
    with state.lock:
        state.building = False
        if ok:
            state.version += 0 if done is not None else 1  # an update has reloaded the pages already
            state.error = None
        else:
            state.error = _plain(text.getvalue())
    return ok, time.perf_counter() - t0


def _plain(text: str) -> str:
    """Diagnostics as plain text (no terminal colour codes)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text).strip() or "error"


def run(args) -> int:
    from .site import folders_problem

    problem = folders_problem(args)
    if problem is not None:
        print_usage_problems([problem])
        return 2
    templates = Path(args.templates) if args.templates else None
    state = State()
    folders = [args.rules] + ([str(templates)] if templates else [])
    seen = watched(folders)
    ok, secs = rebuild(args, state, templates)
    _say(ok, secs, state)
    site = Path(args.out) / "site"
    site.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(type("H", (Handler,), {"state": state}), directory=str(site))
    try:
        server = ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    except OSError as exc:
        sys.stderr.write(f"tcgtiming serve: error: cannot listen on 127.0.0.1:{args.port}: {os_error_text(exc)}\n")
        return 2
    server.daemon_threads = True
    port = server.server_address[1]
    sys.stdout.write(f"serving http://127.0.0.1:{port}/ (the site in {site}); watching {', '.join(folders)}; "
                     "Ctrl-C stops\n")
    sys.stdout.flush()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        while True:
            time.sleep(args.interval)
            now = watched(folders)
            if now == seen:
                continue
            time.sleep(0.2)  # an editor saving several files: let them land
            now = watched(folders)
            ok, secs = rebuild(args, state, templates, changed_paths(seen, now) if state.error is None else None)
            seen = now
            _say(ok, secs, state)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0


def _say(ok: bool, secs: float, state: State) -> None:
    if ok:
        sys.stdout.write(f"built #{state.version} in {secs:.1f} s ({state.detail})\n")
    else:
        sys.stdout.write(f"build failed in {secs:.1f} s (the pages show it; the last good site is served):\n"
                         f"{state.error}\n")
    sys.stdout.flush()


"""tcgtiming site: in one pass, everything ``make site`` publishes: the compiled models, the charts and
timing tables, the traces of the shipped scenarios, the generated pages and the static site."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from ..core.diagnostics import Diagnostic
from ..present.report import Style, format_text, summary, use_color
from ..present.outputs import check_target
from .common import os_error_text, print_diags, print_usage_problems


def run(args) -> int:
    from ..present.charts import RenderError, cache_dir
    from ..present.site import BuildError, InputError, build

    if args.jobs is not None and args.jobs < 1:
        sys.stderr.write("tcgtiming site: error: --jobs must be 1 or more\n")
        return 2
    problem = folders_problem(args)
    if problem is not None:
        print_usage_problems([problem])
        return 2
    templates = Path(args.templates) if args.templates else None
    out = Path(args.out)
    try:
        check_target(out)  # a folder of its own: OUT is swapped whole with the new outputs
        out.parent.mkdir(parents=True, exist_ok=True)
        os.rmdir(tempfile.mkdtemp(dir=out.parent, prefix=f".site-{out.name}-"))  # can we write beside it?
    except OSError as exc:
        sys.stderr.write(f"tcgtiming site: error: cannot write to {out}: {os_error_text(exc)}\n")
        return 2
    try:
        build(args.rules, out, None if args.no_cache else cache_dir(), args.jobs, templates=templates)
    except InputError as exc:
        report_invalid(exc)
        return 1
    except (BuildError, RenderError) as exc:
        sys.stderr.write(f"tcgtiming site: error: {exc}\n")
        return 1
    except OSError as exc:
        sys.stderr.write(f"tcgtiming site: error: cannot write {exc.filename or out}: {os_error_text(exc)}\n")
        return 1
    where = out.resolve()
    sys.stdout.write(f"outputs: {where}/ (models/: compiled models; charts/: charts and timing tables; "
                     "traces/: example simulations; site/: the site, ja/ and en/)\n")
    sys.stdout.write(f"site: {where / 'site' / 'index.html'}\n")
    return 0


def folders_problem(args) -> Diagnostic | None:
    """What is wrong with the folders a build reads (``site``, ``serve``): the rules folder with its
    rule files, and the templates folder when one is given."""
    from ..present.site import rule_files

    if not os.path.isdir(args.rules):
        return Diagnostic("U401", f"no such directory: {args.rules}", args.rules, 0, 0)
    if not rule_files(args.rules):
        return Diagnostic("U401", f"no rule file under {args.rules}", args.rules, 0, 0)
    if args.templates and not os.path.isdir(args.templates):
        return Diagnostic("U401", f"no such directory: {args.templates}", args.templates, 0, 0)
    return None


def report_invalid(exc) -> None:
    """What made the rules or scenarios invalid: the front end's diagnostics as 'validate' prints
    them, then the runs that failed, located, with their summary line."""
    for results, files in exc.invalid:
        print_diags(results, "text", files)
    if exc.failed:
        style = Style(use_color(sys.stdout))
        for d, line in exc.failed:
            sys.stdout.write(format_text(d, line, style) + "\n\n")
        sys.stdout.write(summary([d for d, _ in exc.failed], exc.scenarios) + "\n")

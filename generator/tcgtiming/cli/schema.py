"""tcgtiming schema: the JSON Schema of rule files, scenario files or ruling files."""
from __future__ import annotations

import json
import sys

from ..frontend.scenario import json_schema as scenario_schema
from ..frontend.schema import json_schema
from .common import emit, report_current


def run(args) -> int:
    if args.kind == "scenario":
        data = scenario_schema()
    elif args.kind == "ruling":
        from ..frontend.ruling import json_schema as ruling_schema

        data = ruling_schema()
    else:
        data = json_schema()
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    if args.check:
        try:
            with open(args.check, encoding="utf-8") as fh:
                current = fh.read()
        except OSError as exc:
            sys.stderr.write(f"cannot read {args.check}: {exc.strerror}\n")
            return 1
        return report_current(current == text, f"{args.check} is current",
                               f"{args.check} is stale: run 'tcgtiming schema --out {args.check}'")
    emit(text, args.out)
    return 0

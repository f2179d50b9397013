"""The engine against the interpreter it replaced (benchmarks/legacy.py, read from the history), on every shipped scenario.

1. compare: every shipped scenario run by both (strict), their traces compared entry by entry: the
   node, the actor and role, who decided, the pending abilities and the stack (labels), priority,
   the turn, the final zones and result; the narration (both languages) is compared too and every
   difference is counted by the kind of entry and event (they are deliberate: see the report).
   The engine's entries made inside a node's work (kinds rule, interrupt, resolve) have no
   counterpart in the interpreter's trace and are left out of the entry-by-entry comparison.
2. speed: each scenario run by each engine for about --seconds, interleaved, --rounds rounds; the
   median time per run, and the ratio. The engine runs with its event trace recorded ("traced":
   what simulate does) and without ("fast").

    .venv/bin/python benchmarks/engines.py [--seconds 0.3] [--rounds 3] [--json out.json] [--diffs]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generator"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from legacy import simulate as legacy_simulate  # noqa: E402
from tcgtiming.frontend.pipeline import compile_file  # noqa: E402
from tcgtiming.runtime.engine import program_for, simulate  # noqa: E402
from tcgtiming.runtime.narrate import Narrator  # noqa: E402

SUB = ("rule", "interrupt", "resolve")


def scenarios():
    out = []
    for p in sorted((ROOT / "rules").glob("*/scenarios/*.yaml")):
        res = compile_file(p, str(p.relative_to(ROOT)))
        assert res.scenario is not None, p
        out.append((f"{p.parent.parent.name}/{p.stem}", res.game, res.scenario))
    return out


def label(sc, cid, aid, negated=False):
    card = sc.cards[cid]
    ab = next((a for a in card.abilities if a.id == aid), None)
    if ab is not None:
        text = ab.label
    elif aid.startswith("abolish:"):
        text = f"abolish (to the {aid.split(':')[1]})"
    else:
        text = "extra pending ability" if aid == "extra" else aid
    return f"{card.name}: {text}" + (" (negated)" if negated else "")


def compare(items, show: int) -> bool:
    ok, words = True, {"ja": collections.Counter(), "en": collections.Counter()}
    examples: dict = {}
    total = same = {"ja": 0, "en": 0}
    total, same = collections.Counter(), collections.Counter()
    for name, game, sc in items:
        old = legacy_simulate(game, sc, strict=True)  # only the scenarios it can run (``runnable``)
        new = simulate(game, sc, strict=True)
        ours = [e for e in new.entries if e.kind not in SUB]
        problems = []
        if len(old.entries) != len(ours):
            problems.append(f"{len(old.entries)} entries before, {len(ours)} now")
        for o, n in zip(old.entries, ours):
            pend = tuple((p, tuple(label(sc, c, a) for c, a in v)) for p, v in n.pending)
            stack = tuple(label(sc, c, a, g) for c, a, g in n.stack)
            for what, x, y in (("node", o.node, n.node), ("kind", o.kind, n.kind), ("actor", o.actor, n.actor),
                               ("role", o.role, n.role), ("decided_by", o.decided_by, n.decided_by),
                               ("priority", o.priority, n.priority), ("turn", o.turn, n.turn),
                               ("pending", tuple((p, tuple(v)) for p, v in o.pending), pend), ("stack", tuple(o.stack), stack)):
                if x != y:
                    problems.append(f"entry {o.seq} ({o.node}): {what} {x!r} before, {y!r} now")
        for what, x, y in (("zones", old.zones, new.zones), ("result", (old.result, old.losers), (new.result, new.losers)),
                           ("unused choices", old.unused_choices, new.unused_choices),
                           ("policy decisions", old.policy_decisions, new.policy_decisions)):
            if x != y:
                problems.append(f"{what}: {x!r} before, {y!r} now")
        extra = collections.Counter(e.kind for e in new.entries if e.kind in SUB)
        for lang in ("ja", "en"):
            told = Narrator(game, sc, lang)
            for o, n in zip(old.entries, ours):
                total[lang] += 1
                a, b = o.what.get(lang), told.entry(n)
                if a == b:
                    same[lang] += 1
                    continue
                key = (lang, n.kind, n.event[0])
                words[lang][key] += 1
                examples.setdefault(key, (name, o.seq, a, b))
        print(f"  {name}: {len(old.entries)} entries, {'same facts' if not problems else 'DIFFERENT'}"
              + (f"; entries of their own now: {dict(extra)}" if extra else ""))
        for p in problems[:5]:
            print(f"    {p}")
        ok = ok and not problems
    for lang in ("ja", "en"):
        print(f"narration ({lang}): {same[lang]} of {total[lang]} entries word for word as before; the others, by kind and event:")
        for key, n in words[lang].most_common():
            print(f"  {n:4} {key[1]}/{key[2]}")
            if show:
                ex = examples[key]
                print(f"       {ex[0]} #{ex[1]}\n       before: {ex[2]}\n       now:    {ex[3]}")
    return ok


def runnable(items):
    """The scenarios the interpreter before can run: a scenario using a rule word added since it was
    retired (a predicate, an action, a kind of node) is left out of the comparison, and named."""
    out = []
    for name, game, sc in items:
        try:
            legacy_simulate(game, sc, strict=True)
        except Exception as exc:  # noqa: BLE001 - the old code's own failure: the word it does not know
            print(f"  {name}: left out, the interpreter before cannot run it ({type(exc).__name__}: {exc})")
            continue
        out.append((name, game, sc))
    return out


def timed(fn, seconds):
    n, t = 1, 0.0
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t = time.perf_counter() - t0
        if t > seconds / 4:
            break
        n *= 2
    reps = max(1, int(n * seconds / t))
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--diffs", action="store_true", help="show an example of each kind of narration difference")
    args = ap.parse_args()
    shipped = scenarios()
    print(f"date {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, Python {platform.python_version()}, "
          f"nproc {os.cpu_count()}, {len(shipped)} scenarios")
    items = runnable(shipped)
    print(f"{len(items)} of the {len(shipped)} shipped scenarios run on the interpreter before")
    print("compare (facts entry by entry, then the narration):")
    ok = compare(items, args.diffs)
    rows = {}
    for name, game, sc in items:
        prog = program_for(game)
        engines = {"before": lambda: legacy_simulate(game, sc, strict=True),
                   "traced": lambda: simulate(game, sc, strict=True, program=prog),
                   "fast": lambda: simulate(game, sc, strict=True, program=prog, trace=False)}
        samples = {k: [] for k in engines}
        for _ in range(args.rounds):
            for k, fn in engines.items():
                samples[k].append(timed(fn, args.seconds))
        rows[name] = {k: statistics.median(v) for k, v in samples.items()}
    print("\n| scenario | before | engine, event trace | speed-up | engine, no trace | speed-up |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, r in rows.items():
        print(f"| {name} | {r['before'] * 1e3:.2f} ms | {r['traced'] * 1e3:.3f} ms | {r['before'] / r['traced']:.1f}x | "
              f"{r['fast'] * 1e3:.3f} ms | {r['before'] / r['fast']:.1f}x |")
    tb, tt, tf = (sum(r[k] for r in rows.values()) for k in ("before", "traced", "fast"))
    ups = [r["before"] / r["traced"] for r in rows.values()]
    print(f"| all {len(rows)} | {tb * 1e3:.1f} ms | {tt * 1e3:.2f} ms | {tb / tt:.1f}x | {tf * 1e3:.2f} ms | {tb / tf:.1f}x |")
    print(f"\nspeed-up with the event trace: least {min(ups):.1f}x, median {statistics.median(ups):.1f}x (target: 20x each)")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

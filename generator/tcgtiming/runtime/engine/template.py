"""A scenario's starting state as code: one function per scenario (made at its first run, cached on
its ``Setup``) that makes the run's cards and fills the machine's zones (player -> zone -> cards),
cards by id and index of auto abilities by event, as straight-line code (no per-run loops over the
setup)."""
from __future__ import annotations

from .state import RCard


def builder(setup):
    fn = setup.__dict__.get("_build")
    if fn is None:
        fn = setup.__dict__["_build"] = _make(setup)
    return fn


def _make(setup):
    ns: dict = {"R": RCard}
    lines = ["def build(st):"]
    made, zones = [], []
    for pid, layout in setup.zones:
        per = []
        for z, specs in layout:
            names = []
            for spec, base, slot in specs:
                k = len(made)
                ns[f"S{k}"], ns[f"B{k}"] = spec, base
                lines.append(f"    c{k} = R(S{k}, {pid!r}, B{k}, {z!r}, {slot!r})")
                made.append(spec.id)
                names.append(f"c{k}")
            per.append(f"{z!r}: [{', '.join(names)}]")
        zones.append(f"{pid!r}: {{{', '.join(per)}}}")
    lines.append(f"    st.zones = {{{', '.join(zones)}}}")
    lines.append(f"    st.cards = {{{', '.join(f'{cid!r}: c{k}' for k, cid in enumerate(made))}}}")
    listen = []
    for ev, items in setup.listen:
        parts = []
        for j, it in enumerate(items):
            name = f"L{len(ns)}"
            ns[name] = it[1:]
            parts.append(f"(c{it[0]},) + {name}")
        listen.append(f"{ev!r}: [{', '.join(parts)}]")
    lines.append(f"    st.listen = {{{', '.join(listen)}}}")
    exec(compile("\n".join(lines) + "\n", "<tcgtiming scenario setup>", "exec"), ns)
    return ns["build"]

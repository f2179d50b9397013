"""A scenario's starting state as code: one function per scenario (made at its first run, cached on
its ``Setup``) that makes the run's cards and fills the machine's zones (player -> zone -> cards),
cards by id and index of auto abilities by event, as straight-line code (no per-run loops over the
setup); a scenario of more than ``CODE_CARDS`` cards, by a loop."""
from __future__ import annotations

from .state import RCard


CODE_CARDS = 256  # a larger scenario is set up by a loop (the code would take longer to compile than to run)


def builder(setup):
    fn = setup.__dict__.get("_build")
    if fn is None:
        cards = sum(len(specs) for _, layout in setup.zones for _, specs in layout)
        fn = setup.__dict__["_build"] = _make(setup) if cards <= CODE_CARDS else _loop(setup)
    return fn


def _loop(setup):
    def build(st):
        st.zones, st.cards, made = {}, {}, []
        for pid, layout in setup.zones:
            zones = st.zones[pid] = {}
            for z, specs in layout:
                here = zones[z] = [RCard(spec, pid, base, z, slot) for spec, base, slot in specs]
                made += here
        for card in made:
            st.cards[card.id] = card
        st.listen = {ev: [(made[it[0]],) + it[1:] for it in items] for ev, items in setup.listen}
    return build


_UNSET = object()


def _card(k: int, proto, spec, base, pid, z, slot) -> list[str]:
    """A card as the run starts it: its slots set one by one from the values a card made by
    ``RCard`` has (constants, the shared spec and values, a new empty list), twice as fast as the
    call; a value of another kind: the call."""
    sets = []
    for name in RCard.__slots__:
        v = getattr(proto, name, _UNSET)
        if v is _UNSET:  # a slot the call leaves unset stays unset
            continue
        if v is spec:
            sets.append(f"c{k}.{name} = S{k}")
        elif v is base:
            sets.append(f"c{k}.{name} = B{k}")
        elif v is None or type(v) in (str, int, bool):
            sets.append(f"c{k}.{name} = {v!r}")
        elif type(v) is list and not v:
            sets.append(f"c{k}.{name} = []")
        else:
            return [f"    c{k} = R(S{k}, {pid!r}, B{k}, {z!r}, {slot!r})"]
    return [f"    c{k} = new(R)"] + ["    " + x for x in sets]


def _make(setup):
    ns: dict = {"R": RCard, "new": object.__new__}
    lines = ["def build(st):"]
    made, zones = [], []
    for pid, layout in setup.zones:
        per = []
        for z, specs in layout:
            names = []
            for spec, base, slot in specs:
                k = len(made)
                ns[f"S{k}"], ns[f"B{k}"] = spec, base
                lines += _card(k, RCard(spec, pid, base, z, slot), spec, base, pid, z, slot)
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

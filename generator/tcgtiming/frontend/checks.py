"""Semantic checks of a rule file: what the schema cannot see.

``check_file`` walks the schema tree and collects every problem (never stopping at the first):
duplicate ids in each registry, labels and notes in both languages, citations of known sources
and sections, references to roles, zones, events, play kinds, lists, constants and procedures,
every condition and action (through ``resolve``), and the definitions nothing uses (C315: roles,
events, play kinds and source sections; unused procedures are found on the graph). The checks of
the compiled graph are in ``flow``.
"""
from __future__ import annotations

from ..core import model as m
from . import schema as s
from ..core.diagnostics import Diagnostic, did_you_mean, one_of
from ..core.scenario import STATS
from .resolve import Registry, Resolver


class FileChecks:
    def __init__(self, rf: s.RuleFile, doc):
        self.rf = rf
        self.doc = doc
        self.diags: list[Diagnostic] = []
        self.res = Resolver(Registry.of_rules(rf), self.fail)
        self.plays = {p.id for p in rf.plays}
        self.procs = {p.id: p for p in rf.procedures}
        self.sources = {x.id: {y.id for y in x.sections} for x in rf.sources}
        self.used_sections: set[tuple[str, str]] = set()
        self.bad_sources: set[str | None] = set()  # cited with an unknown section; None: an unknown source was cited

    def fail(self, code, message, path, *, key=False, help=None):
        self.diags.append(self.doc.diag(code, message, path, key=key, help=help))

    # --- entry ----------------------------------------------------------------------------
    def run(self) -> list[Diagnostic]:
        rf = self.rf
        self.text(rf.game.name, ("game", "name"), "the game name")
        self.opt_text(rf.game.note, ("game", "note"))
        count = rf.game.players
        if not isinstance(count, int) and count.min > count.max:
            self.fail("S204", f"players: min {count.min} is more than max {count.max}", ("game", "players"),
                      help="write {min: fewest, max: most}")
        self.unique([x.id for x in rf.sources], ("sources",), "source")
        for i, src in enumerate(rf.sources):
            self.unique([y.id for y in src.sections], ("sources", i, "sections"), f"section of '{src.id}'")
            for j, sec in enumerate(src.sections):
                if sec.lines and sec.lines[0] > sec.lines[1]:
                    self.fail("S204", f"section '{sec.id}' of source '{src.id}': lines {sec.lines} end before they begin",
                              ("sources", i, "sections", j, "lines"), help="write [first, last]")
            self.opt_text(src.note, ("sources", i, "note"))
        for name, items in (("roles", rf.roles), ("zones", rf.zones), ("events", rf.events), ("plays", rf.plays),
                            ("lists", rf.lists), ("rule_processes", rf.rule_processes), ("player_values", rf.player_values)):
            self.unique([x.id for x in items], (name,), name.rstrip("s").replace("_", " "))
            for i, x in enumerate(items):
                self.text(x.name, (name, i, "name"), f"the name of {name.rstrip('s')} '{x.id}'")
                self.opt_text(getattr(x, "note", None), (name, i, "note"))
                if getattr(x, "cite", None) is not None:
                    self.cite(x.cite, (name, i, "cite"))
        for i, p in enumerate(rf.plays):
            if p.cost is not None:
                self.res.ref(p.cost.zone, self.res.reg.zones, ("plays", i, "cost", "zone"), "zone")
                self.res.ref(p.cost.stat, STATS, ("plays", i, "cost", "stat"), "card stat")
                if p.cost.card_from is not None:
                    self.res.ref(p.cost.card_from, self.res.reg.zones, ("plays", i, "cost", "card_from"), "zone")
                if p.cost.type is not None:
                    self.res.card_word(p.cost.type, ("plays", i, "cost", "type"), "type")
                if p.cost.colours is not None:
                    self.res.named_list(p.cost.colours, ("plays", i, "cost", "colours"))
            for j, r in enumerate(p.by or []):
                self.res.role(r, ("plays", i, "by", j))
        for i, v in enumerate(rf.player_values):
            if isinstance(v.start, str):
                self.res.ref(v.start, self.res.reg.constants, ("player_values", i, "start"), "integer constant")
        held: dict[str, str] = {}
        for i, z in enumerate(rf.zones):
            if z.role is not None and z.role in held:
                self.fail("C301", f"zone role '{z.role}' is held by two zones: '{held[z.role]}' and '{z.id}'",
                          ("zones", i, "role"), help="each role belongs to one zone")
            elif z.role is not None:
                held[z.role] = z.id
            if z.front is not None and z.role != "stage":
                self.fail("C311", f"'front' is for the zone with role stage, not '{z.id}'", ("zones", i, "front"), key=True)
            if z.combatants is not None and z.role not in ("stage", "field"):
                self.fail("C311", f"'combatants' is for the zone with role stage or field, not '{z.id}'",
                          ("zones", i, "combatants"), key=True)
            for j, t in enumerate(z.combatants or ()):
                self.res.card_word(t, ("zones", i, "combatants", j), "type")
        rules = self.res.widen(roles=("self",))  # a rule process's 'self': the player it is tested for
        for i, rp in enumerate(rf.rule_processes):
            path = ("rule_processes", i)
            if rp.when is not None:
                rules.condition(rp.when, path + ("when",))
            for j, a in enumerate(rp.do or []):
                rules.action(a, path + ("do", j))
        for i, p in enumerate(rf.plays):  # a play kind's condition: 'self' is the player who would play
            if p.when is not None:
                rules.condition(p.when, ("plays", i, "when"))
        for i, li in enumerate(rf.lists):
            self.unique([it.id for it in li.items], ("lists", i, "items"), f"item of list '{li.id}'")
            for j, it in enumerate(li.items):
                self.text(it.name, ("lists", i, "items", j, "name"), f"the name of '{it.id}'")
        seats = {r.seat for r in rf.roles}
        if not {"turn", "non_turn"} <= seats:
            missing = sorted({"turn", "non_turn"} - seats)
            self.fail("C302", f"no role for the {' and the '.join(x.replace('_', '-') for x in missing)} player",
                      ("roles",), help="define one role with seat: turn and one with seat: non_turn")
        if rf.check_timing is not None and rf.check_timing not in self.procs:
            self.fail("C302", f"unknown check timing procedure '{rf.check_timing}'", ("check_timing",),
                      help=did_you_mean(rf.check_timing, self.procs))
        # containers
        top_ids = [("turn", ("turn",))]
        for i, p in enumerate(rf.procedures):
            top_ids.append((p.id, ("procedures", i, "id")))
            self.container(p, ("procedures", i), f"procedure '{p.id}'")
        if not rf.turn.phases:
            self.fail("C314", "the turn has no phases", ("turn", "phases"))
        self.opt_text(rf.turn.label, ("turn", "label"))
        self.opt_text(rf.turn.note, ("turn", "note"))
        self.readings(rf.turn.readings, ("turn", "readings"))
        if rf.turn.cite is not None:
            self.cite(rf.turn.cite, ("turn", "cite"))
        for i, ph in enumerate(rf.turn.phases):
            path = ("turn", "phases", i)
            top_ids.append((ph.id, path + ("id",)))
            if not ph.steps and not ph.nodes:  # both is allowed: phase-level nodes run before the steps
                self.fail("C314", f"phase '{ph.id}' has neither steps nor nodes", path)
            self.container(ph, path, f"phase '{ph.id}'", need_nodes=False)
            self.unique([st.id for st in ph.steps or []], path + ("steps",), "step")
            for j, st in enumerate(ph.steps or []):
                self.container(st, path + ("steps", j), f"step '{ph.id}.{st.id}'")
        seen: dict[str, tuple] = {}
        for ident, path in top_ids:
            if ident in seen:
                self.fail("C301", f"'{ident}' names both a phase/procedure and another phase/procedure"
                          if ident != "turn" else "'turn' is reserved", path)
            seen[ident] = path
        self.unused()
        return self.diags

    # --- helpers --------------------------------------------------------------------------
    def unique(self, ids, path, what):
        seen = {}
        for i, ident in enumerate(ids):
            if ident in seen:
                self.fail("C301", f"duplicate {what} id '{ident}' (first defined as item {seen[ident] + 1})",
                          path + (i, "id"))
            else:
                seen[ident] = i

    def text(self, t, path, what):
        if t is None:
            self.fail("C304", f"{what} has no label", path)
            return
        missing = [lang for lang in m.LANGS if not getattr(t, lang)]
        if missing:
            self.fail("C304", f"{what} lacks the {' and '.join(missing)} text", path,
                      help="every label and note is bilingual: give both 'ja' and 'en'")

    def opt_text(self, t, path):
        if t is not None:
            self.text(t, path, "this text")

    def cite(self, value, path):
        items = [value] if isinstance(value, str) else list(value)
        for i, item in enumerate(items):
            p = path if isinstance(value, str) else path + (i,)
            src, _, sec = item.partition("#")
            src, sec = src.strip(), sec.strip()
            if src not in self.sources:
                self.bad_sources.add(None)
                self.fail("C303", f"citation of unknown source '{src}'", p, help=did_you_mean(src, self.sources)
                          or (one_of(self.sources) if self.sources else "add the document to 'sources'"))
            elif sec and sec not in self.sources[src]:
                self.bad_sources.add(src)
                self.fail("C303", f"source '{src}' has no section '{sec}'", p,
                          help=did_you_mean(sec, self.sources[src]) or "add the section to the source's 'sections'")
            elif sec:
                self.used_sections.add((src, sec))

    def container(self, c, path, what, need_nodes=True):
        if c.label is None:
            self.fail("C304", f"{what} has no label", path + ("id",), help="add label: {ja: ..., en: ...}")
        else:
            self.text(c.label, path + ("label",), f"the label of {what}")
        self.opt_text(c.note, path + ("note",))
        if c.cite is not None:
            self.cite(c.cite, path + ("cite",))
        self.readings(c.readings, path + ("readings",))
        if getattr(c, "skip_if", None) is not None:
            self.res.condition(c.skip_if, path + ("skip_if",))
        nodes = getattr(c, "nodes", None)
        if need_nodes and not nodes:
            self.fail("C314", f"{what} has no nodes", path + ("nodes",))
        if nodes:
            has_cite = c.cite is not None or self._inherited_cite(path)
            self.seq(nodes, path + ("nodes",), has_cite)

    def readings(self, rs, path):
        """Two readings or more, each in both languages with valid citations, exactly one that runs."""
        if not rs:
            return
        self.unique([r.id for r in rs], path, "reading")
        for j, r in enumerate(rs):
            self.text(r.says, path + (j, "says"), f"reading '{r.id}'")
            if r.cite is not None:
                self.cite(r.cite, path + (j, "cite"))
        if len(rs) < 2 or sum(r.runs for r in rs) != 1:
            self.fail("S204", f"{len(rs)} reading(s), {sum(r.runs for r in rs)} with runs: true: list two readings "
                      "or more and mark the one this file follows", path,
                      key=True, help="give exactly one reading 'runs: true'")

    def _inherited_cite(self, path) -> bool:
        rf = self.rf
        if path[:1] == ("turn",):
            if rf.turn.cite is not None:
                return True
            if len(path) >= 5 and path[3] == "steps":
                return rf.turn.phases[path[2]].cite is not None
        return False

    def seq(self, nodes, path, has_cite):
        for i, node in enumerate(nodes):
            self.node(node, path + (i,), has_cite)

    def node(self, n, path, has_cite):
        kind = n.kind
        if n.cite is not None:
            self.cite(n.cite, path + ("cite",))
        elif not has_cite:
            self.fail("C313", f"this {kind} node has no citation (and nothing around it has one)", path + ("kind",),
                      help="add cite: <source-id>#<section-id> to the node or its step/phase/procedure")
        has_cite = has_cite or n.cite is not None
        derived = kind in ("check", "call", "trigger", "goto", "exit")
        if n.label is None:
            if not derived:
                self.fail("C304", f"this {kind} node has no label", path + ("kind",),
                          help="add label: {ja: ..., en: ...}")
        else:
            self.text(n.label, path + ("label",), f"the label of this {kind} node")
        self.opt_text(n.note, path + ("note",))
        self.readings(n.readings, path + ("readings",))
        if kind == "player":
            if n.may and n.options and n.do is not None:
                self.fail("C318", "a 'may' action with options and 'do': it is unclear which option does it", path + ("do",),
                          key=True, help="put the action into the option that does it (its 'then'), and drop 'may'")
            self.res.role(n.actor, path + ("actor",), allow_any=True)
            if n.do is not None:
                self.res.action(n.do, path + ("do",))
            for j, opt in enumerate(n.options or []):
                opath = path + ("options", j)
                if opt.label is None:
                    self.fail("C304", f"option '{opt.id}' has no label", opath + ("id",))
                else:
                    self.text(opt.label, opath + ("label",), f"the label of option '{opt.id}'")
                self.opt_text(opt.note, opath + ("note",))
                if opt.cite is not None:
                    self.cite(opt.cite, opath + ("cite",))
                if opt.when is not None:
                    self.res.condition(opt.when, opath + ("when",))
                if opt.play is not None:
                    self.res.ref(opt.play, self.plays, opath + ("play",), "play kind")
                self.seq(opt.then, opath + ("then",), has_cite or opt.cite is not None)
            if n.options is not None and not n.options:
                self.fail("C314", "'options' is empty", path + ("options",))
        elif kind in ("auto", "closed"):
            for a in n.do if isinstance(n.do, tuple) else (() if n.do is None else (n.do,)):
                self.res.action(a, path + ("do",))
        elif kind == "check":
            if n.procedure is not None and n.procedure not in self.procs:
                self.fail("C302", f"unknown procedure '{n.procedure}'", path + ("procedure",),
                          help=did_you_mean(n.procedure, self.procs))
        elif kind == "call":
            proc = self.procs.get(n.procedure)  # unknown procedures are reported by the compiler
            if proc is not None:
                given = set((n.with_ or {}).keys())
                for k in sorted(given - set(proc.params)):
                    self.fail("C311", f"procedure '{proc.id}' has no parameter '{k}'", path + ("with", k), key=True,
                              help=did_you_mean(k, proc.params) or (one_of(proc.params) if proc.params else "it takes none"))
                for k in sorted(set(proc.params) - given):
                    self.fail("C311", f"missing argument '{k}' for procedure '{proc.id}'", path + ("procedure",))
                for k in sorted(given & plays_params(proc)):  # a window's plays: play kinds
                    v = n.with_[k]
                    for j, kind in enumerate(v if isinstance(v, list) else [v]):
                        self.res.ref(kind, self.plays, path + ("with", k) + ((j,) if isinstance(v, list) else ()),
                                     "play kind")
        elif kind == "trigger":
            self.res.event(n.event, path + ("event",))
        elif kind == "window":
            self.res.role(n.first, path + ("first",))
            for j, r in enumerate(n.who or []):
                self.res.role(r, path + ("who", j))
            params = self.rf.procedures[path[1]].params if path[0] == "procedures" else ()
            for j, p in enumerate(n.plays):
                if p not in params:  # a parameter of the procedure: the kinds its calls give (checked there)
                    self.res.ref(p, self.plays, path + ("plays", j), "play kind")
            if n.close is None:
                self.fail("C308", "priority window without a closing rule", path + ("kind",),
                          help="add close: consecutive_passes | all_pass | first_pass")
            if n.passes is not None and n.close != "consecutive_passes":
                self.fail("C311", "'passes' applies only to close: consecutive_passes", path + ("passes",), key=True)
            if n.passes is not None and n.passes < 1:
                self.fail("C311", "'passes' must be at least 1", path + ("passes",))
            if n.resolve != "immediate" and n.before_priority is None and self.rf.check_timing is not None:
                self.fail("C321", "with a check_timing procedure, the engine puts no pending ability on this window's "
                          "stack: they wait until a check timing resolves them", path + ("resolve",), key=True,
                          help="say what happens before each priority: before_priority: [rule_processing, stack_pending]")
            for j, a in enumerate(n.before_priority or []):
                self.res.action(a, path + ("before_priority", j))
            self.opt_text(n.pass_note, path + ("pass_note",))
        elif kind == "branch":
            if not n.cases:
                self.fail("C314", "a branch with no cases", path + ("cases",))
            for j, case in enumerate(n.cases):
                cpath = path + ("cases", j)
                if case.label is not None:
                    self.text(case.label, cpath + ("label",), "the label of this case")
                else:
                    self.fail("C304", "this case has no label", cpath + ("when",), help="add label: {ja: ..., en: ...}")
                self.opt_text(case.note, cpath + ("note",))
                if case.cite is not None:
                    self.cite(case.cite, cpath + ("cite",))
                self.res.condition(case.when, cpath + ("when",))
                self.seq(case.then, cpath + ("then",), has_cite or case.cite is not None)
            if n.else_ is not None:
                self.seq(n.else_, path + ("else",), has_cite)
        elif kind == "loop":
            self.res.condition(n.while_, path + ("while",))
            self.seq(n.body, path + ("body",), has_cite)
        elif kind == "foreach":
            self.res.named_list(n.over, path + ("over",))
            self.seq(n.body, path + ("body",), has_cite)
        elif kind == "end_game":
            if n.result != "draw" and n.player is None:
                self.fail("C311", f"'{n.result}' needs the 'player' who {'loses' if n.result == 'lose' else 'wins'}",
                          path + ("result",))
            if n.player is not None:
                self.res.role(n.player, path + ("player",), allow_any=n.result == "lose")

    def unused(self):
        """C315 for each role, event, play kind and source section that nothing names; left out for a
        kind of which an unknown name is used (the misspelt name is probably the missing use)."""
        rf, uses = self.rf, self.res.uses
        for registry, what, where, why in ((rf.roles, "role", "roles", "nothing names it"),
                                           (rf.events, "event", "events", "no trigger point or action uses it"),
                                           (rf.plays, "play kind", "plays", "no priority window or option plays it")):
            if what in uses.unknown:
                continue
            for i, x in enumerate(registry):
                if x.id not in uses.found[what]:
                    self.fail("C315", f"{what} '{x.id}' is defined but {why}", (where, i, "id"))
        for i, src in enumerate(rf.sources):
            if None in self.bad_sources or src.id in self.bad_sources:
                continue
            for j, sec in enumerate(src.sections):
                if (src.id, sec.id) not in self.used_sections:
                    self.fail("C315", f"section '{sec.id}' of source '{src.id}' is defined but no citation names it",
                              ("sources", i, "sections", j, "id"))


def walk(nodes):
    """Every node of a node list, nested bodies included."""
    for n in nodes:
        yield n
        for sub in (getattr(n, "then", None), getattr(n, "else_", None), getattr(n, "body", None)):
            if sub:
                yield from walk(sub)
        for c in list(getattr(n, "options", None) or ()) + list(getattr(n, "cases", None) or ()):
            yield from walk(c.then)


def plays_params(proc) -> set:
    """The parameters of a procedure that a window of it names in its plays."""
    return {p for n in walk(proc.nodes) if n.kind == "window" for p in n.plays if p in proc.params}


def check_file(rf: s.RuleFile, doc) -> list[Diagnostic]:
    return FileChecks(rf, doc).run()

"""Semantic checks: what the schema cannot see.

Two passes, both collecting every problem (never stopping at the first):

* ``check_file`` walks the schema tree: duplicate ids in each registry, labels and notes in both
  languages, citations of known sources and sections, references to roles, zones, events, play
  kinds, lists, constants and procedures, and every predicate/action against the vocabulary.
* ``check_graph`` reads the compiled graph: unreachable nodes, loops and jumps with no way out,
  procedures that call themselves, and definitions nothing uses.
"""
from __future__ import annotations

from collections import deque

from ..core import model as m
from . import schema as s
from ..core.diagnostics import Diagnostic, did_you_mean, one_of
from ..core.vocab import ACTIONS, COMPARATORS, PREDICATES, Entry

ANY_PLAYER = ("any", "both")


class FileChecks:
    @classmethod
    def for_game(cls, game: m.Game, doc, extra_roles: tuple = ()) -> "FileChecks":
        """Condition/action checks against a compiled game's registries (for scenario files)."""
        self = cls.__new__(cls)
        self.rf = type("Registries", (), {"constants": dict(game.constants), "rule_processes": [], "events": []})()
        self.doc = doc
        self.diags = []
        self.roles, self.zones = set(game.roles), set(game.zones)
        self.events, self.plays, self.lists = set(game.events), set(game.plays), set(game.lists)
        self.procs = {c.id: None for c in game.procedures}
        self.sources = {x.id: {y.id for y in x.sections} for x in game.sources.values()}
        self.used_sections = set()
        self.used = {"events": set(), "roles": set(), "plays": set(), "lists": set()}
        self.extra_roles = extra_roles
        return self

    def __init__(self, rf: s.RuleFile, doc):
        self.rf = rf
        self.doc = doc
        self.diags: list[Diagnostic] = []
        self.roles = {r.id for r in rf.roles}
        self.zones = {z.id for z in rf.zones}
        self.events = {e.id for e in rf.events}
        self.plays = {p.id for p in rf.plays}
        self.lists = {li.id for li in rf.lists}
        self.procs = {p.id: p for p in rf.procedures}
        self.sources = {x.id: {y.id for y in x.sections} for x in rf.sources}
        self.used_sections: set[tuple[str, str]] = set()
        self.used = {"events": set(), "roles": set(), "plays": set(), "lists": set()}

    def fail(self, code, message, path, *, key=False, help=None):
        self.diags.append(self.doc.diag(code, message, path, key=key, help=help))

    # --- entry ----------------------------------------------------------------------------
    def run(self) -> list[Diagnostic]:
        rf = self.rf
        self.text(rf.game.name, ("game", "name"), "the game name")
        self.opt_text(rf.game.note, ("game", "note"))
        self.unique([x.id for x in rf.sources], ("sources",), "source")
        for i, src in enumerate(rf.sources):
            self.unique([y.id for y in src.sections], ("sources", i, "sections"), f"section of '{src.id}'")
            self.opt_text(src.note, ("sources", i, "note"))
        for name, items in (("roles", rf.roles), ("zones", rf.zones), ("events", rf.events), ("plays", rf.plays),
                            ("lists", rf.lists), ("rule_processes", rf.rule_processes)):
            self.unique([x.id for x in items], (name,), name.rstrip("s").replace("_", " "))
            for i, x in enumerate(items):
                self.text(x.name, (name, i, "name"), f"the name of {name.rstrip('s')} '{x.id}'")
                self.opt_text(getattr(x, "note", None), (name, i, "note"))
                if getattr(x, "cite", None) is not None:
                    self.cite(x.cite, (name, i, "cite"))
        for i, rp in enumerate(rf.rule_processes):
            path = ("rule_processes", i)
            self.extra_roles = ("self",)
            if rp.when is not None:
                self.cond(rp.when, path + ("when",), {})
            for j, a in enumerate(rp.do or []):
                self.act(a, path + ("do", j), {})
            self.extra_roles = ()
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
            self.container(p, ("procedures", i), f"procedure '{p.id}'", {v: None for v in p.params})
        if not rf.turn.phases:
            self.fail("C314", "the turn has no phases", ("turn", "phases"))
        self.opt_text(rf.turn.label, ("turn", "label"))
        self.opt_text(rf.turn.note, ("turn", "note"))
        if rf.turn.cite is not None:
            self.cite(rf.turn.cite, ("turn", "cite"))
        for i, ph in enumerate(rf.turn.phases):
            path = ("turn", "phases", i)
            top_ids.append((ph.id, path + ("id",)))
            if ph.steps is not None and ph.nodes is not None and ph.steps and ph.nodes:
                pass  # allowed: phase-level nodes run before the steps
            if not ph.steps and not ph.nodes:
                self.fail("C314", f"phase '{ph.id}' has neither steps nor nodes", path)
            self.container(ph, path, f"phase '{ph.id}'", {}, need_nodes=False)
            self.unique([st.id for st in ph.steps or []], path + ("steps",), "step")
            for j, st in enumerate(ph.steps or []):
                self.container(st, path + ("steps", j), f"step '{ph.id}.{st.id}'", {})
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
                self.fail("C303", f"citation of unknown source '{src}'", p, help=did_you_mean(src, self.sources)
                          or (one_of(self.sources) if self.sources else "add the document to 'sources'"))
            elif sec and sec not in self.sources[src]:
                self.fail("C303", f"source '{src}' has no section '{sec}'", p,
                          help=did_you_mean(sec, self.sources[src]) or "add the section to the source's 'sections'")
            elif sec:
                self.used_sections.add((src, sec))

    def ref(self, value, pool, path, what, extra=()):
        if value in pool or value in extra:
            return True
        self.fail("C302", f"unknown {what} '{value}'", path,
                  help=did_you_mean(value, list(pool) + list(extra)) or (one_of(list(pool) + list(extra)) if pool else None))
        return False

    def container(self, c, path, what, variables, need_nodes=True):
        if c.label is None:
            self.fail("C304", f"{what} has no label", path + ("id",), help="add label: {ja: ..., en: ...}")
        else:
            self.text(c.label, path + ("label",), f"the label of {what}")
        self.opt_text(c.note, path + ("note",))
        if c.cite is not None:
            self.cite(c.cite, path + ("cite",))
        nodes = getattr(c, "nodes", None)
        if need_nodes and not nodes:
            self.fail("C314", f"{what} has no nodes", path + ("nodes",))
        if nodes:
            has_cite = c.cite is not None or self._inherited_cite(path)
            self.seq(nodes, path + ("nodes",), variables, has_cite)

    def _inherited_cite(self, path) -> bool:
        rf = self.rf
        if path[:1] == ("turn",):
            if rf.turn.cite is not None:
                return True
            if len(path) >= 5 and path[3] == "steps":
                return rf.turn.phases[path[2]].cite is not None
        return False

    def seq(self, nodes, path, variables, has_cite):
        for i, node in enumerate(nodes):
            self.node(node, path + (i,), variables, has_cite)

    def node(self, n, path, variables, has_cite):
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
        if kind == "player":
            if n.may and n.options and n.do is not None:
                self.fail("C318", "a 'may' action with options and 'do': it is unclear which option does it", path + ("do",),
                          key=True, help="put the action into the option that does it (its 'then'), and drop 'may'")
            self.role(n.actor, path + ("actor",), allow_any=True)
            self.act(n.do, path + ("do",), variables)
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
                    self.cond(opt.when, opath + ("when",), variables)
                self.seq(opt.then, opath + ("then",), variables, has_cite or opt.cite is not None)
            if n.options is not None and not n.options:
                self.fail("C314", "'options' is empty", path + ("options",))
        elif kind in ("auto", "closed"):
            self.act(n.do, path + ("do",), variables)
        elif kind == "check":
            if n.procedure is not None and n.procedure not in self.procs:
                self.fail("C302", f"unknown procedure '{n.procedure}'", path + ("procedure",),
                          help=did_you_mean(n.procedure, self.procs))
        elif kind == "call":
            proc = self.procs.get(n.procedure)  # unknown procedures are reported by the compiler
            if proc is not None:
                given = set((n.with_ or {}).keys())
                for j, k in enumerate(sorted(given - set(proc.params))):
                    self.fail("C311", f"procedure '{proc.id}' has no parameter '{k}'", path + ("with", k), key=True,
                              help=did_you_mean(k, proc.params) or (one_of(proc.params) if proc.params else "it takes none"))
                for k in sorted(set(proc.params) - given):
                    self.fail("C311", f"missing argument '{k}' for procedure '{proc.id}'", path + ("procedure",))
        elif kind == "trigger":
            if self.ref(n.event, self.events, path + ("event",), "event"):
                self.used["events"].add(n.event)
        elif kind == "window":
            self.role(n.first, path + ("first",))
            for j, r in enumerate(n.who or []):
                self.role(r, path + ("who", j))
            for j, p in enumerate(n.plays):
                if self.ref(p, self.plays, path + ("plays", j), "play kind"):
                    self.used["plays"].add(p)
            if n.close is None:
                self.fail("C308", "priority window without a closing rule", path + ("kind",),
                          help="add close: consecutive_passes | all_pass | first_pass")
            if n.passes is not None and n.close != "consecutive_passes":
                self.fail("C311", "'passes' applies only to close: consecutive_passes", path + ("passes",), key=True)
            if n.passes is not None and n.passes < 1:
                self.fail("C311", "'passes' must be at least 1", path + ("passes",))
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
                self.cond(case.when, cpath + ("when",), variables)
                self.seq(case.then, cpath + ("then",), variables, has_cite or case.cite is not None)
            if n.else_ is not None:
                self.seq(n.else_, path + ("else",), variables, has_cite)
        elif kind == "loop":
            self.cond(n.while_, path + ("while",), variables)
            self.seq(n.body, path + ("body",), variables, has_cite)
        elif kind == "foreach":
            if self.ref(n.over, self.lists, path + ("over",), "list"):
                self.used["lists"].add(n.over)
            self.seq(n.body, path + ("body",), {**variables, n.as_: n.over}, has_cite)
        elif kind == "end_game":
            if n.result != "draw" and n.player is None:
                self.fail("C311", f"'{n.result}' needs the 'player' who {'loses' if n.result == 'lose' else 'wins'}",
                          path + ("result",))
            if n.player is not None:
                self.role(n.player, path + ("player",), allow_any=n.result == "lose")

    extra_roles: tuple = ()

    def role(self, value, path, allow_any=False):
        extra = (ANY_PLAYER if allow_any else ()) + self.extra_roles
        if self.ref(value, self.roles, path, "role", extra):
            self.used["roles"].add(value)

    # --- predicates and actions -----------------------------------------------------------
    def cond(self, value, path, variables):
        if isinstance(value, str):
            self.entry(value, None, path, PREDICATES, "C309", "predicate", variables, bare=True)
            return
        if isinstance(value, dict) and len(value) == 1:
            (name, arg), = value.items()
            if name == "not":
                self.cond(arg, path + ("not",), variables)
                return
            if name in ("all", "any"):
                if not isinstance(arg, list) or not arg:
                    self.fail("S203", f"'{name}' takes a non-empty list of conditions", path + (name,))
                    return
                for i, c in enumerate(arg):
                    self.cond(c, path + (name, i), variables)
                return
            self.entry(name, arg, path, PREDICATES, "C309", "predicate", variables)
            return
        self.fail("S203", "a condition is a predicate name, or a mapping with exactly one key "
                          "(a predicate, 'not', 'all' or 'any')", path)

    def act(self, value, path, variables):
        if value is None:
            return
        if isinstance(value, str):
            self.entry(value, None, path, ACTIONS, "C310", "action", variables, bare=True)
        elif isinstance(value, dict) and len(value) == 1:
            (name, arg), = value.items()
            self.entry(name, arg, path, ACTIONS, "C310", "action", variables)
        else:
            self.fail("S203", "an action is a name, or a mapping with exactly one key: {action: {arguments}}", path)

    def entry(self, name, arg, path, registry, code, what, variables, bare=False):
        entry: Entry | None = registry.get(name)
        npath = path if bare else path + (name,)
        if entry is None:
            extra = ["not", "all", "any"] if registry is PREDICATES else []
            self.fail(code, f"unknown {what} '{name}'", npath, key=not bare,
                      help=did_you_mean(name, list(registry) + extra) or one_of(registry))
            return
        if arg is None:
            args = {}
        elif isinstance(arg, dict):
            args = arg
        elif len(entry.params) == 1:
            args = {entry.params[0].name: arg}
        else:
            self.fail("C311", f"{what} '{name}' takes named arguments: {{{', '.join(p.name + ': ...' for p in entry.params) or ''}}}",
                      npath)
            return
        allowed = [p.name for p in entry.params] + (list(COMPARATORS) if entry.compare else [])
        for k, v in args.items():
            apath = npath + (k,) if isinstance(arg, dict) else npath
            p = entry.param(k)
            if p is None and not (entry.compare and k in COMPARATORS):
                self.fail("C311", f"{what} '{name}' has no argument '{k}'", apath, key=True,
                          help=did_you_mean(k, allowed) or (one_of(allowed) if allowed else f"'{name}' takes no arguments"))
                continue
            self.arg_value(p.type if p else "int", v, apath, variables, f"argument '{k}' of '{name}'")
        for p in entry.params:
            if p.required and p.name not in args:
                self.fail("C311", f"{what} '{name}' needs the argument '{p.name}'", npath, key=not bare)
        if entry.compare:
            cmps = [k for k in args if k in COMPARATORS]
            if len(cmps) != 1:
                self.fail("C311", f"{what} '{name}' needs exactly one comparison ({', '.join(COMPARATORS)})", npath,
                          key=not bare)

    def arg_value(self, type_, v, path, variables, what):
        if type_.startswith("enum:"):
            words = type_[5:].split("|")
            if v not in words:
                self.fail("C311", f"{what} is '{v}'", path, help=did_you_mean(v, words) or one_of(words))
            return
        if type_ == "role":
            if isinstance(v, str):
                self.role(v, path)
            else:
                self.fail("C311", f"{what} must be a role id", path)
        elif type_ == "player":
            if isinstance(v, str):
                self.role(v, path, allow_any=True)
            else:
                self.fail("C311", f"{what} must be a role id, 'any' or 'both'", path)
        elif type_ == "zone":
            self.ref(v, self.zones, path, "zone")
        elif type_ == "event":
            if self.ref(v, self.events, path, "event"):
                self.used["events"].add(v)
        elif type_ == "list":
            self.ref(v, self.lists, path, "list")
        elif type_ == "int":
            if isinstance(v, bool) or not isinstance(v, (int, str)):
                self.fail("C311", f"{what} must be an integer or the id of an integer constant", path)
            elif isinstance(v, str):
                consts = {k for k, c in self.rf.constants.items() if isinstance(c, int) and not isinstance(c, bool)}
                self.ref(v, consts, path, "integer constant")
        elif type_ == "bool":
            if not isinstance(v, bool):
                self.fail("C311", f"{what} must be true or false", path)
        elif type_ in ("name", "node", "text"):
            if not isinstance(v, str):
                self.fail("C311", f"{what} must be a string", path)

    def unused(self):
        rf = self.rf
        for i, e in enumerate(rf.events):
            if e.id not in self.used["events"]:
                self.fail("C315", f"event '{e.id}' is defined but no trigger point or action uses it", ("events", i, "id"))
        for i, p in enumerate(rf.plays):
            if p.id not in self.used["plays"]:
                self.fail("C315", f"play kind '{p.id}' is defined but no priority window allows it", ("plays", i, "id"))


def check_file(rf: s.RuleFile, doc) -> list[Diagnostic]:
    return FileChecks(rf, doc).run()


# --- graph checks -----------------------------------------------------------------------------
def _reach(start, succ) -> set:
    seen = {start}
    todo = deque([start])
    while todo:
        n = todo.popleft()
        for d in succ(n):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def check_graph(game: m.Game, doc) -> list[Diagnostic]:
    diags: list[Diagnostic] = []

    def fail(code, message, node_id, help=None):
        n = game.nodes[node_id]
        length = 1
        diags.append(Diagnostic(code, message, n.loc.file, n.loc.line, n.loc.col, length, help))

    out = game.out_edges
    # procedures: which can return, the call graph, recursion
    calls: dict[str, set] = {p.id: set() for p in game.procedures}
    for n in game.nodes.values():
        if n.callee and n.procedure:
            calls[n.procedure].add(n.callee)
    for p in sorted(calls):
        if p in _reach_calls(p, calls, skip_self=True):
            n = game.containers[p]
            diags.append(Diagnostic("C317", f"procedure '{p}' calls itself (directly or through others)",
                                    n.loc.file, n.loc.line, n.loc.col))
    if any(d.code == "C317" for d in diags):
        return diags

    def local(nid):
        """Successors inside one procedure or the turn: a call goes on to its continuation."""
        for e in out.get(nid, ()):
            if e.kind == "call":
                continue
            if e.kind == "return":
                continue
            if e.kind == "turn":
                continue
            yield e.dst
        node = game.nodes[nid]
        if node.callee:
            for e in out.get(f"{node.callee}.end", ()):
                if e.kind == "return" and e.via == nid:
                    yield e.dst

    def everywhere(nid):
        for e in out.get(nid, ()):
            if e.kind != "return":
                yield e.dst
        node = game.nodes[nid]
        if node.callee:
            for e in out.get(f"{node.callee}.end", ()):
                if e.kind == "return" and e.via == nid:
                    yield e.dst

    reached = _reach("turn.begin", everywhere)
    called = {game.nodes[n].callee for n in reached if game.nodes[n].callee}
    for proc in game.procedures:
        if proc.id not in called:
            diags.append(Diagnostic("C315", f"procedure '{proc.id}' is never called", proc.loc.file, proc.loc.line, proc.loc.col))
            reached |= _reach(proc.begin, everywhere)
    for nid, node in game.nodes.items():
        if nid not in reached and node.kind not in ("begin", "end"):
            fail("C305", f"node '{nid}' can never be reached", nid,
                 help="an earlier goto/exit/end_game always leaves before it, or its branch can never be taken")
    # no way out: from every reached node the end of its container must stay reachable
    scopes = [("turn", "turn.begin", "turn.end")] + [(p.id, p.begin, p.end) for p in game.procedures]
    for cid, begin, end in scopes:
        members = _reach(begin, local)
        rev: dict[str, list] = {}
        for a in members:
            for b in local(a):
                rev.setdefault(b, []).append(a)
        ends = {end} | {x for x in members if game.nodes[x].kind == "end_game"}
        good: set = set()
        todo = deque(ends)
        good |= ends
        while todo:
            x = todo.popleft()
            for y in rev.get(x, ()):
                if y not in good:
                    good.add(y)
                    todo.append(y)
        trapped = [x for x in members if x not in good]
        never_returns = {p.id for p in game.procedures if p.end not in _reach(p.begin, local)}
        if trapped and not any(game.nodes[x].callee in never_returns for x in trapped):
            order = {nid: i for i, nid in enumerate(game.nodes)}
            where = "the turn" if cid == "turn" else f"procedure '{cid}'"
            for sink in _sinks(trapped, local, order):
                cycle = _find_cycle(sink[0], local, set(sink))
                shown = " -> ".join(cycle)
                shown = f"cycle: {shown}" if len(cycle) > 1 and cycle[0] == cycle[-1] else f"dead end at {shown}"
                back = next((x for x in cycle if any(e.kind in ("back", "jump") for e in out.get(x, ()))), cycle[0])
                fail("C306", f"no way out: once here, the end of {where} is never reached ({shown})", back,
                     help="give the loop an exit: a branch whose other case continues, or a condition that can become false")
    return diags


def _sinks(trapped, succ, order):
    """The places where the trapped nodes end up: strongly connected groups with no way further
    (everything upstream of them is trapped only because it flows into them)."""
    within = set(trapped)
    reach = {x: _reach(x, lambda n: (d for d in succ(n) if d in within)) for x in trapped}
    sinks, seen = [], set()
    for x in sorted(trapped, key=order.__getitem__):
        if x in seen:
            continue
        if all(x in reach[y] for y in reach[x]):
            group = sorted(reach[x], key=order.__getitem__)
            seen |= set(group)
            sinks.append(group)
    return sinks


def _reach_calls(p, calls, skip_self):
    seen: set = set()
    todo = list(calls.get(p, ()))
    while todo:
        q = todo.pop()
        if q not in seen:
            seen.add(q)
            todo.extend(calls.get(q, ()))
    return seen


def _find_cycle(start, succ, within):
    """A cycle inside ``within`` reachable from ``start``, as a list of ids (first repeated at the end)."""
    path, index = [], {}
    node = start
    while node not in index:
        index[node] = len(path)
        path.append(node)
        nxt = next((d for d in succ(node) if d in within), None)
        if nxt is None:
            return path
        node = nxt
    return path[index[node]:] + [node]

"""The compiler: a schema-valid rule file -> the immutable model graph (``model.Game``).

It assigns every node its stable id, lowers structured nodes (options, branches, loops, for-each,
calls, gotos) into explicit edges, resolves the references that need the id table (goto
targets, ``chose`` nodes), and records where each node stands (the body holding it, the loops
around it, what an exit leaves; see ``model.Node``). Conditions and actions arrive parsed
(``terms``); the rule file's registries become model values in ``values``. It never raises on a file that passed the schema: what it cannot
resolve becomes a diagnostic (via ``fail``), and the caller discards the model when any error
was found anywhere in the pipeline.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..core import model as m
from . import schema as s
from ..core.diagnostics import Diagnostic, did_you_mean
from ..core.words import word
from .terms import lower_action, lower_condition
from .values import cites_of, readings_of, registries, text

RESERVED = ("begin", "end")


class _NoScopes:
    scopes: tuple = ()


NO_SCOPES = _NoScopes()  # resolving a reference outside any node list (a phase's or step's skip_if)


@dataclass
class _Rec:
    """A node while the graph is being built."""

    id: str
    spec: object  # the schema node
    path: tuple
    ctx: "_Ctx"
    scopes: tuple[str, ...]  # sequence prefixes, innermost first, for relative references
    subs: list = field(default_factory=list)  # [(choice spec, [ids], prefix)]
    else_ids: list | None = None
    body_ids: list | None = None  # a loop or foreach: its body
    entries: list = field(default_factory=list)  # where each option/case leads
    cont: str | None = None  # where control goes after the node's bodies
    leaves: str | None = None  # exit: the loop node or container it leaves


@dataclass(frozen=True)
class _Ctx:
    container: str
    phase: str | None
    step: str | None
    procedure: str | None
    cites: tuple
    loops: tuple = ()  # enclosing loop/foreach node ids, innermost last
    parent: str | None = None  # the player/branch/loop/foreach node whose body this sequence is
    body: str = ""  # which of its bodies: an option or case id, 'else', '' (a loop body)


class Compiler:
    def __init__(self, rf: s.RuleFile, doc):
        self.rf = rf
        self.doc = doc
        self.diags: list[Diagnostic] = []
        self.recs: dict[str, _Rec] = {}
        self.order: list[str] = []
        self.nodes: dict[str, m.Node] = {}
        self.edges: list[m.Edge] = []
        self.containers: dict[str, m.Container] = {}
        self.container_nodes: dict[str, list[str]] = {}
        self.skips: dict[str, tuple] = {}  # container -> (its skip_if term, path)
        self.proc_ids = {p.id for p in rf.procedures}

    # --- errors ---------------------------------------------------------------------------
    def fail(self, code: str, message: str, path: tuple, *, key: bool = False, help: str | None = None) -> None:
        self.diags.append(self.doc.diag(code, message, path, key=key, help=help))

    def loc(self, path: tuple) -> m.Loc:
        sp = self.doc.span(path)
        return m.Loc(self.doc.file, sp.line, sp.col)

    # --- containers -----------------------------------------------------------------------
    def _container(self, cid, kind, spec, path, ctx, parent, children=(), params=()):
        label = text(spec.label) if spec.label is not None else m.Text(cid, cid)
        cites = ctx.cites
        begin, end = f"{cid}.begin", f"{cid}.end"
        if getattr(spec, "skip_if", None) is not None:
            self.skips[cid] = (spec.skip_if, path + ("skip_if",))  # lowered once every node is known
        self.containers[cid] = m.Container(cid, kind, label, cites, self.loc(path), begin, end, parent,
                                           tuple(children), (), text(spec.note), tuple(params),
                                           readings_of(getattr(spec, "readings", ())))
        self.container_nodes.setdefault(cid, [])
        for nid, word_ja, word_en, k in ((begin, "開始", "start", "begin"), (end, "終了", "end", "end")):
            lbl = m.Text(f"{label.ja}{word_ja}", f"{label.en}: {word_en}")
            self._synthetic(nid, k, lbl, cites, path, ctx)
        return begin, end

    def _synthetic(self, nid, kind, label, cites, path, ctx):
        node = m.Node(nid, kind, label, cites, self.loc(path), ctx.container, ctx.phase, ctx.step, ctx.procedure)
        self.nodes[nid] = node
        self.order.append(nid)
        self._register(nid, ctx)

    def _register(self, nid, ctx):
        for cid in {ctx.container, ctx.step, ctx.phase, ctx.procedure, "turn" if ctx.procedure is None else None} - {None}:
            self.container_nodes.setdefault(cid, []).append(nid)

    def edge(self, src, dst, kind, label=None, via=None):
        if src and dst:
            self.edges.append(m.Edge(src, dst, kind, label, via))

    # --- the walk -------------------------------------------------------------------------
    def build(self) -> m.Game | None:
        rf = self.rf
        turn_ctx = _Ctx("turn", None, None, None, cites_of(rf.turn.cite, ()))
        phase_ids = [p.id for p in rf.turn.phases]
        t_begin, t_end = self._container("turn", "turn", rf.turn, ("turn",), turn_ctx, None, phase_ids)
        # procedures first in id order of definition: their begin nodes exist before calls are wired
        proc_seqs = []
        for i, proc in enumerate(rf.procedures):
            path = ("procedures", i)
            ctx = _Ctx(proc.id, None, None, proc.id, cites_of(proc.cite, ()))
            self._container(proc.id, "procedure", proc, path, ctx, None, params=proc.params)
            ids = self._seq(proc.nodes, proc.id, path + ("nodes",), ctx, (proc.id,))
            proc_seqs.append((proc.id, ids))
        # the turn
        phase_entries = []
        phase_seqs = []
        for i, ph in enumerate(rf.turn.phases):
            path = ("turn", "phases", i)
            pctx = _Ctx(ph.id, ph.id, None, None, cites_of(ph.cite, turn_ctx.cites))
            steps = [st.id for st in ph.steps or []]
            pb, pe = self._container(ph.id, "phase", ph, path, pctx, "turn",
                                     [f"{ph.id}.{sid}" for sid in steps])
            phase_entries.append((pb, pe))
            inner = []
            if ph.nodes:
                ids = self._seq(ph.nodes, ph.id, path + ("nodes",), pctx, (ph.id,))
                inner.append((pb, ids, pe))
            for j, st in enumerate(ph.steps or []):
                sid = f"{ph.id}.{st.id}"
                spath = path + ("steps", j)
                sctx = _Ctx(sid, ph.id, sid, None, cites_of(st.cite, pctx.cites))
                sb, se = self._container(sid, "step", st, spath, sctx, ph.id)
                ids = self._seq(st.nodes, sid, spath + ("nodes",), sctx, (sid, ph.id))
                inner.append((sb, ids, se))
            phase_seqs.append((pb, pe, inner))
        # wiring
        for pid, ids in proc_seqs:
            self._enter(f"{pid}.begin", ids, f"{pid}.end")
        prev = t_begin
        for pb, pe, inner in phase_seqs:
            self.edge(prev, pb, "next")
            cursor = pb
            for b, ids, e in inner:
                if b != pb:
                    self.edge(cursor, b, "next")
                self._enter(b, ids, e)
                cursor = e
            if cursor != pe:
                self.edge(cursor, pe, "next")
            prev = pe
        self.edge(prev, t_end, "next")
        if rf.turn.roles_swap:
            self.edge(t_end, t_begin, "turn", m.Text("次のターン（ターンプレイヤー交代）", "next turn (the other player's)"))
        else:
            self.edge(t_end, t_begin, "turn", m.Text("次のターン", "next turn"))
        return self._finish()

    def _enter(self, begin, ids, end):
        if ids:
            self.edge(begin, ids[0], "next")
            self._wire(ids, end)
        else:
            self.edge(begin, end, "next")

    def _seq(self, items, prefix, path, ctx, scopes) -> list[str]:
        ids: list[str] = []
        for i, item in enumerate(items):
            local = item.id if item.id is not None else str(i + 1)
            ipath = path + (i,)
            if local in RESERVED:
                self.fail("C312", f"'{local}' is reserved for the synthetic start/end nodes", ipath + ("id",))
                local = f"{local}_"
            nid = f"{prefix}.{local}"
            if nid in self.recs or nid in self.nodes:
                self.fail("C301", f"duplicate node id '{nid}'", ipath + (("id",) if item.id else ()),
                          help="give the node an explicit, unique 'id'")
                continue
            nctx = replace(ctx, cites=cites_of(item.cite, ctx.cites))
            rec = _Rec(nid, item, ipath, nctx, (prefix,) + tuple(sc for sc in scopes if sc != prefix))
            self.recs[nid] = rec
            self.order.append(nid)
            self._register(nid, nctx)
            if isinstance(item, s.Player) and item.options:
                seen = set()
                for j, opt in enumerate(item.options):
                    opath = ipath + ("options", j)
                    if opt.id in seen:
                        self.fail("C301", f"duplicate option id '{opt.id}'", opath + ("id",))
                    seen.add(opt.id)
                    octx = replace(nctx, cites=cites_of(opt.cite, nctx.cites), parent=nid, body=opt.id)
                    sub = self._seq(opt.then, f"{nid}.{opt.id}", opath + ("then",), octx, (f"{nid}.{opt.id}",) + rec.scopes)
                    rec.subs.append((opt, sub, opath))
            elif isinstance(item, s.Branch):
                seen = set()
                for j, case in enumerate(item.cases):
                    cpath = ipath + ("cases", j)
                    cid = case.id or str(j + 1)
                    if cid in seen or cid in RESERVED:
                        self.fail("C301", f"duplicate case id '{cid}'", cpath)
                    seen.add(cid)
                    cctx = replace(nctx, cites=cites_of(case.cite, nctx.cites), parent=nid, body=cid)
                    sub = self._seq(case.then, f"{nid}.{cid}", cpath + ("then",), cctx, (f"{nid}.{cid}",) + rec.scopes)
                    rec.subs.append((case, sub, cpath))
                if item.else_ is not None:
                    ectx = replace(nctx, parent=nid, body="else")
                    rec.else_ids = self._seq(item.else_, f"{nid}.else", ipath + ("else",), ectx, (f"{nid}.else",) + rec.scopes)
            elif isinstance(item, (s.Loop, s.ForEach)):
                lctx = replace(nctx, loops=nctx.loops + (nid,), parent=nid, body="")
                rec.body_ids = self._seq(item.body, nid, ipath + ("body",), lctx, (nid,) + rec.scopes)
                if not item.body:
                    self.fail("C314", f"the {item.kind} '{nid}' has an empty body", ipath + ("body",))
            ids.append(nid)
        return ids

    def _wire(self, ids, cont, cont_kind="next", loop_exits=None):
        loop_exits = dict(loop_exits or {})
        for i, nid in enumerate(ids):
            last = i + 1 == len(ids)
            nxt = cont if last else ids[i + 1]
            nxt_kind = cont_kind if last else "next"
            rec = self.recs[nid]
            rec.cont = nxt
            spec = rec.spec
            kind = spec.kind
            if kind in ("auto", "closed", "trigger", "window") or (kind == "player" and not spec.options):
                self.edge(nid, nxt, nxt_kind)
            elif kind == "player":
                for opt, sub, _ in rec.subs:
                    rec.entries.append(sub[0] if sub else nxt)
                    self.edge(nid, rec.entries[-1], "option", text(opt.label) or m.Text(opt.id, opt.id))
                    if sub:
                        self._wire(sub, nxt, nxt_kind, loop_exits)
            elif kind == "branch":
                for case, sub, _ in rec.subs:
                    rec.entries.append(sub[0] if sub else nxt)
                    self.edge(nid, rec.entries[-1], "case", text(case.label))
                    if sub:
                        self._wire(sub, nxt, nxt_kind, loop_exits)
                if rec.else_ids:
                    self.edge(nid, rec.else_ids[0], "else")
                    self._wire(rec.else_ids, nxt, nxt_kind, loop_exits)
                else:
                    self.edge(nid, nxt, "else")
            elif kind in ("loop", "foreach"):
                if rec.body_ids:
                    self.edge(nid, rec.body_ids[0], "loop")
                    self._wire(rec.body_ids, nid, "back", {**loop_exits, nid: (nxt, nxt_kind)})
                self.edge(nid, nxt, "exit")
            elif kind in ("check", "call"):
                callee = self._callee(rec)
                if callee:
                    self.edge(nid, f"{callee}.begin", "call")
                    self.edge(f"{callee}.end", nxt, "return", via=nid)
                else:
                    self.edge(nid, nxt, nxt_kind)
            elif kind == "goto":
                target = self.resolve(spec.target, rec, rec.path + ("target",), what="goto target", containers=True)
                if target:
                    back = self.order.index(target) <= self.order.index(nid) if target in self.order else False
                    self.edge(nid, target, "back" if back else "jump")
            elif kind == "exit":
                target = self._exit_target(rec, loop_exits)
                if target:
                    self.edge(nid, target, "exit")

    def _callee(self, rec) -> str | None:
        spec = rec.spec
        if spec.kind == "check":
            proc = spec.procedure or self.rf.check_timing
            if proc is None:
                self.fail("C316", "a check timing, but the game defines no check timing procedure", rec.path + ("kind",),
                          help="add 'check_timing: <procedure id>' at the top level")
                return None
            path = rec.path + ("procedure",) if spec.procedure else ("check_timing",)
        else:
            proc = spec.procedure
            path = rec.path + ("procedure",)
        if proc not in self.proc_ids:
            if spec.kind == "check" and not spec.procedure:
                return None  # reported once for the top-level check_timing by checks
            self.fail("C302", f"unknown procedure '{proc}'", path, help=did_you_mean(proc, self.proc_ids))
            return None
        return proc

    def _exit_target(self, rec, loop_exits):
        which = rec.spec.from_
        ctx = rec.ctx
        if which == "loop":
            if not ctx.loops:
                self.fail("C307", "'exit: loop' outside any loop", rec.path + ("from",))
                return None
            rec.leaves = ctx.loops[-1]
            return loop_exits.get(ctx.loops[-1], (None,))[0]
        cid = {"step": ctx.step, "phase": ctx.phase, "procedure": ctx.procedure, "turn": "turn" if ctx.procedure is None else None}[which]
        if cid is None:
            self.fail("C307", f"'exit: {which}' where there is no enclosing {which}", rec.path + ("from",))
            return None
        rec.leaves = cid
        return f"{cid}.end"

    def resolve(self, ref, rec, path, *, what, containers):
        """Resolve a node reference: relative to the enclosing sequences first, then absolute."""
        if not isinstance(ref, str):
            return None
        # the container's own list first (the sources number their items there: "back to 2."),
        # then nested lists from the outside in; a full id is always exact
        for scope in reversed(rec.scopes):
            cand = f"{scope}.{ref}"
            if cand in self.recs:
                return cand
        if ref in self.recs or ref in self.nodes:
            return ref
        if containers and ref in self.containers:
            return self.containers[ref].begin
        pool = list(self.recs) + (list(self.containers) if containers else [])
        short = [r.rsplit(".", 1)[-1] for r in pool if r.startswith(rec.scopes[0] + ".")] if rec.scopes else []
        self.fail("C307" if what == "goto target" else "C302", f"unknown {what} '{ref}'", path,
                  help=did_you_mean(ref, short + pool))
        return None

    def _node_ref(self, rec, path):
        """Resolves the 'node' arguments of a condition (``chose``) at ``path`` like goto targets."""
        return lambda value, at: self.resolve(value, rec, path + at, what="node", containers=False)

    # --- freezing -------------------------------------------------------------------------
    def _label(self, rec) -> m.Text:
        spec = rec.spec
        if spec.label is not None:
            return text(spec.label)
        if spec.kind in ("check", "call"):
            proc = spec.procedure or (self.rf.check_timing if spec.kind == "check" else None)
            c = self.containers.get(proc or "")
            if c is not None:
                return c.label
        if spec.kind == "trigger":
            ev = next((e for e in self.rf.events if e.id == spec.event), None)
            if ev is not None:
                return m.Text(f"{ev.name.ja or ''}の自動能力が待機状態になる",
                              f"auto abilities for '{ev.name.en or ''}' become pending")
        if spec.kind == "goto":
            target = next((e.dst for e in self.edges if e.src == rec.id and e.kind in ("back", "jump")), None)
            tl = self._target_label(target)
            return m.Text(f"「{tl.ja}」へ", f"go to: {tl.en}")
        if spec.kind == "exit":
            return m.Text(word(f"leave.{spec.from_}", "ja"), word(f"leave.{spec.from_}", "en"))
        return m.Text("", "")

    def _target_label(self, target) -> m.Text:
        if target is None:
            return m.Text("?", "?")
        if target in self.nodes:  # a synthetic begin/end node
            return self.nodes[target].label
        rec = self.recs[target]
        if rec.spec.label is not None:
            return text(rec.spec.label)
        return m.Text(target, target)

    def _finish(self) -> m.Game | None:
        for nid, rec in self.recs.items():
            spec, ctx = rec.spec, rec.ctx
            kw: dict = {}
            k = spec.kind
            if k == "player":
                kw.update(actor=spec.actor, may=spec.may, action=_action(spec.do))
                kw["choices"] = tuple(
                    m.Choice(opt.id, text(opt.label),
                             lower_condition(opt.when, self._node_ref(rec, p + ("when",))) if opt.when is not None else None,
                             entry, text(opt.note), opt.play)
                    for (opt, sub, p), entry in zip(rec.subs, rec.entries))
            elif k in ("auto", "closed"):
                if isinstance(spec.do, tuple):  # several actions at once: the first, and the others
                    kw["action"], kw["also"] = lower_action(spec.do[0]), tuple(lower_action(a) for a in spec.do[1:])
                else:
                    kw["action"] = _action(spec.do)
            elif k == "branch":
                kw["choices"] = tuple(
                    m.Choice(case.id or str(j + 1), text(case.label), lower_condition(case.when, self._node_ref(rec, p + ("when",))),
                             entry, text(case.note))
                    for j, ((case, sub, p), entry) in enumerate(zip(rec.subs, rec.entries)))
                kw["otherwise"] = next((e.dst for e in self.edges if e.src == nid and e.kind == "else"), None)
            elif k == "loop":
                kw["condition"] = lower_condition(spec.while_, self._node_ref(rec, rec.path + ("while",)))
            elif k == "foreach":
                kw.update(over=spec.over, var=spec.as_)
            elif k == "window":
                who = tuple(spec.who) if spec.who else tuple(r.id for r in self.rf.roles if r.seat in ("turn", "non_turn"))
                kw["window"] = m.WindowSpec(spec.first, who, tuple(spec.plays), spec.close or "", spec.passes or 2,
                                            spec.after_play, spec.resolve, spec.after_resolve, text(spec.pass_note),
                                            None if spec.before_priority is None else
                                            tuple(lower_action(a) for a in spec.before_priority))
            elif k == "trigger":
                kw["event"] = spec.event
            elif k in ("check", "call"):
                kw["callee"] = spec.procedure or (self.rf.check_timing if k == "check" else None)
                if k == "call" and spec.with_:
                    kw["call_args"] = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in spec.with_.items()))
            elif k in ("goto", "exit"):
                kw["target"] = next((e.dst for e in self.edges if e.src == nid and e.kind in ("back", "jump", "exit")), None)
                kw["leaves"] = rec.leaves
            elif k == "end_game":
                kw.update(result=spec.result, player=spec.player)
            if k in ("branch", "player", "loop", "foreach", "call", "check"):
                kw["cont"] = rec.cont
            self.nodes[nid] = m.Node(nid, k, self._label(rec), ctx.cites, self.loc(rec.path), ctx.container, ctx.phase,
                                     ctx.step, ctx.procedure, text(spec.note), parent=ctx.parent, body=ctx.body,
                                     loops=ctx.loops, readings=readings_of(spec.readings), **kw)
        order = {nid: i for i, nid in enumerate(self.order)}
        nodes = {nid: self.nodes[nid] for nid in self.order}
        out: dict[str, list] = {}
        inn: dict[str, list] = {}
        for e in self.edges:
            out.setdefault(e.src, []).append(e)
            inn.setdefault(e.dst, []).append(e)
        containers = {}
        for cid, c in self.containers.items():
            ids = sorted(set(self.container_nodes.get(cid, [])), key=order.__getitem__)
            skip = self.skips.get(cid)
            if skip is not None:  # a 'node' argument is a full id (no enclosing list to look in first)
                term, path = skip
                skip = lower_condition(term, lambda value, at, path=path: self.resolve(
                    value, NO_SCOPES, path + at, what="node", containers=False))
            containers[cid] = m.Container(c.id, c.kind, c.label, c.cites, c.loc, c.begin, c.end, c.parent, c.children,
                                          tuple(ids), c.note, c.params, c.readings, skip)
        return m.Game(
            **registries(self.rf), file=self.doc.file,
            containers=m.freeze_map(containers),
            nodes=m.freeze_map(nodes),
            edges=tuple(self.edges),
            out_edges=m.freeze_map({k: tuple(v) for k, v in out.items()}),
            in_edges=m.freeze_map({k: tuple(v) for k, v in inn.items()}),
        )


def build(rf: s.RuleFile, doc) -> tuple[m.Game | None, list[Diagnostic]]:
    c = Compiler(rf, doc)
    game = c.build()
    return game, c.diags


def _action(term) -> m.Action | None:
    return lower_action(term) if term is not None else None

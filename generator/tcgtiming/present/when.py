"""May I play now? Every timing of a turn where a kind of play is allowed, and every closed timing,
in time order: the Gundam War timing chart generalised to every game and every kind of play. Read
from the compiled model only (no simulation).

A *timing* is a node where the model says whether anyone may play:

  window  a priority window: its ``plays`` may be played by its ``who``, ``first`` having priority
          first; it closes as its ``close`` says
  action  a player action one of whose options plays a kind (the option's ``play``, or the
          vocabulary's ``play`` action as the first thing the option does); only its actor plays,
          and the timing ends with that choice (Weiß Schwarz: the main phase's choice of a play,
          the counter step's choice of a counter)
  closed  a closed timing: no one may play (the grey rows of the Gundam War chart)
  check   a check timing whose procedure holds no timing: rule processing and pending abilities,
          no one plays
  moment  any other item of a phase or step (not inside an option, case or loop): a trigger point,
          something the rules do, a decision of the rules, an action that plays nothing; no one
          plays (the Gundam War chart's phase-start and rule-effect rows)

A call (or a check timing) whose procedure holds timings is expanded in place, each row naming the
call (``via``); a procedure's own moments are not rows.

A kind's ``by`` and ``when`` (``present.when_kinds``) are honoured where the model decides them: a
kind whose condition cannot hold at a timing (sorcery speed in the upkeep) is not among its kinds,
and one only some players may play there is theirs. A filter (kinds of play, the player's seat, a
phase or step) gives each row a status: ``open`` (the filter's player may play a kind of the filter
here), ``depends`` (only if a condition holds that depends on the state of the game, such as an
empty stack), ``closed``, ``other_kind`` (only other kinds may be played here) or ``other_player``
(only the other seat plays here).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.diagnostics import did_you_mean, one_of
from ..core.model import Game, Node, Text
from ..core.words import word
from .when_kinds import SEATS, kind_at, seat_roles

MOMENTS = ("trigger", "auto", "branch", "player")  # the rows of a phase or step where no one plays
STATUSES = ("open", "depends", "closed", "other_kind", "other_player")


class WhenError(ValueError):
    """A filter names no kind of play, seat or phase of the game (the message says which, with a hint)."""


@dataclass(frozen=True)
class Kind:
    id: str
    name: Text
    registered: bool  # declared under the game's 'plays' (else: a name of a 'play' action)


@dataclass(frozen=True)
class Timing:
    node: str
    type: str  # window | action | closed | check
    label: Text
    phase: str | None
    step: str | None
    plays: tuple[str, ...] = ()  # kinds of play allowed here (empty for closed and check)
    who: tuple[str, ...] = ()  # roles who may play here
    first: str | None = None  # the role with priority first (window) or the actor (action)
    close: str | None = None  # window: its close rule; action: 'choice'
    passes: int = 0
    via: str | None = None  # the call or check node whose procedure holds it
    context: Text | None = None  # the option or case whose body holds it (its label)
    style: str = ""  # moment: the charts' style key of the node (what kind of item it is)

    @property
    def can_play(self) -> bool:
        return self.type in ("window", "action")


@dataclass(frozen=True)
class Row:
    n: int
    timing: Timing
    status: str  # one of STATUSES


@dataclass(frozen=True)
class Filter:
    plays: tuple[str, ...] = ()  # () = every kind
    seat: str | None = None
    phase: str | None = None


def _play_action(node: Node | None) -> str | None:
    if node is not None and node.action is not None and node.action.name == "play":
        kind = node.action.arg("kind")
        return str(kind) if kind is not None else None
    return None


def action_plays(game: Game, node: Node) -> tuple[str, ...]:
    """The kinds a player action plays: its options' ``play``, or a ``play`` action first in an option;
    its own ``play`` action unless it is the first thing of another player action's option."""
    out: list[str] = []
    for c in node.choices:
        kind = c.play or _play_action(game.nodes.get(c.entry))
        if kind and kind not in out:
            out.append(kind)
    own = _play_action(node)
    parent = game.nodes.get(node.parent) if node.parent else None
    nested = parent is not None and parent.kind == "player" and any(c.entry == node.id for c in parent.choices)
    if own and not nested and own not in out:
        out.append(own)
    return tuple(out)


def kinds(game: Game) -> list[Kind]:
    """Every kind of play of the game: the declared ones, then the names 'play' actions use."""
    out = {k.id: Kind(k.id, k.name, True) for k in game.plays.values()}
    for node in game.nodes.values():
        if node.kind != "player":
            continue
        for c in node.choices:
            kind = c.play or _play_action(game.nodes.get(c.entry))
            if kind and kind not in out:
                out[kind] = Kind(kind, c.label or Text(kind, kind), False)
        own = _play_action(node)
        if own and own not in out:
            out[own] = Kind(own, node.label, False)
    return list(out.values())


def _context(game: Game, node: Node) -> Text | None:
    """The label of the player's option whose body holds the node (None elsewhere: a case's label, such
    as "yes", says little without its question)."""
    parent, body = game.enclosing(node)
    if parent is None or parent.kind != "player":
        return None
    return next((c.label for c in parent.choices if c.id == body), None)


def _timing(game: Game, node: Node, via: str | None) -> Timing | None:
    base = dict(node=node.id, label=node.label, phase=node.phase, step=node.step, via=via,
                context=_context(game, node))
    if node.kind == "window" and node.window is not None:
        w = node.window
        plays = w.plays or tuple(k.id for k in kinds(game))
        return Timing(type="window", plays=tuple(plays), who=w.who, first=w.first, close=w.close, passes=w.passes, **base)
    if node.kind == "player":
        plays = action_plays(game, node)
        if plays:
            return Timing(type="action", plays=plays, who=(node.actor or "any",), first=node.actor, close="choice", **base)
        return None
    if node.kind == "closed":
        return Timing(type="closed", **base)
    return None


def timings(game: Game) -> list[Timing]:
    """Every timing of the turn in time order (procedures expanded at each call that holds timings)."""
    inside: dict[str, list[Timing]] = {}

    def of_procedure(pid: str, stack: tuple[str, ...]) -> list[Timing]:
        if pid in stack or pid not in game.containers:
            return []
        return walk(game.time_order(pid), stack + (pid,))

    def walk(ids: list[str], stack: tuple[str, ...], via: str | None = None) -> list[Timing]:
        out: list[Timing] = []
        for nid in ids:
            node = game.nodes[nid]
            if node.kind in ("check", "call") and node.callee:
                key = node.callee
                if key not in inside:
                    inside[key] = of_procedure(key, stack)
                held = inside[key]
                if held:
                    out += [replace(t, via=nid, phase=node.phase, step=node.step) for t in held]
                elif node.kind == "check":
                    out.append(Timing(node=nid, type="check", label=game.containers[key].label if key in game.containers
                                      else node.label, phase=node.phase, step=node.step, via=via,
                                      context=_context(game, node)))
                continue
            t = _timing(game, node, via)
            if t is None and not stack and node.parent is None and node.kind in MOMENTS:
                from .charts import style_key

                t = Timing(node=nid, type="moment", label=node.label, phase=node.phase, step=node.step,
                           style=style_key(game, node))
            if t is not None:
                out.append(t)
        return out

    return [_possible(game, t) for t in walk(game.time_order("turn"), ())]


def who_seats(game: Game, t: Timing) -> list[str]:
    """The seats whose player may act at the timing (its ``who``)."""
    return [s for s in SEATS if seat_roles(game, s) & set(t.who)]


def allowed(game: Game, t: Timing, kind: str, seat: str):
    """May a player of the seat play the kind at the timing? True, False, or the condition still to hold."""
    return kind_at(game, kind, seat, t.phase, t.step, window=t.type == "window")


def _possible(game: Game, t: Timing) -> Timing:
    """The timing with only the kinds some player who acts there may play (a kind's ``by`` and ``when``
    as far as the model decides them: sorcery speed is no kind of the upkeep's window)."""
    if not t.can_play:
        return t
    seats = who_seats(game, t)
    return replace(t, plays=tuple(k for k in t.plays if any(allowed(game, t, k, s) is not False for s in seats)))


def status(game: Game, t: Timing, f: Filter) -> str:
    if not t.can_play or not t.plays:
        return "closed"
    plays = [k for k in t.plays if not f.plays or k in f.plays]
    if not plays:
        return "other_kind"
    seats = who_seats(game, t)
    if f.seat:
        if f.seat not in seats:
            return "other_player"
        seats = [f.seat]
    found = [allowed(game, t, k, s) for k in plays for s in seats]
    if any(v is True for v in found):
        return "open"
    if any(not isinstance(v, bool) for v in found):
        return "depends"
    return "other_player"  # a seat was given: these kinds are the other player's here


def limits(game: Game, t: Timing, f: Filter) -> list[tuple[str, tuple[str, ...], object]]:
    """What limits each kind of the timing (of the filter's kinds) for the filter's player (either player
    without one): (kind, the seats that may play it when not all who act may, the condition still to hold
    or None). Kinds nothing limits are left out."""
    seats = who_seats(game, t)
    mine = [f.seat] if f.seat in seats else ([] if f.seat else seats)
    out = []
    for k in t.plays:
        if f.plays and k not in f.plays:
            continue
        found = {s: allowed(game, t, k, s) for s in mine}
        only = tuple(s for s in mine if found[s] is not False)
        conds = [v for v in found.values() if not isinstance(v, bool)]
        if (not f.seat and len(only) < len(seats)) or conds:
            out.append((k, only if not f.seat and len(only) < len(seats) else (), conds[0] if conds else None))
    return out


def limit_texts(game: Game, t: Timing, f: Filter, lang: str) -> list[str]:
    """The limits of the timing's kinds in words: "sorcery speed: only if nothing waits to resolve"."""
    out = []
    for k, only, cond in limits(game, t, f):
        name = kind_name(game, k, lang)
        roles = [r for r in t.who if r in game.roles and game.roles[r].get("seat") in only] or list(only)
        who = ("、" if lang == "ja" else ", ").join(role_name(game, r, lang) for r in roles)
        if only and cond is not None:
            out.append(wd("kind_only_if", lang, name, who, limit_cond(game, cond, lang)))
        elif only:
            out.append(wd("kind_only", lang, name, who))
        else:
            out.append(wd("kind_if", lang, name, limit_cond(game, cond, lang)))
    return out


def containers_of(game: Game) -> list[str]:
    """The phase and step ids a filter may name, in time order."""
    return [c for ph in game.phases for c in (ph.id, *ph.children)]


def check_filter(game: Game, f: Filter) -> None:
    known = [k.id for k in kinds(game)]
    for p in f.plays:
        if p not in known:
            hint = did_you_mean(p, known) or (one_of(known) if known else "the game has no kind of play")
            raise WhenError(f"no kind of play '{p}' in {game.id}: {hint}")
    if f.seat is not None and f.seat not in SEATS:
        raise WhenError(f"no player '{f.seat}': {one_of(SEATS)}")
    if f.phase is not None and f.phase not in containers_of(game):
        cands = containers_of(game)
        raise WhenError(f"no phase or step '{f.phase}' in {game.id}: {did_you_mean(f.phase, cands) or one_of(cands)}")


def rows(game: Game, f: Filter = Filter()) -> list[Row]:
    """The rows of the lookup: every timing (of the filter's phase or step) with its status."""
    check_filter(game, f)
    out = []
    for t in timings(game):
        if f.phase is not None and f.phase not in (t.phase, t.step):
            continue
        out.append(Row(len(out) + 1, t, status(game, t, f)))
    return out


# --- words ----------------------------------------------------------------------------------------


def wd(key: str, lang: str, *args) -> str:
    return word(f"when.{key}", lang, *args)


def role_name(game: Game, role: str | None, lang: str) -> str:
    from .charts import short_role

    return short_role(game, role, lang)


def kind_name(game: Game, kid: str, lang: str) -> str:
    k = next((k for k in kinds(game) if k.id == kid), None)
    return k.name.get(lang) if k is not None else kid


def section(game: Game, t: Timing, lang: str) -> str:
    parts = [game.containers[c].label.get(lang) for c in (t.phase, t.step) if c and c in game.containers]
    return " / ".join(parts)


def who_text(game: Game, t: Timing, lang: str) -> str:
    """Who may act, in the order priority goes (the first holds it first), as the charts say it."""
    from .charts import ui

    if t.type == "window":
        order = [t.first] + [r for r in t.who if r != t.first]
        if len(order) == 1:
            return ui("only", lang, role_name(game, t.first, lang))
        return ui("priority", lang, " → ".join(role_name(game, r, lang) for r in order))
    if t.type == "action":
        return wd("actor", lang, role_name(game, t.first, lang))
    return ""


def close_text(t: Timing, lang: str) -> str:
    from .charts import ui

    if t.type == "window" and t.close:
        return ui("c." + t.close, lang, t.passes) if t.close in ("consecutive_passes", "all_pass", "first_pass") else t.close
    if t.type == "action":
        return wd("close.choice", lang)
    return ""


def type_text(t: Timing, lang: str) -> str:
    if t.type == "moment" and t.style:
        from .charts import ui

        return wd("t.moment_of", lang, ui("k." + t.style, lang))
    return wd("t." + t.type, lang)


def filter_text(game: Game, f: Filter, lang: str) -> str:
    sep = "、" if lang == "ja" else ", "
    plays = sep.join(kind_name(game, p, lang) for p in f.plays) if f.plays else wd("any_kind", lang)
    seat = wd("player." + f.seat, lang) if f.seat else wd("any_player", lang)
    phase = game.containers[f.phase].label.get(lang) if f.phase else wd("any_phase", lang)
    return wd("filter", lang, " · ".join((plays, seat, phase)))


def limit_cond(game: Game, cond, lang: str) -> str | None:
    """A condition still to hold, in words (None for none)."""
    if cond is None:
        return None
    from .site.phrases import cond_words

    return cond_words(game, cond, lang)


def as_data(game: Game, rs: list[Row], f: Filter, lang: str) -> dict:
    """The lookup as JSON-ready data (ids, and texts in ``lang``)."""
    return {
        "game": game.id,
        "filter": {"plays": list(f.plays), "player": f.seat, "phase": f.phase},
        "kinds": [{"id": k.id, "name": k.name.get(lang), "declared": k.registered} for k in kinds(game)],
        "timings": [{
            "n": r.n, "node": r.timing.node, "type": r.timing.type, "status": r.status,
            "phase": r.timing.phase, "step": r.timing.step, "via": r.timing.via,
            "label": r.timing.label.get(lang),
            "context": r.timing.context.get(lang) if r.timing.context is not None else None,
            "plays": list(r.timing.plays), "who": list(r.timing.who),
            "first": r.timing.first, "close": r.timing.close,
            "passes": r.timing.passes if r.timing.type == "window" else None,
            "limits": [{"play": k, "only": list(only) or None, "if": limit_cond(game, c, lang)}
                       for k, only, c in limits(game, r.timing, f)],
        } for r in rs],
        "open": sum(1 for r in rs if r.status == "open"),
        "not_open": sum(1 for r in rs if r.status != "open"),
    }


def as_text(game: Game, rs: list[Row], f: Filter, lang: str) -> str:
    """The lookup for the terminal: one line per timing, its details indented below it."""
    out = [wd("title", lang, game.name.get(lang)), filter_text(game, f, lang), ""]
    for r in rs:
        t = r.timing
        where = section(game, t, lang)
        ctx = "" if t.context is None else (f"（{t.context.get(lang)}）" if lang == "ja" else f" ({t.context.get(lang)})")
        out.append(f"{r.n:>3}  {wd('status.' + r.status, lang)}  {where} · {t.label.get(lang)}{ctx}  [{t.node}]")
        details = [type_text(t, lang)]
        if t.via:
            details.append(wd("via", lang, t.via))
        if t.plays:
            sep = "、" if lang == "ja" else ", "
            details.append(sep.join(kind_name(game, p, lang) for p in t.plays))
        for bit in (who_text(game, t, lang), close_text(t, lang), *limit_texts(game, t, f, lang)):
            if bit:
                details.append(bit)
        out.append("       " + " · ".join(details))
    n_open = sum(1 for r in rs if r.status == "open")
    out += ["", wd("count", lang, n_open, len(rs) - n_open)]
    return "\n".join(out) + "\n"

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

A filter (kinds of play, the player's seat, a phase or step) gives each row a status: ``open`` (the
filter's player may play a kind of the filter here), ``closed``, ``other_kind`` (only other kinds
may be played here) or ``other_player`` (only the other seat plays here).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.diagnostics import did_you_mean, one_of
from ..core.model import Game, Node, Text
from ..core.words import word

SEATS = ("turn", "non_turn")
MOMENTS = ("trigger", "auto", "branch", "player")  # the rows of a phase or step where no one plays
STATUSES = ("open", "closed", "other_kind", "other_player")


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

    return walk(game.time_order("turn"), ())


def seat_roles(game: Game, seat: str) -> set[str]:
    return {r.id for r in game.roles.values() if r.get("seat") == seat} | {"any", "both"}


def kinds_of_seat(game: Game, t: Timing, seat: str) -> list[str]:
    """The kinds of a timing a player may play there: a kind only some roles may play (its ``by``: a timing
    its text names, seen from the player) is the other player's when the seat holds none of them."""
    roles = seat_roles(game, seat)
    by = {k: (game.plays[k].get("by") if k in game.plays else None) for k in t.plays}
    return [k for k in t.plays if not by[k] or roles & set(by[k])]


def status(game: Game, t: Timing, f: Filter) -> str:
    if not t.can_play:
        return "closed"
    if f.plays and not set(f.plays) & set(t.plays):
        return "other_kind"
    if f.seat:
        mine = kinds_of_seat(game, t, f.seat)
        if not seat_roles(game, f.seat) & set(t.who) or not (set(f.plays) & set(mine) if f.plays else mine):
            return "other_player"
    return "open"


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
        for bit in (who_text(game, t, lang), close_text(t, lang)):
            if bit:
                details.append(bit)
        out.append("       " + " · ".join(details))
    n_open = sum(1 for r in rs if r.status == "open")
    out += ["", wd("count", lang, n_open, len(rs) - n_open)]
    return "\n".join(out) + "\n"

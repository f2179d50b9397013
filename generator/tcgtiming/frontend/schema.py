"""The schema: the shape of a rule file, as strict pydantic models.

These models are the single definition of the language's structure: the validator uses them,
and ``tcgtiming schema`` emits the JSON Schema for editors from them. Their errors are mapped back
to the line and column of the offending key or value (``validate``).

They check shape only (keys, types, allowed words). Meaning - references between ids, citations,
labels in both languages, reachability - is the job of ``checks``.
"""
from __future__ import annotations

import typing
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, WithJsonSchema

from ..core.diagnostics import Diagnostic, did_you_mean, one_of
from ..core.vocab import ACTIONS, COMPARATORS, PREDICATES

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"
Id = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
Ref = Annotated[str, StringConstraints(min_length=1)]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=False)


class Text(Model):
    """A text in both languages. Both are required (checked with C304 so the message is precise)."""

    ja: str | None = None
    en: str | None = None


Cite = Annotated[
    Union[str, list[str]],
    Field(description="'source-id#section-id', or a list of them. Inherited from the step/phase/procedure when absent."),
]


def _vocab_schema(registry: dict, with_logic: bool) -> dict:
    names = sorted(registry)
    entry_args = {"type": "object", "additionalProperties": True}
    one = {
        "anyOf": [
            {"type": "string", "enum": names},
            {"type": "object", "minProperties": 1, "maxProperties": 1,
             "propertyNames": {"enum": names + (["not", "all", "any"] if with_logic else [])},
             "additionalProperties": {"anyOf": [entry_args, {"type": "array"}, {"type": "string"}]}},
        ]
    }
    return one


Condition = Annotated[
    Any,
    WithJsonSchema({**_vocab_schema(PREDICATES, True),
                    "description": "A predicate name, {predicate: {args}}, or {not: c} / {all: [c...]} / {any: [c...]}."}),
]
Action = Annotated[
    Any,
    WithJsonSchema({**_vocab_schema(ACTIONS, False), "description": "An action name, or {action: {args}}."}),
]


class NodeBase(Model):
    id: Id | None = Field(None, description="Local id; defaults to the 1-based position, like the sources' numbering.")
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None


class Auto(NodeBase):
    """An automatic action, done by the rules (blue in the sources)."""

    kind: Literal["auto"]
    do: Action | None = None


class Option(Model):
    id: Id
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    when: Condition | None = Field(None, description="The option is available only when this holds.")
    then: list["Node"] = Field(default_factory=list)


class Player(NodeBase):
    """A player action (green in the sources): who acts, whether it is optional, its options."""

    kind: Literal["player"]
    actor: Ref
    may: bool = False
    do: Action | None = None
    options: list[Option] | None = None


class Check(NodeBase):
    """A check timing (red in the sources): runs the game's check timing procedure."""

    kind: Literal["check"]
    procedure: Ref | None = None


class Trigger(NodeBase):
    """A trigger point: auto abilities waiting for this event become pending."""

    kind: Literal["trigger"]
    event: Ref


class Window(NodeBase):
    """A priority window / free timing."""

    kind: Literal["window"]
    first: Ref = Field(description="The role that gets priority first.")
    who: list[Ref] | None = Field(None, description="Roles that may act; default: every role.")
    plays: list[Ref] = Field(default_factory=list, description="Play kinds allowed here.")
    close: Literal["consecutive_passes", "all_pass", "first_pass"] | None = None
    passes: int | None = Field(None, description="For consecutive_passes: how many passes in a row close it (default 2).")
    after_play: Literal["alternate", "keep"] = Field(
        "alternate", description="After a play, priority goes to the other player (alternate) or stays (keep).")
    resolve: Literal["immediate", "stack"] = Field(
        "immediate", description="Plays resolve at once, or wait on a stack resolved newest first when the window closes.")
    after_resolve: Literal["reopen", "close"] = Field(
        "close", description="After the stack resolves, the window reopens with priority to 'first', or closes.")
    pass_note: Text | None = None


class Closed(NodeBase):
    """A closed timing: something happens, and no one may play (grey in the Gundam War chart)."""

    kind: Literal["closed"]
    do: Action | None = None


class Case(Model):
    id: Id | None = None
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    when: Condition
    then: list["Node"] = Field(default_factory=list)


class Branch(NodeBase):
    """A decision made by the rules: the first case whose condition holds; else the else body."""

    kind: Literal["branch"]
    cases: list[Case]
    else_: list["Node"] | None = Field(None, alias="else")


class Loop(NodeBase):
    """Repeat the body while the condition holds (tested before each round)."""

    kind: Literal["loop"]
    while_: Condition = Field(alias="while")
    body: list["Node"]


class ForEach(NodeBase):
    """Run the body once for each item of a list of the game, in the list's order."""

    kind: Literal["foreach"]
    over: Ref
    as_: Id = Field(alias="as")
    body: list["Node"]


class Goto(NodeBase):
    """Go back (or forward) to a node, a step, or a phase: "back to 2.", "repeat the end phase"."""

    kind: Literal["goto"]
    target: Ref


class Exit(NodeBase):
    """Leave the enclosing loop, step, phase, procedure, or the turn."""

    kind: Literal["exit"]
    from_: Literal["loop", "step", "phase", "procedure", "turn"] = Field(alias="from")


class Call(NodeBase):
    """Run a named procedure, then continue here."""

    kind: Literal["call"]
    procedure: Ref
    with_: dict[str, Union[int, str, bool]] | None = Field(None, alias="with")


class EndGame(NodeBase):
    """The game ends: a player loses (or wins), or the game is a draw."""

    kind: Literal["end_game"]
    result: Literal["lose", "win", "draw"]
    player: Ref | None = None


Node = Annotated[
    Union[Auto, Player, Check, Trigger, Window, Closed, Branch, Loop, ForEach, Goto, Exit, Call, EndGame],
    Field(discriminator="kind"),
]
NODE_KINDS = ("auto", "player", "check", "trigger", "window", "closed", "branch", "loop", "foreach", "goto",
              "exit", "call", "end_game")


class Section(Model):
    id: Id
    title: str


class Source(Model):
    id: Id
    title: str
    file: str | None = None
    url: str | None = None
    note: Text | None = None
    sections: list[Section] = Field(default_factory=list)


class GameMeta(Model):
    id: Id
    name: Text
    note: Text | None = None
    players: int = 2


class Role(Model):
    id: Id
    name: Text
    seat: Literal["turn", "non_turn"] = Field(description="Which player holds the role: the turn player or the other.")
    note: Text | None = None


class Named(Model):
    id: Id
    name: Text
    note: Text | None = None
    cite: Cite | None = None


class ListItem(Model):
    id: Id
    name: Text


class NamedList(Model):
    id: Id
    name: Text
    items: list[ListItem]
    cite: Cite | None = None
    note: Text | None = None


class RuleProcess(Model):
    """A rule of the game's rule processing. ``when`` is tested for each player in turn (the role
    ``self`` names that player); ``do`` runs when it holds. Interrupt-type rules run as soon as
    they apply, even mid-resolution; check-type rules wait for a ``rule_processing`` action."""

    id: Id
    name: Text
    type: Literal["interrupt", "check"]
    note: Text | None = None
    cite: Cite | None = None
    when: Condition | None = None
    do: list[Action] | None = None


class Procedure(Model):
    id: Id
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    params: list[Id] = Field(default_factory=list)
    nodes: list[Node]


class Step(Model):
    id: Id
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    nodes: list[Node]


class Phase(Model):
    id: Id
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    steps: list[Step] | None = None
    nodes: list[Node] | None = None


class Turn(Model):
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    roles_swap: bool = Field(True, description="The turn passes to the other player after each turn.")
    phases: list[Phase]


class RuleFile(Model):
    """A game's rule file: metadata, registries, procedures and the turn."""

    game: GameMeta
    sources: list[Source]
    roles: list[Role]
    zones: list[Named] = Field(default_factory=list)
    events: list[Named] = Field(default_factory=list)
    plays: list[Named] = Field(default_factory=list, description="Kinds of play allowed in priority windows.")
    lists: list[NamedList] = Field(default_factory=list)
    constants: dict[str, Union[int, str, bool]] = Field(default_factory=dict)
    rule_processes: list[RuleProcess] = Field(default_factory=list)
    check_timing: Ref | None = Field(None, description="The procedure that 'check' nodes run.")
    procedures: list[Procedure] = Field(default_factory=list)
    turn: Turn


for _m in (Option, Case, Branch, Loop, ForEach, Player, Procedure, Step, Phase, Turn, RuleFile):
    _m.model_rebuild()


def json_schema() -> dict:
    schema = RuleFile.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "tcgtiming-rules.schema.json"
    schema["title"] = "tcgtiming rule file"
    return schema


# --- mapping pydantic errors to located diagnostics -----------------------------------------
_TYPE_WORDS = {
    "string_type": "a string", "int_type": "an integer", "bool_type": "true or false",
    "list_type": "a list", "dict_type": "a mapping", "model_type": "a mapping",
    "model_attributes_type": "a mapping", "float_type": "a number", "int_from_float": "an integer",
}


def _describe(value: object) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _real_path(data: object, loc: tuple) -> tuple:
    """Drop the union-member tags that pydantic inserts into error locations."""
    path: list = []
    cur = data
    for item in loc:
        if isinstance(cur, dict) and isinstance(item, str) and item in cur:
            path.append(item)
            cur = cur[item]
        elif isinstance(cur, list) and isinstance(item, int) and 0 <= item < len(cur):
            path.append(item)
            cur = cur[item]
        elif isinstance(cur, dict) and isinstance(item, str) and ("[" in item or item in NODE_KINDS or item[:1].isupper()
                                                                   or item in ("str", "int", "bool", "list", "dict")):
            continue  # a union member tag
        elif isinstance(cur, (str, int, float, bool, list)) and isinstance(item, str) and not isinstance(cur, dict):
            continue
        else:
            path.append(item)  # a missing key: keep it so the message can name it
            break
    return tuple(path)


def _unwrap(tp):
    """Yield the model classes reachable from an annotation (through Optional, list, Annotated)."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        yield from _unwrap(typing.get_args(tp)[0])
    elif origin in (Union, getattr(__import__("types"), "UnionType", Union)) or origin is list or origin is dict:
        for arg in typing.get_args(tp):
            yield from _unwrap(arg)
    elif isinstance(tp, type) and issubclass(tp, BaseModel):
        yield tp


def model_at(data: object, path: tuple, root=None):
    """The schema model class describing the mapping at ``path`` (or None)."""
    candidates: list = [root or RuleFile]
    cur = data
    for item in path:
        if isinstance(item, int):
            cur = cur[item] if isinstance(cur, list) and 0 <= item < len(cur) else None
            continue
        model = _pick(candidates, cur)
        if model is None or not isinstance(cur, dict):
            return None
        field = next((f for n, f in model.model_fields.items() if (f.alias or n) == item), None)
        if field is None:
            return None
        candidates = list(_unwrap(field.annotation))
        cur = cur.get(item)
    return _pick(candidates, cur)


def _pick(candidates, value):
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    kind = None
    if isinstance(value, dict):
        kind = value.get("kind")
    for c in candidates:
        f = c.model_fields.get("kind")
        if f is not None and kind in typing.get_args(f.annotation):
            return c
    return None


def allowed_keys(model: type[BaseModel]) -> list[str]:
    return [f.alias or n for n, f in model.model_fields.items()]


def _thing(model) -> str:
    if model is None:
        return "here"
    name = model.__name__
    words = {"RuleFile": "at the top level", "GameMeta": "in 'game'", "Text": "in a text (ja/en)"}
    if name in words:
        return words[name]
    if "kind" in model.model_fields:
        return f"in a '{typing.get_args(model.model_fields['kind'].annotation)[0]}' node"
    return f"in a {name.lower()}"


def validate(doc) -> tuple[RuleFile | None, list[Diagnostic]]:
    """Validate the loaded document's data against the schema."""
    data = doc.data
    if not isinstance(data, dict) or "game" not in data:
        hint = None
        if isinstance(data, dict):
            hint = did_you_mean(next(iter(data), ""), ["game"])
        return None, [doc.diag("S200", "not a rule file: the top level must be a mapping with a 'game:' key", (),
                               help=hint or "a rule file starts with 'game: {id: ..., name: {ja: ..., en: ...}}'")]
    try:
        return RuleFile.model_validate(data, strict=True), []
    except ValidationError as exc:
        return None, _map_errors(doc, exc)


NODE_LISTS = ("nodes", "then", "body", "else")
PLACEHOLDER_LABEL = {"ja": "（不正なノード）", "en": "(invalid node)"}


def recover(doc, diags: list[Diagnostic]):
    """Error recovery (like a parser's synchronisation): drop unknown keys and replace each broken
    node by a placeholder, so that the semantic checks can still report the other problems of the
    file in the same run. Returns (rule file, placeholder paths), or (None, ()) when the damage is
    outside node lists (a broken registry or top level) and nothing sensible can be checked.
    The recovered file is never compiled into a model."""
    import copy

    data = copy.deepcopy(doc.data)
    try:
        RuleFile.model_validate(data, strict=True)
        return None, ()
    except ValidationError as exc:
        errors = [(_real_path(doc.data, tuple(e["loc"])), e["type"]) for e in exc.errors(include_url=False)]
    placeholders: set[tuple] = set()
    for path, kind in sorted(errors, key=lambda pe: -len(pe[0])):
        if kind == "extra_forbidden" and not any(path[:len(p)] == p for p in placeholders):
            parent = _get(data, path[:-1])
            if isinstance(parent, dict):
                value = parent.pop(path[-1], None)
                model = model_at(doc.data, path[:-1])
                hint = did_you_mean(path[-1], allowed_keys(model)) if model else None
                meant = hint.split("'")[1] if hint else None
                if meant and meant not in parent:
                    parent[meant] = value  # read it as the key the writer probably meant
                continue
        node_path = _enclosing_node(path)
        if node_path is None:
            return None, ()
        if any(node_path[:len(p)] == p for p in placeholders):
            continue
        original = _get(data, node_path)
        placeholder = {"kind": "auto", "label": dict(PLACEHOLDER_LABEL)}
        if isinstance(original, dict) and isinstance(original.get("id"), str):
            placeholder["id"] = original["id"]
        _set(data, node_path, placeholder)
        placeholders = {p for p in placeholders if p[:len(node_path)] != node_path} | {node_path}
    try:
        return RuleFile.model_validate(data, strict=True), tuple(placeholders)
    except ValidationError:
        return None, ()


def _enclosing_node(path: tuple):
    for i in range(len(path) - 1, 0, -1):
        if isinstance(path[i], int) and isinstance(path[i - 1], str) and path[i - 1] in NODE_LISTS:
            return path[: i + 1]
    return None


def _get(data, path):
    cur = data
    for p in path:
        try:
            cur = cur[p]
        except (KeyError, IndexError, TypeError):
            return None
    return cur


def _set(data, path, value):
    parent = _get(data, path[:-1])
    if isinstance(parent, (list, dict)):
        parent[path[-1]] = value


def _map_errors(doc, exc: ValidationError, root=None) -> list[Diagnostic]:
    grouped: dict[tuple, list[dict]] = {}
    for err in exc.errors(include_url=False):
        path = _real_path(doc.data, tuple(err["loc"]))
        grouped.setdefault(path, []).append(err)
    out: list[Diagnostic] = []
    for path, errs in grouped.items():
        types = {e["type"] for e in errs}
        e = errs[0]
        if "extra_forbidden" in types:
            key = path[-1]
            model = model_at(doc.data, path[:-1], root)
            keys = allowed_keys(model) if model else []
            out.append(doc.diag("S201", f"unknown key '{key}' {_thing(model)}", path, key=True,
                                help=did_you_mean(key, keys) or (one_of(keys) if keys else None)))
        elif "missing" in types:
            key = path[-1]
            model = model_at(doc.data, path[:-1], root)
            out.append(doc.diag("S202", f"missing required key '{key}' {_thing(model)}", path[:-1]))
        elif "union_tag_invalid" in types:
            kind = e.get("ctx", {}).get("tag")
            out.append(doc.diag("S205", f"unknown node kind '{kind}'", path + ("kind",),
                                help=did_you_mean(kind, NODE_KINDS) or one_of(NODE_KINDS)))
        elif "union_tag_not_found" in types:
            out.append(doc.diag("S202", "missing required key 'kind' in a node", path,
                                help=one_of(NODE_KINDS)))
        elif types & {"literal_error", "enum"}:
            expected = e.get("ctx", {}).get("expected", "")
            words = [w.strip().strip("'") for w in expected.replace(" or ", ",").split(",") if w.strip()]
            value = e.get("input")
            out.append(doc.diag("S204", f"'{value}' is not allowed here", path,
                                help=did_you_mean(value, words) or f"expected {expected}"))
        elif "string_pattern_mismatch" in types:
            out.append(doc.diag("S204", f"'{e.get('input')}' is not a valid id", path,
                                help="ids use letters, digits, '_' and '-', and start with a letter or digit (no dots)"))
        elif "string_too_short" in types:
            out.append(doc.diag("S204", "an empty string is not allowed here", path))
        else:
            wanted = sorted({_TYPE_WORDS.get(t, t.replace("_", " ")) for t in types})
            got = _describe(e.get("input"))
            out.append(doc.diag("S203", f"expected {' or '.join(wanted)}, found {got}", path))
    return out


def condition_keywords() -> list[str]:
    return sorted(list(PREDICATES) + ["not", "all", "any"])


__all__ = ["RuleFile", "validate", "json_schema", "NODE_KINDS", "COMPARATORS"]

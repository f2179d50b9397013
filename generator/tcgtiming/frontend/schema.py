"""The schema: the shape of a rule file, as strict pydantic models.

These models are the single definition of the language's structure: the validator uses them,
and ``tcgtiming schema`` emits the JSON Schema for editors from them. ``shape`` validates a
document against them and maps their errors back to the line and column of the offending key or
value.

They check shape only (keys, types, allowed words). Conditions and actions are parsed into typed
terms here (``terms``) and never fail the schema: what is wrong with them is reported by the
checks, like every other question of meaning - references between ids, citations, labels in both
languages, reachability (``checks``, ``flow``).
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, StringConstraints, WithJsonSchema

from ..core.vocab import ACTIONS, COMPARATORS, EFFECTS, PREDICATES, ZONE_ROLES
from .terms import LOGIC, Term, parse_action, parse_actions, parse_condition

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


def _arg_schema(type_: str, literal: bool) -> dict:
    """The JSON Schema of an argument of the vocabulary's type (``core.vocab``); ``literal``: card
    effects, whose integers are written out (no constants of the game)."""
    if type_.startswith("enum:"):
        return {"enum": type_[5:].split("|")}
    if type_ == "count":
        return {"type": "integer", "minimum": 0}
    if type_ == "int":
        return {"type": "integer"} if literal else {"anyOf": [{"type": "integer"}, {"type": "string"}],
                                                    "description": "an integer, or an integer constant of the game"}
    if type_ == "bool":
        return {"type": "boolean"}
    return {"type": "string"}


def _entry_schema(e, literal: bool) -> dict:
    """``{name: arguments}`` of one vocabulary entry: its arguments by name (the required ones
    required, no others), or its only argument's value, or nothing when none is required."""
    props = {p.name: _arg_schema(p.type, literal) for p in e.params}
    if e.compare:
        props.update({c: _arg_schema("int", literal) for c in COMPARATORS})
    named = {"type": "object", "properties": props, "additionalProperties": False,
             "required": [p.name for p in e.params if p.required]}
    if e.compare:
        named["minProperties"] = 1 + len(named["required"])
    forms = [named]
    if len(e.params) == 1 and not e.compare:
        forms.append(_arg_schema(e.params[0].type, literal))
    if not named["required"] and not e.compare:
        forms.append({"type": "null"})
    return {"type": "object", "properties": {e.name: forms[0] if len(forms) == 1 else {"anyOf": forms}},
            "required": [e.name], "additionalProperties": False, "description": e.doc}


def vocab_schema(registry: dict, *, literal: bool = False, logic: str | None = None) -> dict:
    """The JSON Schema of a term of the registry, generated from its entries as the front end reads
    them (``terms``, ``resolve``): a bare name (for an entry that needs no argument) or
    ``{name: arguments}``; with ``logic`` (the $ref of the whole condition), also not/all/any."""
    bare = sorted(n for n, e in registry.items() if not e.compare and not any(p.required for p in e.params))
    forms = [{"type": "string", "enum": bare}] + [_entry_schema(registry[n], literal) for n in sorted(registry)]
    if logic is not None:
        ref = {"$ref": logic}
        forms += [{"type": "object", "properties": {"not": ref}, "required": ["not"], "additionalProperties": False}]
        forms += [{"type": "object", "properties": {op: {"type": "array", "items": ref, "minItems": 1}},
                   "required": [op], "additionalProperties": False} for op in LOGIC if op != "not"]
    return {"anyOf": forms}


# A term's JSON Schema is defined once under $defs (conditions refer to themselves through not/all/
# any): a field holds a mark, which json_schema_of replaces by a reference (pydantic resolves a $ref
# of its own). name -> (registry, literal arguments, description)
TERMS = {
    "Condition": (PREDICATES, False, "A predicate name, {predicate: {args}}, or {not: c} / {all: [c...]} / {any: [c...]}."),
    "Action": (ACTIONS, False, "An action name, or {action: {args}}."),
    "Effect": (EFFECTS, True, "An effect of a card ability: its name, or {effect: {args}}."),
}


def term_schema(name: str) -> dict:
    return {"x-tcgtiming": name}


Condition = Annotated[Term, PlainValidator(parse_condition), WithJsonSchema(term_schema("Condition"))]
Action = Annotated[Term, PlainValidator(parse_action), WithJsonSchema(term_schema("Action"))]
Actions = Annotated[Union[Term, tuple], PlainValidator(parse_actions), WithJsonSchema(
    {"anyOf": [term_schema("Action"), {"type": "array", "items": term_schema("Action"), "minItems": 1}],
     "description": "An action, or a list of actions done together, in order, as one entry (simultaneous actions)."})]


class Reading(Model):
    """One way of reading the sources at a place they can be read more than one way, or where they
    disagree (two seeds, a seed and rules-notes). Say it in our own words; cite who says it."""

    id: Id
    says: Text = Field(description="The reading, in our own words.")
    cite: Cite | None = Field(None, description="The source section(s) that say it or support it.")
    runs: bool = Field(False, description="The reading this rule file follows (exactly one of a list).")


READINGS = ("The readings of the sources here, when they can be read more than one way or disagree: two or more, "
            "exactly one with runs: true.")


class NodeBase(Model):
    id: Id | None = Field(None, description="Local id; defaults to the 1-based position, like the sources' numbering.")
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    readings: list[Reading] = Field(default_factory=list, description=READINGS)


class Auto(NodeBase):
    """An automatic action, done by the rules (blue in the sources)."""

    kind: Literal["auto"]
    do: Actions | None = None


class Option(Model):
    id: Id
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    when: Condition | None = Field(None, description="The option is available only when this holds.")
    play: Ref | None = Field(None, description="Choosing this option plays a card or ability of this play kind "
                             "(an id of 'plays'); the option is then a timing where that kind may be played.")
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
    resolve: Literal["immediate", "stack", "top"] = Field(
        "immediate", description="Plays resolve at once (immediate), or wait on a stack: when the window's passes close "
        "it, the whole stack resolves newest first (stack) or only its newest object does (top).")
    after_resolve: Literal["reopen", "close"] = Field(
        "close", description="After the stack resolves, the window reopens with priority to 'first', or closes.")
    before_priority: list[Action] | None = Field(
        None, description="Actions run each time a player would receive priority here (when the window opens, after "
        "a play, after a resolution), e.g. [rule_processing, stack_pending]. Given, it replaces the engine's default "
        "(a stack window of a game without check_timing puts the pending abilities on the stack when it opens).")
    pass_note: Text | None = None


class Closed(NodeBase):
    """A closed timing: something happens, and no one may play (grey in the Gundam War chart)."""

    kind: Literal["closed"]
    do: Actions | None = None


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
    with_: dict[str, Union[int, str, bool, list[Ref]]] | None = Field(
        None, alias="with", description="The arguments: a value each, or a list of play kinds for a parameter that "
        "a window of the procedure names in its plays.")


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
    """A place in a source document: named by the document's own heading, or by a short label in our
    own words with its line range. A section never quotes the document's sentences."""

    id: Id
    title: str = Field(description="The document's own heading, or a short label in our own words (then give lines).")
    lines: Annotated[list[Annotated[int, Field(ge=1)]], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="[first, last]: the lines of the document the section covers (1-based, inclusive).")


class Source(Model):
    id: Id
    title: str
    file: str | None = None
    url: str | None = None
    note: Text | None = None
    sections: list[Section] = Field(default_factory=list)


class PlayerCount(Model):
    min: int = Field(2, ge=2, description="the fewest players a game may have")
    max: int = Field(2, ge=2, description="the most players a game may have")


class GameMeta(Model):
    id: Id
    name: Text
    note: Text | None = None
    players: Union[Annotated[int, Field(ge=2)], PlayerCount] = Field(
        2, description="how many players a game has: a number, or a range {min, max} (scenarios list that many)")


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


class PlayCost(Model):
    stat: Id = Field(description="The card value that sets how many cards pay (e.g. e).")
    zone: Ref = Field(description="The zone of the player's cards that pay.")
    to: Literal["stand", "rest", "reverse", "active", "sleep", "face_up", "face_down"] = Field(
        description="The state the paying cards are turned to.")
    from_: Literal["stand", "rest", "reverse", "active", "sleep", "face_up", "face_down"] | None = Field(
        None, alias="from", description="The state a card must be in to pay (default: any).")
    type: Id | None = Field(None, description="Only cards of this card type (an item of card_types) pay, e.g. land "
                            "(default: any card of the zone).")
    card_from: Ref | None = Field(None, description="Only a card played from this zone pays (MTG: a spell cast from the "
                                  "hand; an ability of a card already in play pays only its own cost).")
    colours: Ref | None = Field(None, description="A list (e.g. colours): each of the played card's traits that is an "
                                "item of it needs a paying card with that trait (MTG: a blue mana symbol, a land making "
                                "blue); a trait written twice needs two.")


class Play(Named):
    cost: PlayCost | None = Field(None, description="What every card played this way costs, without the card stating it.")
    by: list[Ref] | None = Field(
        None, description="Roles that may play this kind, in the windows that allow it (default: whoever holds priority "
        "there): a timing a card's text names, as seen from the player who plays it (Gundam War: 'own turn' = attacking).")
    when: Condition | None = Field(None, description="Cards and abilities of this kind may be played only when this holds "
                                   "(the role 'self' is the player who would play), even where a window allows the kind.")
    stack: bool = Field(True, description="false: a special action, which never uses the stack: it resolves at once even "
                        "in a window whose other plays wait on the stack.")


class Zone(Named):
    role: Literal[tuple(ZONE_ROLES)] | None = Field(  # type: ignore[valid-type]
        None, description="What the zone means to the engine (at most one zone per role): "
        + "; ".join(f"{k}: {v}" for k, v in ZONE_ROLES.items()))
    front: int | None = Field(None, ge=1, description="role stage: the number of front positions, whose characters attack.")
    keeps_state: bool | None = Field(
        None, description="true: its cards have a state (standing, sleeping, face up, ...); a card that leaves it for "
        "another zone loses its state (the zones without it keep no state of their cards' own).")
    combatants: list[Id] | None = Field(None, description="role stage or field: the card types (items of card_types) "
                                        "that attack and block from the zone (default: character and unit).")


class PlayerValue(Named):
    start: Union[int, str] = Field(description="What every player starts the game with: an integer, or the id of an "
                                   "integer constant (a scenario may set another value for a player).")


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
    readings: list[Reading] = Field(default_factory=list, description=READINGS)
    params: list[Id] = Field(default_factory=list)
    nodes: list[Node]


class Step(Model):
    id: Id
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    skip_if: Condition | None = Field(None, description="The step (phase) is skipped when this holds as it would begin: "
                                      "it is not entered, and the trace says it was skipped.")
    readings: list[Reading] = Field(default_factory=list, description=READINGS)
    nodes: list[Node]


class Phase(Model):
    id: Id
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    skip_if: Condition | None = Field(None, description="The step (phase) is skipped when this holds as it would begin: "
                                      "it is not entered, and the trace says it was skipped.")
    readings: list[Reading] = Field(default_factory=list, description=READINGS)
    steps: list[Step] | None = None
    nodes: list[Node] | None = None


class Turn(Model):
    label: Text | None = None
    note: Text | None = None
    cite: Cite | None = None
    readings: list[Reading] = Field(default_factory=list, description=READINGS)
    roles_swap: bool = Field(True, description="The turn passes to the other player after each turn.")
    phases: list[Phase]


class RuleFile(Model):
    """A game's rule file: metadata, registries, procedures and the turn."""

    game: GameMeta
    sources: list[Source]
    roles: list[Role]
    zones: list[Zone] = Field(default_factory=list)
    events: list[Named] = Field(default_factory=list)
    plays: list[Play] = Field(default_factory=list, description="Kinds of play: allowed in priority windows, or played by a player's option.")
    lists: list[NamedList] = Field(default_factory=list)
    constants: dict[str, Union[int, str, bool]] = Field(default_factory=dict)
    player_values: list[PlayerValue] = Field(default_factory=list, description="Numbers each player has (life): "
                                             "damage dealt to a player lowers one, predicates and rule processes read it.")
    rule_processes: list[RuleProcess] = Field(default_factory=list)
    check_timing: Ref | None = Field(None, description="The procedure that 'check' nodes run.")
    procedures: list[Procedure] = Field(default_factory=list)
    turn: Turn


for _m in (Option, Case, Branch, Loop, ForEach, Player, Procedure, Step, Phase, Turn, RuleFile):
    _m.model_rebuild()


def json_schema() -> dict:
    return json_schema_of(RuleFile, "rules", "tcgtiming rule file")


def json_schema_of(root: type[Model], name: str, title: str) -> dict:
    """The JSON Schema (for editors) of the files whose top level ``root`` describes."""
    used: set = set()
    schema = _refer_terms(root.model_json_schema(mode="validation"), used)
    for name in sorted(used):
        registry, literal, doc = TERMS[name]
        logic = f"#/$defs/{name}" if name == "Condition" else None
        schema.setdefault("$defs", {})[name] = {**vocab_schema(registry, literal=literal, logic=logic), "description": doc}
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"tcgtiming-{name}.schema.json"
    schema["title"] = title
    return schema


def _refer_terms(node, used: set):
    """The schema with each term's mark replaced by a reference to its one definition (``used``
    collects the names referred to)."""
    if isinstance(node, dict):
        name = node.get("x-tcgtiming")
        if name is not None:
            used.add(name)
            return {"$ref": f"#/$defs/{name}", **{k: v for k, v in node.items() if k != "x-tcgtiming"}}
        return {k: _refer_terms(v, used) for k, v in node.items()}
    if isinstance(node, list):
        return [_refer_terms(v, used) for v in node]
    return node

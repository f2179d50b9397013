"""The vocabulary: the closed registry of condition predicates and actions a rule file may name.

Why a closed registry and not an expression language
----------------------------------------------------
Conditions and actions in rule files are written as *named predicates / actions with typed
arguments*, combined with ``not`` / ``all`` / ``any``::

    when: {count: {zone: hand, player: turn_player, gt: hand_limit}}
    when: {all: [first_turn_of_game, {attacks_this_turn: {ge: 1}}]}
    do:   {draw: {player: turn_player, count: 2}}

* Every name and argument is checked when the file is loaded (unknown predicate, missing or
  misspelt argument, a role or zone that the game does not define), with a located diagnostic
  and a "did you mean". An embedded expression language (simpleeval, Jinja) resolves names only
  when it runs, and Jinja turns an undefined name into ``None`` silently.
* Evaluation cost is bounded by construction: there is no arithmetic, no power operator, no
  string building (``9**(9**9)`` cannot be written).
* Judges read ``first_attack_of_turn`` more easily than ``state.attacks == 0``.
* The engine implements each entry as one small compiler; adding an entry here is the one
  place to extend the language, and the JSON Schema and the reference page list the entries.

Argument types
--------------
``role``      a role id of the game (turn_player, non_turn_player, attack_side, ...)
``player``    a role id, or ``any`` / ``both``
``zone``      a zone id of the game
``int``       an integer, or the id of an integer constant of the game (``hand_limit``)
``count``     a number of cards or points: an integer, 0 or more (card effects)
``event``     an event id of the game
``node``      a node id (absolute, or relative like a goto target)
``name``      a free identifier (an option id, a state name)
``trait``     a trait or keyword: an item of the game's list ``traits``
``card_type`` a card type: an item of the game's list ``card_types``
``list``      a list id of the game
``play``      a play kind: an id of the game's ``plays``
``text``      free text
``bool``      true / false
``player_value`` a player value of the game (``player_values``: life)
``enum:a|b``  one of the given words
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str
    required: bool = True
    doc: str = ""


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    doc: str
    params: tuple[Param, ...] = ()
    compare: bool = False  # takes one of gt/ge/lt/le/eq (int) as well

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


COMPARATORS = ("gt", "ge", "lt", "le", "eq")

# What a zone means to the engine: a rule file declares a zone's role (``role: deck``) and the
# engine reads the zone through it, never by its id. Each role is held by at most one zone.
ZONE_ROLES: dict[str, str] = {
    "deck": "Cards are drawn, revealed and dealt as damage from its top; its cards trigger no ability.",
    "hand": "Drawn cards go here; activated abilities of its cards may be played.",
    "stage": "Where characters stand in positions (slots): a card keeps its position, leaving it fires 'left_stage'; "
             "characters attack from the first 'front' positions and the opposing "
             "character in the same position defends.",
    "field": "An area of cards in play without positions (units, characters under control): they attack and block "
             "from it and their skills count.",
    "parties": "Piles of characters by faction; the top card of a pile is its active character.",
    "damage": "Damage dealt to a player goes here (a clock, a damage zone).",
    "discard": "Where destroyed characters go unless the rules name another zone (waiting room, discard pile, junk yard).",
    "resolution": "Where a trigger check reveals its card (without one, the card goes to the hand).",
}
STATES = "stand|rest|reverse|active|sleep|face_up|face_down"
DAMAGE_STATS = "toughness|defense|dp|power"  # the card values that marked damage is measured against

# The words a scenario's card may use, each declared by lists of the rule file (card field -> list
# ids; a card's colour is one of its traits): an item's id, or its name in either language, which
# stands for the id. A game with none of a field's lists admits no word in that field.
CARD_WORD_LISTS: dict[str, tuple[str, ...]] = {"type": ("card_types",), "traits": ("traits", "colours"),
                                               "faction": ("factions",), "triggers": ("triggers",)}


def _p(spec: str, doc: str = "") -> Param:
    """'name:type' or 'name?:type' (optional)."""
    name, type_ = spec.split(":", 1)
    return Param(name.rstrip("?"), type_, not name.endswith("?"), doc)


def _entries(*items: Entry) -> dict[str, Entry]:
    return {e.name: e for e in items}


PREDICATES: dict[str, Entry] = _entries(
    Entry("first_turn_of_game", "This is the first turn of the game (the starting player's first turn)."),
    Entry("first_attack_of_turn", "No attack has been declared yet this turn."),
    Entry("attacks_this_turn", "Compares the number of attacks declared this turn.", compare=True),
    Entry("player_count", "Compares the number of players in the game (the scenario's players).", compare=True),
    Entry("count", "Compares the number of cards in a zone of a player.",
          (_p("zone:zone"), _p("player:player")), compare=True),
    Entry("has_pending", "The player has at least one pending (triggered, not yet resolved) ability.",
          (_p("player:player"),)),
    Entry("has_state", "The player has a card in the zone in the given state (e.g. a reversed character).",
          (_p("player:player"), _p("state:enum:" + STATES), _p("zone?:zone"))),
    Entry("can_attack", "The player has a character that may declare an attack now.", (_p("player:role"),)),
    Entry("opposing_character", "A character of the opponent stands in front of the attacking character."),
    Entry("attacker_present", "The attacking character is still on the stage."),
    Entry("defender_present", "The defending (blocking, guarding, front) character is still on the stage."),
    Entry("chose", "The latest decision made at a player-action node took the given option.",
          (_p("node:node"), _p("option:name"))),
    Entry("revealed_is", "The card just revealed (trigger, damage, damage judgment) has the given card type.",
          (_p("type:card_type"),)),
    Entry("active_has", "The active character (top card) of the current party has the given trait or skill.",
          (_p("trait:trait"), _p("party?:name", "a list item id, or the foreach variable"))),
    Entry("lost", "A loss condition of the game holds for the player.", (_p("player:player"),)),
    Entry("stack_empty", "No played card or ability waits on the stack / in the resolution area."),
    # --- additions: ws ---
    Entry("damage_left", "Compares the points of the damage being dealt that are still to be dealt "
          "(cards still to reveal or take one at a time); a call that deals damage sets them.", compare=True),
    # --- additions: versus ---
    Entry("has_keyword", "The player has a card with the given keyword skill (in the zone, if one is given).",
          (_p("player:player"), _p("keyword:trait"), _p("zone?:zone"),
           _p("in_combat?:bool", "true: only the cards attacking or blocking in the current combat (declare_attackers)"))),
    Entry("untriggered", "An auto ability waiting for the event would trigger now but did not when the event last "
          "happened (its card arrived, or its condition came to hold, after that).", (_p("event:event"),)),
    Entry("has_type", "The player has a card of the given card type (in the zone, if one is given).",
          (_p("player:player"), _p("type:card_type"), _p("zone?:zone"))),
    Entry("chosen_has", "The card chosen at the latest decision has the given keyword skill or trait (and/or card type).",
          (_p("keyword?:trait"), _p("type?:card_type"))),
    Entry("stat_at_least", "A value of one battling character is at least a value of the other (e.g. the attacker's AP reaches the blocker's DP).",
          (_p("who:enum:attacker|defender"), _p("stat:enum:power|ap|dp|attack|defense"),
           _p("than:enum:attacker|defender"), _p("than_stat:enum:power|ap|dp|attack|defense"))),
    # --- additions: gundam ---
    # --- additions: aquarian ---
    # --- additions: mtg ---
    Entry("holds_role", "The player holds the role this turn (e.g. self, the player who would play, is the turn player).",
          (_p("player:player"), _p("role:role"))),
    Entry("damage_reaches", "The player has a card in the zone whose marked damage is at least its value 'stat' "
          "(lethal damage: a creature's toughness, a unit's defense); a card without the value is not measured.",
          (_p("player:player"), _p("zone:zone"), _p("stat:enum:" + DAMAGE_STATS))),
    Entry("played_this_turn", "Compares the number of plays of the kind the player has made in priority windows this "
          "turn (MTG: one land a turn).", (_p("player:player"), _p("kind:play")), compare=True),
    Entry("during", "The run is in the given phase or step now (a phase id, or a step's full id such as beginning.draw), "
          "also inside a procedure called from it.",
          (_p("timing:timing"),)),
    Entry("in_combat", "The player has a card attacking or blocking in the current combat (declare_attackers, declare_blockers).",
          (_p("player:player"),)),
    Entry("player_value", "Compares a player value of the player (life: see player_values).",
          (_p("player:player"), _p("value:player_value")), compare=True),
)

ACTIONS: dict[str, Entry] = _entries(
    Entry("rule_processing", "Run the game's rule processing (check-type rules) until none applies."),
    Entry("resolve_pending", "The player chooses one of their pending abilities and resolves it.", (_p("player:role"),)),
    Entry("stack_pending", "Every pending ability goes onto the stack: the turn player's first, then the other player's "
          "(so the other player's resolve first); a player with several chooses the order of their own."),
    Entry("draw", "The player draws cards from the top of their deck.", (_p("player:role"), _p("count:int"))),
    Entry("set_state", "Put cards of the player into a state (stand, rest, reverse, active, sleep, face up/down).",
          (_p("player:role"), _p("to:enum:" + STATES), _p("zone?:zone"), _p("which?:enum:all|chosen|attacker|defender|reversed|sleeping|face_down"))),
    Entry("move", "Move cards of the player from one zone to another.",
          (_p("player:role"), _p("from:zone"), _p("to:zone"), _p("count?:int"), _p("which?:enum:top|chosen|all|revealed|attacker|defender|reversed"))),
    Entry("reveal", "Reveal cards from the top of the player's deck into a zone (e.g. the resolution zone).",
          (_p("player:role"), _p("count:int"), _p("to:zone"))),
    Entry("discard_to_limit", "The player discards chosen cards from hand down to the limit.",
          (_p("player:role"), _p("limit:int"), _p("to:zone"))),
    Entry("place", "The player puts a card from hand onto the field (character, climax, power card, item).",
          (_p("player:role"), _p("from:zone"), _p("to:zone"),
           _p("state?:enum:" + STATES, "the state it enters in (without it, the card keeps the state it has, if any)"),
           _p("type?:card_type", "the card type the card must have (refused otherwise, on every path that places)"),
           _p("keyword?:name", "a keyword skill that changes the state the card enters in"),
           _p("keyword_state?:enum:" + STATES, "the state a card with the keyword enters in"),
           _p("level_zone?:zone", "play condition: the card's level is at most the number of cards in this zone"),
           _p("pay_from?:zone", "play condition: the card's cost is paid with that many top cards of this zone"),
           _p("pay_to?:zone", "where the cards paying the cost go"),
           _p("colours?:list", "play condition: a card of the card's colour (a trait in this list) must be in the "
              "level zone or colour_zone; a card with no colour has none"),
           _p("colour_zone?:zone", "the other zone a card of the colour may be in"))),
    Entry("play", "The player plays a card or an ability of the given play kind.", (_p("player:role"), _p("kind:name"))),
    Entry("declare_attack", "The player chooses an attacking character (and the attack's target or type).",
          (_p("player:role"), _p("pay?:name", "a value of the attacker paid from its own power, e.g. attack_cost"),
           _p("default?:int", "what pay costs when the card states no such value (a rule every card has)"))),
    Entry("declare_block", "The player chooses a character to block / guard / defend with, or none.",
          (_p("player:role"), _p("pay?:name", "a value of the blocker paid from its own power, e.g. guard_cost"),
           _p("default?:int", "what pay costs when the card states no such value (a rule every card has)"))),
    Entry("modify", "Change a value of the attacking or defending character until the end of the attack or turn.",
          (_p("target:enum:attacker|defender"), _p("stat:enum:soul|power|ap|dp|attack|defense"),
           _p("by?:int"), _p("by_level_of?:enum:attacker|defender"), _p("negate?:bool"))),
    Entry("trigger_check", "Reveal the top card of the deck and carry out its trigger icon.", (_p("player:role"),)),
    Entry("deal_damage", "Deal damage to the player equal to a value of the attacking character.",
          (_p("player:role"), _p("amount:enum:soul|ap|attack|mental_attack"))),
    Entry("damage_judgment", "Flip cards from the deck one at a time, equal to the attack; each goes where the rules send it.",
          (_p("player:role"), _p("amount:enum:attack|mental_attack"))),
    Entry("battle", "Compare the attacking and defending characters' values and apply the result. A destroyed "
          "character leaves at once, or (destroy: by_abolish_effect) stays marked destroyed while an abolish effect "
          "that moves it to the zone waits to be resolved (and can be answered) at the next timing.",
          (_p("compare:enum:power|ap_dp|attack_defense"), _p("destroy?:enum:at_once|by_abolish_effect"),
           _p("to?:zone", "where destroyed characters go (default: the game's discard/waiting room/junk yard)"))),
    Entry("reset_damage", "Damage accumulated on units is removed."),
    Entry("destroy_damaged", "Every card of the player in the zone whose marked damage is at least its value 'stat' "
          "goes to the zone 'to', all at once (lethal damage as a rule process).",
          (_p("player:player"), _p("zone:zone"), _p("stat:enum:" + DAMAGE_STATS), _p("to:zone"))),
    Entry("end_effects", "Effects that last 'until end of turn' end."),
    Entry("resolve", "Resolve what is in the resolution area / on the stack."),
    Entry("swap_slots", "The player swaps two stage positions (with their markers).", (_p("player:role"),)),
    Entry("pass", "Do nothing and move on."),
    Entry("shuffle", "Shuffle a zone of the player (seeded: the same scenario shuffles the same way).",
          (_p("player:role"), _p("zone:zone"))),
    Entry("lose", "The player loses the game (two players losing in the same rule processing is a draw).",
          (_p("player:player"),)),
    Entry("pay_cost", "The player pays the chosen card's cost (one of its values, e.g. E) by turning that many cards of a "
          "zone from one state to another (VERSUS: usable magic cards face down).",
          (_p("player:role"), _p("zone:zone"), _p("stat:enum:cost|e|level|guard_cost|attack_cost|encore_cost"),
           _p("to:enum:" + STATES), _p("from?:enum:" + STATES),
           _p("card_from?:zone", "where the card paid for is, when no decision chose it: the card of 'type' there "
              "(several: the scenario names it; the placing that follows puts that card)"),
           _p("type?:name", "the card type of the card paid for (with card_from)"))),
    Entry("choose_card", "At a decision, the card it is about: the card the scenario names there, else the only card of "
          "the type in the zone (several: the scenario must name one). The decision's options and the actions after it "
          "read that card (chosen_has, place, pay_cost).",
          (_p("player:role"), _p("from:zone"), _p("type?:name", "the card type the card must have"))),
    Entry("trigger_icon", "Carry out the trigger icon of the card just revealed (e.g. soul: the attacker gets +1 soul).",
          (_p("player:role"),)),
    # --- additions: ws ---
    Entry("built_in_return", "A built-in auto ability every card of the type has, without a scenario stating it (WS: "
          "encore): the card the player has just put into the zone becomes pending with it, unless it has its own "
          "ability of that id; paying cost cards (the top ones, pay_from to pay_to) returns it to back_to in the state.",
          (_p("player:role"), _p("id:name"), _p("type:card_type"), _p("zone:zone"), _p("back_to:zone"),
           _p("state:enum:" + STATES), _p("cost:int"), _p("pay_from:zone"), _p("pay_to:zone"))),
    # --- additions: versus ---
    Entry("draw_per_card", "The player draws one card for each of their cards with the given keyword skill (in the zone, if given).",
          (_p("player:role"), _p("keyword:trait"), _p("zone?:zone"))),
    # --- additions: gundam ---
    Entry("resolve_triggered", "Abilities waiting for the event trigger and resolve at once, one after another; no one may play or cut in (a closed timing).",
          (_p("event:event"),)),
    # --- additions: aquarian ---
    Entry("forced_attack", "A character declares an attack by the rules, not by a player's choice, and pays no attack cost "
          "(e.g. an aggressive active character attacking its own controller).",
          (_p("target:role", "the attacked player"), _p("party?:name", "whose active character attacks: a list item id, or the foreach variable"))),
    Entry("draw_modified", "The player draws a base number of cards, plus the X of every 'skill+X' and minus the X of every "
          "'skill-X' skill of the characters they control, never fewer than min (default 0).",
          (_p("player:role"), _p("base:int"), _p("skill:name", "the skill family, e.g. draw for draw+X / draw-X"), _p("min?:int"))),
    # --- additions: mtg (combat with several attackers and blockers, player values) ---
    Entry("declare_attackers", "The player attacks with any number of their ready (standing) cards that attack: the "
          "cards the choice deciding to attack names (cards: [...]); each is put into 'state', if given (tapped), and "
          "fires attack_declared. They stay attackers until the end of the turn.",
          (_p("player:role"), _p("state?:enum:" + STATES, "the state attackers are put into (e.g. rest: tapped)"),
           _p("defender?:role", "the player attacked (default: the other player)"))),
    Entry("declare_blockers", "The player blocks with ready cards of theirs that are not attacking: the choice's "
          "blocks: {blocker: attacker} (several blockers may block one attacker; none: no block).",
          (_p("player:role"),)),
    Entry("combat_damage", "The attacking and blocking cards still in play deal damage equal to their value 'stat', all "
          "at once: a blocker to the attacker it blocks, a blocked attacker to its blockers (lethal damage to each in "
          "the order listed, the rest to the last; none if they are all gone), an unblocked attacker to the player "
          "attacked (lowering the player value 'life'). step first: only the cards with keyword 'first' or 'double'; "
          "step regular: the cards without 'first', and those with 'double'. Damage is only marked on cards (a rule "
          "process such as destroy_damaged removes them).",
          (_p("step:enum:first|regular"), _p("stat:enum:power|ap|attack"), _p("first:trait"), _p("double:trait"),
           _p("lethal:enum:" + DAMAGE_STATS), _p("life:player_value"))),
    Entry("end_if_lost", "If a player has lost (a rule process's lose), the game ends here: the other player wins, or "
          "it is a draw when both lost. Written in a window's before_priority after rule_processing."),
)


# Effects of card abilities in scenarios. Players are named relative to the card: its controller
# or the controller's opponent; cards as this card (self), the attacking or defending character,
# the target chosen when the ability was played, or the item it answers on the stack.
WHO = "enum:controller|opponent"
EFFECTS: dict[str, Entry] = _entries(
    Entry("draw", "The player draws cards.", (_p("who:" + WHO), _p("count:count"))),
    Entry("move", "Move cards of the player from one zone to another (the top ones, this card, or the chosen target).",
          (_p("who:" + WHO), _p("from:zone"), _p("to:zone"), _p("count?:count"), _p("which?:enum:top|self|target"))),
    Entry("set_state", "Put a card into a state.", (_p("target:enum:self|attacker|defender|target"), _p("to:enum:" + STATES))),
    Entry("modify", "Change a value of a card until the end of the turn.",
          (_p("target:enum:self|attacker|defender|target"), _p("stat:enum:level|cost|power|soul|ap|dp|attack|defense|toughness"),
           _p("by:int"))),
    Entry("damage", "Deal damage to a character: with 'to', when it reaches the character's DP (or defense), the "
          "character goes to the zone; without 'to', the damage is only marked (a rule process such as "
          "destroy_damaged removes the card).",
          (_p("target:enum:attacker|defender|target"), _p("amount:count"), _p("to?:zone"))),
    Entry("change_value", "A player value of the player changes by 'by' (e.g. by: -3 on life: 3 damage to the player).",
          (_p("who:" + WHO), _p("value:player_value"), _p("by:int"))),
    Entry("negate", "Negate the ability or card this one answers (the newest item on the stack when it was played)."),
    Entry("pending", "The controller gets one more pending ability (a stand-in for 'another ability triggers')."),
    Entry("pay", "A cost: the controller turns count cards of a zone (any zone) from one state to another (VERSUS: usable "
          "magic cards face down; MTG: untapped lands tapped, with type); refused, saying why, when fewer cards can pay.",
          (_p("zone:zone"), _p("count:int"), _p("to:enum:" + STATES), _p("from?:enum:" + STATES),
           _p("type?:card_type", "only cards of this card type pay (default: any card of the zone)"))),
)


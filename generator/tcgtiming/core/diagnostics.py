"""Diagnostics: the one list of stable codes, and the located messages that carry them.

Every problem tcgtiming reports has a code from ``CODES``. Codes never change meaning; a retired
code is kept (marked retired) rather than reused. The site documents this table (ruff-style).

Code families:
  Y1xx  reading the file and YAML syntax            (loader)
  S2xx  the shape of the document: keys and types   (schema)
  C3xx  meaning: references, labels, citations, control flow (checks)
  R5xx  running a scenario (the engine)
  U4xx  usage: paths and arguments given to the command line
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    name: str
    severity: str  # "error" | "warning"
    summary: str


_TABLE = [
    # --- reading and YAML ---------------------------------------------------------------
    Code("Y100", "io-error", "error", "The file cannot be read (missing, a directory, no permission, a symbolic link loop), or is a FIFO, socket or device (refused without opening it)."),
    Code("Y101", "yaml-syntax", "error", "The text is not valid YAML."),
    Code("Y102", "tab-indent", "error", "A tab character is used where YAML needs spaces."),
    Code("Y103", "duplicate-key", "error", "The same key appears twice in one mapping; YAML loaders would silently keep the last."),
    Code("Y104", "yaml11-scalar", "error", "A plain scalar that YAML 1.1 reads as something else (yes/no/on/off, 1:30, 0755): quote it or write true/false."),
    Code("Y105", "alias", "error", "Anchors and aliases (&a / *a) are refused: they can expand without bound."),
    Code("Y106", "too-deep", "error", "Nesting deeper than the limit."),
    Code("Y107", "too-large", "error", "The file is larger than the limit."),
    Code("Y108", "not-utf8", "error", "The file is not UTF-8 text (binary bytes or another encoding)."),
    Code("Y109", "empty", "error", "The file holds no document."),
    Code("Y110", "multi-document", "error", "More than one YAML document in one file."),
    Code("Y111", "tag", "error", "Explicit YAML tags (!!python/..., !custom) are refused."),
    Code("Y112", "complex-key", "error", "A mapping key that is not a plain string."),
    Code("Y113", "number-range", "error", "A number too large to be meaningful."),
    Code("Y114", "too-many-problems", "error", "So many problems that the loader stopped reading the file."),
    Code("Y115", "unsafe-character", "error", "A control character, a bidirectional control (U+202E…) or a line separator (U+2028, U+2029, U+0085) in the file, raw or escaped: invisible, or shown reordered, or a line break to YAML but not to editors."),
    # --- schema -------------------------------------------------------------------------
    Code("S200", "unknown-file-kind", "error", "The top level does not say what the file is (no 'game:' key)."),
    Code("S201", "unknown-key", "error", "A key the language does not define at this place."),
    Code("S202", "missing-key", "error", "A required key is missing."),
    Code("S203", "wrong-type", "error", "A value has the wrong type (e.g. a list where a mapping is expected)."),
    Code("S204", "bad-value", "error", "A value outside the allowed set or pattern."),
    Code("S205", "unknown-kind", "error", "A node 'kind' the language does not define."),
    Code("S206", "deprecated-key", "warning", "A key the language still reads but has replaced: the message names the key or keys to write instead."),
    # --- meaning ------------------------------------------------------------------------
    Code("C301", "duplicate-id", "error", "Two definitions share one id in the same namespace."),
    Code("C302", "unknown-reference", "error", "A reference to a procedure, phase, step, node, role, zone, event, list, constant or play kind that is not defined."),
    Code("C303", "unknown-source", "error", "A citation names a source document or section that the game's source registry does not list."),
    Code("C304", "label-language", "error", "A label or note lacks one of the languages (ja, en)."),
    Code("C305", "unreachable", "error", "A node can never be reached from the start of the turn (or of its procedure)."),
    Code("C306", "no-way-out", "error", "A loop or jump from which the end of the turn (or of the procedure) can never be reached."),
    Code("C307", "bad-target", "error", "A goto/exit whose target is unknown or not allowed."),
    Code("C308", "window-no-close", "error", "A priority window without a closing rule."),
    Code("C309", "unknown-predicate", "error", "A condition names a predicate that is not in the registry."),
    Code("C310", "unknown-action", "error", "An action names an operation that is not in the registry."),
    Code("C311", "bad-argument", "error", "A predicate or action argument that is missing, unknown or of the wrong type."),
    Code("C312", "reserved-id", "error", "An id that the compiler reserves ('begin', 'end')."),
    Code("C313", "no-citation", "error", "A node with no citation, directly or from its step, phase or procedure."),
    Code("C314", "empty-body", "error", "A phase, step, procedure, loop or option body with no nodes where one is needed."),
    Code("C315", "unused", "warning", "A procedure, event, role or source section defined but never used."),
    Code("C316", "no-check-timing", "error", "A 'check' node but the game defines no check timing procedure."),
    Code("C317", "recursive-call", "error", "A procedure that calls itself, directly or through others."),
    Code("C318", "ambiguous-action", "error", "A player action with 'may', options and 'do': which option does the action is unclear."),
    Code("C319", "duplicate-game", "error", "Two rule files define the same game id: their outputs (models, charts, pages) would overwrite each other."),
    Code("C320", "unsafe-file-name", "error", "A scenario file name that cannot name its outputs safely (index, a space, #, %, a character other than ASCII letters, digits, '-', '_', '.') or that names the same outputs as another scenario's."),
    Code("C321", "stack-never-filled", "warning", "A window that stacks its plays, in a game with a check timing procedure, and no 'before_priority': no ability triggered before or in the window reaches its stack (say so with before_priority: [stack_pending])."),
    # --- running a scenario -------------------------------------------------------------
    Code("R501", "unscripted-decision", "error", "In --strict mode, a decision the scenario does not script."),
    Code("R502", "step-budget", "error", "The run exceeded its step budget (node visits, window decisions, rules applied, abilities resolved): the message names the repeating cycle."),
    Code("R503", "impossible-choice", "error", "A scripted choice that cannot be carried out (an option not available, a card not there, a play not allowed at this timing, a cost the player cannot pay)."),
    Code("R504", "unused-choice", "warning", "A scripted choice that the run never reached."),
    Code("R505", "expectation", "error", "A fact the scenario expects of its trace does not hold."),
    Code("R506", "no-rules", "error", "The rule file of the scenario's game cannot be found or is invalid."),
    Code("R507", "unused-choice-data", "warning", "Data of a scripted choice that the decision it answered did not use (a card, cards, an ability, a target or an answer given at the wrong node); an error with --strict."),
    Code("R508", "ruling-scenario", "error", "The scenario a ruling runs is missing, invalid, or of another game than the ruling."),
    Code("R509", "ambiguous-player", "error", "With more than two players, a rule names one player by a role that several players hold (seat non_turn): refused where a run reaches it, and in a scenario's card abilities when the file is checked."),
    # --- usage --------------------------------------------------------------------------
    Code("U401", "no-input", "error", "A path given on the command line does not exist or holds no YAML file."),
    Code("U402", "unknown-node", "error", "A node id given on the command line is not a node of the game (did-you-mean given)."),
]

CODES: dict[str, Code] = {c.code: c for c in _TABLE}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    file: str
    line: int  # 1-based; 0 when the file as a whole is meant
    col: int  # 1-based; 0 when the file as a whole is meant
    length: int = 1  # characters to underline
    help: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    escalated: bool = False  # a warning reported as an error (--strict)

    @property
    def severity(self) -> str:
        return "error" if self.escalated else CODES[self.code].severity

    @property
    def name(self) -> str:
        return CODES[self.code].name

    def sort_key(self):
        return (self.file, self.line, self.col, self.code, self.message)

    def as_json(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "length": self.length,
            "severity": self.severity,
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "help": self.help,
            "notes": list(self.notes),
        }


def did_you_mean(word: object, candidates: Iterable[str]) -> str | None:
    """A 'did you mean' hint for a misspelt word, or None when nothing is close."""
    if not isinstance(word, str):
        return None
    cands = sorted(set(candidates))
    if not cands:
        return None
    lower = {c.lower(): c for c in cands}
    if word.lower() in lower and lower[word.lower()] != word:
        return f"did you mean '{lower[word.lower()]}'?"
    match = difflib.get_close_matches(word, cands, n=1, cutoff=0.6)
    if not match:
        match = difflib.get_close_matches(word.lower(), list(lower), n=1, cutoff=0.6)
        match = [lower[m] for m in match]
    return f"did you mean '{match[0]}'?" if match else None


def one_of(candidates: Iterable[str], limit: int = 12) -> str:
    cands = sorted(set(candidates))
    shown = ", ".join(f"'{c}'" for c in cands[:limit])
    more = f", … ({len(cands) - limit} more)" if len(cands) > limit else ""
    return f"expected one of: {shown}{more}"

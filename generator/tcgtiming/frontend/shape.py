"""A document's shape: validation against the schema, with pydantic's errors mapped to located
diagnostics (S2xx), and the error recovery that lets the checks run on a broken rule file.

Used for rule files (``validate``, ``recover``) and scenario files (``map_errors`` with the
scenario's root model).
"""
from __future__ import annotations

import copy
import types
import typing
from typing import Annotated, Union

from pydantic import BaseModel, ValidationError

from ..core.diagnostics import Diagnostic, did_you_mean, one_of
from .schema import NODE_KINDS, RuleFile

_TYPE_WORDS = {
    "string_type": "a string", "int_type": "an integer", "bool_type": "true or false",
    "list_type": "a list", "dict_type": "a mapping", "model_type": "a mapping",
    "model_attributes_type": "a mapping", "float_type": "a number", "int_from_float": "an integer",
}


_FOUND = ((bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string"), (list, "a list"),
          (dict, "a mapping"))  # bool before int: a bool is an int


def _describe(value: object) -> str:
    if value is None:
        return "nothing (null)"
    return next((word for t, word in _FOUND if isinstance(value, t)), type(value).__name__)


def _describe_value(value: object) -> str:
    return f"'{value}'" if isinstance(value, (int, str)) else _describe(value)


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
    elif origin in (Union, types.UnionType) or origin is list or origin is dict:
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
        return None, map_errors(doc, exc)


NODE_LISTS = ("nodes", "then", "body", "else")
PLACEHOLDER_LABEL = {"ja": "（不正なノード）", "en": "(invalid node)"}


def recover(doc) -> tuple[RuleFile | None, tuple]:
    """Error recovery (like a parser's synchronisation): drop unknown keys and replace each broken
    node by a placeholder, so that the semantic checks can still report the other problems of the
    file in the same run. Returns (rule file, placeholder paths), or (None, ()) when the damage is
    outside node lists (a broken registry or top level) and nothing sensible can be checked.
    The recovered file is never compiled into a model."""
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


def map_errors(doc, exc: ValidationError, root: type[BaseModel] | None = None) -> list[Diagnostic]:
    """Located diagnostics for a validation error of the document's data (root: the model the
    data was validated against; default RuleFile)."""
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
            hint = did_you_mean(key, keys) or (one_of(keys) if keys else None)
            if model is not None and model.__name__ == "Text" and _get(doc.data, path) is None:
                # {ja: 攻撃, 防御, en: ...}: a bare comma ends the text, and what follows reads as a key
                hint = (f"a comma ends an entry of {{ja: ..., en: ...}}: if '{key}' belongs to the text before it, "
                        "quote that text (ja: \"...、...\" or en: \"..., ...\")")
            out.append(doc.diag("S201", f"unknown key '{key}' {_thing(model)}", path, key=True, help=hint))
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
        elif types & {"greater_than_equal", "greater_than"}:
            least = e.get("ctx", {}).get("ge", e.get("ctx", {}).get("gt"))
            words = "at least" if "greater_than_equal" in types else "more than"
            out.append(doc.diag("S204", f"{_describe_value(e.get('input'))} is too small here", path,
                                help=f"the value must be {words} {least}"))
        elif "string_too_short" in types:
            out.append(doc.diag("S204", "an empty string is not allowed here", path))
        else:
            wanted = sorted({_TYPE_WORDS.get(t, t.replace("_", " ")) for t in types})
            got = _describe(e.get("input"))
            out.append(doc.diag("S203", f"expected {' or '.join(wanted)}, found {got}", path))
    return out



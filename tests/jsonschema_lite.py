"""A small JSON Schema (2020-12) validator for the keywords tcgtiming's generated schemas use, so
that the tests can check the schemas the way an editor does without another dependency. An
unknown keyword fails loudly, so the schemas cannot grow past what this checks."""
from __future__ import annotations

import re

_IGNORED = {"title", "description", "default", "deprecated", "$schema", "$id", "$defs", "discriminator"}
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value, type_: str) -> bool:
    if type_ == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_ == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[type_])


def errors(value, schema: dict, root: dict | None = None, path: str = "") -> list[str]:
    """Where the value breaks the schema (empty: valid)."""
    root = root if root is not None else schema
    out: list[str] = []
    for key, rule in schema.items():
        if key in _IGNORED:
            continue
        if key == "$ref":
            target = root
            for part in rule.removeprefix("#/").split("/"):
                target = target[part]
            out += errors(value, target, root, path)
        elif key == "type":
            kinds = rule if isinstance(rule, list) else [rule]
            if not any(_is(value, k) for k in kinds):
                return out + [f"{path}: not {rule}"]
        elif key == "enum":
            if value not in rule:
                out.append(f"{path}: {value!r} not in {rule}")
        elif key == "const":
            if value != rule:
                out.append(f"{path}: {value!r} != {rule!r}")
        elif key in ("anyOf", "oneOf"):
            ok = [s for s in rule if not errors(value, s, root, path)]
            if not ok or (key == "oneOf" and len(ok) > 1):
                out.append(f"{path}: {len(ok)} of the {key} alternatives match")
        elif key == "properties":
            if isinstance(value, dict):
                for k, sub in rule.items():
                    if k in value:
                        out += errors(value[k], sub, root, f"{path}/{k}")
        elif key == "additionalProperties":
            if isinstance(value, dict):
                extra = [k for k in value if k not in schema.get("properties", {})]
                if rule is False and extra:
                    out.append(f"{path}: unexpected {extra}")
                elif isinstance(rule, dict):
                    for k in extra:
                        out += errors(value[k], rule, root, f"{path}/{k}")
        elif key == "required":
            if isinstance(value, dict):
                out += [f"{path}: missing {k}" for k in rule if k not in value]
        elif key == "items":
            if isinstance(value, list):
                for i, v in enumerate(value):
                    out += errors(v, rule, root, f"{path}/{i}")
        elif key in ("minItems", "maxItems", "minProperties", "maxProperties", "minLength"):
            if isinstance(value, (list, dict, str)) and (isinstance(value, str) == (key == "minLength")):
                n = len(value)
                if (key.startswith("min") and n < rule) or (key.startswith("max") and n > rule):
                    out.append(f"{path}: {key} {rule}, found {n}")
        elif key == "minimum":
            if _is(value, "number") and value < rule:
                out.append(f"{path}: {value} < {rule}")
        elif key == "pattern":
            if isinstance(value, str) and not re.search(rule, value):
                out.append(f"{path}: {value!r} does not match {rule}")
        else:
            raise KeyError(f"jsonschema_lite does not know the keyword {key!r}")
    return out

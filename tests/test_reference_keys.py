"""The reference explains every key a file may hold (issue 15: a rule writer who reads only the README
and the guide can encode a game): each key the rule file schema admits is written in the rule-language
page, and each key of scenario and ruling files in the scenarios page, as code (`key`, `key:` in an
example, or a key of an inline mapping). Every fixed value a key may take (close: all_pass, ...)
is written there as code too."""
from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from tcgtiming.frontend import ruling, scenario, schema

GUIDE = Path(__file__).resolve().parent.parent / "generator" / "tcgtiming" / "present" / "guide"


def models(t, seen: set) -> set:
    if isinstance(t, type) and issubclass(t, BaseModel) and t not in seen:
        seen.add(t)
        for f in t.model_fields.values():
            models(f.annotation, seen)
    for a in typing.get_args(t):
        models(a, seen)
    return seen


def keys_of(*roots) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for root in roots:
        for mdl in models(root, set()):
            for name, f in mdl.model_fields.items():
                out.setdefault(f.alias or name, set()).add(mdl.__name__)
    return out


def literals_of(*roots) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}

    def walk(t, where):
        if typing.get_origin(t) is typing.Literal:
            for v in typing.get_args(t):
                if isinstance(v, str):
                    out.setdefault(v, set()).add(where)
        for a in typing.get_args(t):
            walk(a, where)
    for root in roots:
        for mdl in models(root, set()):
            for name, f in mdl.model_fields.items():
                walk(f.annotation, f"{mdl.__name__}.{f.alias or name}")
    return out


def code_words(text: str) -> set[str]:
    """The words a page writes as code: inline code spans and fenced blocks, split into words."""
    spans = re.findall(r"```.*?```", text, flags=re.S) + re.findall(r"`([^`\n]+)`", text)
    return {w for s in spans for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", s)}


def code_keys(text: str) -> set[str]:
    """The words a page writes as code that stand as a key: a whole span (`key`), `key:` in code, or
    the keys of a mapping written by its keys only (`{card, from, to}`)."""
    spans = re.findall(r"```.*?```", text, flags=re.S) + re.findall(r"`([^`\n]+)`", text)
    out = {s.strip() for s in spans if re.fullmatch(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*", s)}
    out |= {k for s in spans for k in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\??:", s)}
    for s in spans:
        for inner in re.findall(r"\{([A-Za-z_][A-Za-z0-9_, ]*)\}", s):
            out |= {w.strip() for w in inner.split(",")}
    return out


CASES = {
    "rule-language.md": (schema.RuleFile,),
    "scenarios.md": (scenario.ScenarioFile, ruling.RulingMeta, ruling.RulingOfScenario),
}


@pytest.mark.parametrize("page", sorted(CASES))
def test_every_key_a_file_may_hold_is_in_its_reference_page(page):
    documented = code_keys((GUIDE / page).read_text(encoding="utf-8"))
    missing = {k: sorted(ms) for k, ms in keys_of(*CASES[page]).items() if k not in documented}
    assert not missing, f"{page} does not write these keys as code (key: the models that admit it): {missing}"


@pytest.mark.parametrize("page", sorted(CASES))
def test_every_fixed_value_a_key_takes_is_in_its_reference_page(page):
    documented = code_words((GUIDE / page).read_text(encoding="utf-8"))
    missing = {v: sorted(w) for v, w in literals_of(*CASES[page]).items() if v not in documented}
    assert not missing, f"{page} does not write these values as code: {missing}"


def test_the_check_finds_a_key_left_out():
    page = (GUIDE / "rule-language.md").read_text(encoding="utf-8")
    assert "after_resolve" in code_keys(page)
    assert "after_resolve" not in code_keys(page.replace("after_resolve", "after-resolve"))

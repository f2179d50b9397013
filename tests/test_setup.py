"""The set-up a new user runs: pins that resolve on every Python the project admits.

Debian 12 ships Python 3.11.2; a pin whose ``Requires-Python`` says ``>=3.11.5`` makes
``make site`` and ``make test`` fail there with pip's ResolutionImpossible, while a machine
with a newer Python never notices. These tests read the pins and the installed metadata.
"""

import importlib.metadata as md
import re
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)\s*(?:#.*)?$")


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"constraints.txt: not a plain pin: {line!r}"
        name = canonicalize_name(match[1])
        assert name not in pins, f"constraints.txt pins {name} twice"
        pins[name] = match[2]
    return pins


PINS = _pins()


def _admitted_pythons() -> list[Version]:
    """Every CPython release line the project admits, from its lowest point release up."""
    claimed = SpecifierSet(PYPROJECT["project"]["requires-python"])
    candidates = [Version(f"3.{minor}.{micro}") for minor in range(8, 20) for micro in range(0, 25)]
    admitted = [v for v in candidates if v in claimed]
    assert admitted, "requires-python admits no Python at all"
    return admitted


def test_the_lowest_claimed_python_is_debian_12s_or_lower():
    # Debian 12 (bookworm) has 3.11.2: the quick start must work there
    assert Version("3.11.2") in SpecifierSet(PYPROJECT["project"]["requires-python"])


@pytest.mark.parametrize("name", sorted(PINS))
def test_every_pin_admits_every_python_the_project_claims(name):
    try:
        dist = md.distribution(name)
    except md.PackageNotFoundError:
        pytest.fail(f"{name} is pinned but not installed: make setup installs every pin")
    assert dist.version == PINS[name], f"{name}: installed {dist.version}, pinned {PINS[name]}"
    requires = dist.metadata.get("Requires-Python")
    if not requires:
        return
    spec = SpecifierSet(requires)
    refused = [str(v) for v in _admitted_pythons() if v not in spec]
    assert not refused, (
        f"{name}=={PINS[name]} requires Python {requires}, but the project claims "
        f"{PYPROJECT['project']['requires-python']}: it cannot be installed on Python {refused[0]}"
    )


def _requirements() -> list[Requirement]:
    project = PYPROJECT["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for group in project["optional-dependencies"].values():
        reqs.extend(Requirement(r) for r in group)
    return reqs


def test_every_requirement_is_pinned_and_the_pin_satisfies_it():
    for req in _requirements():
        name = canonicalize_name(req.name)
        assert name in PINS, f"{req.name} is a requirement but constraints.txt does not pin it"
        assert Version(PINS[name]) in req.specifier, f"{req}: the pin {PINS[name]} does not satisfy it"


def test_the_pins_are_the_whole_environment():
    """Nothing in the venv floats: every installed distribution is pinned (a full lock)."""
    unpinned = set()
    for dist in md.distributions():
        name = canonicalize_name(dist.metadata["Name"])
        if name in {"pip", "setuptools", "wheel", "tcgtiming"}:
            continue
        if name not in PINS:
            unpinned.add(f"{name}=={dist.version}")
    assert not unpinned, f"installed but not pinned in constraints.txt: {sorted(unpinned)}"

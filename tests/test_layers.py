"""The import contract of the package: layers with one direction of imports.

    core  <-  frontend  <-  runtime  <-  present  <-  cli

A module may import its own layer and the layers to its left, never to its right; nothing
imports ``cli``; no ``_private`` name crosses from one module to another; only the loader
imports yaml; pydantic stays in the front end; only ``cli`` prints.

A small AST check rather than import-linter: the rules besides the layer order (private names,
yaml, pydantic, printing, module size) are one screen of code here, and a linter would be one
more pinned tool to keep resolvable on every Python we claim. ``violations`` is tested on a
planted tree, so the contract test itself can fail.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from conftest import ROOT

PKG = ROOT / "generator" / "tcgtiming"
LAYERS = ("core", "frontend", "runtime", "present", "cli")
# who may import these third-party packages (subpackage or subpackage/module)
ONLY = {
    "yaml": {"frontend/loader.py"},
    "pydantic": {"frontend"},
}
PRINTING = ("print", "sys.stdout", "sys.stderr")
MAX_LINES = 500
# modules allowed over MAX_LINES, with the reason
LONG: dict[str, str] = {}


@dataclass(frozen=True)
class Module:
    rel: str  # "core/model.py"
    layer: str | None  # None: the package's own __init__/__main__
    tree: ast.Module
    lines: int


def modules(pkg: Path) -> list[Module]:
    out = []
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(pkg).as_posix()
        layer = rel.split("/")[0] if "/" in rel else None
        text = path.read_text(encoding="utf-8")
        out.append(Module(rel, layer, ast.parse(text, rel), text.count("\n")))
    return out


def _target(mod: Module, node: ast.ImportFrom) -> list[str]:
    """The dotted module paths (relative to the package) an ImportFrom reaches."""
    if node.level == 0:
        if not node.module or not node.module.startswith("tcgtiming"):
            return []
        base = node.module.split(".")[1:]
    else:
        here = mod.rel[:-3].split("/")[:-1]  # the module's package, as parts
        up = node.level - 1
        if up > len(here):
            return []
        base = here[: len(here) - up] + (node.module.split(".") if node.module else [])
    if len(base) <= 1:  # "from . import x", "from ..core import model": the names are modules
        return [".".join(base + [a.name]) for a in node.names]
    return [".".join(base)]


def violations(pkg: Path) -> list[str]:
    found = []
    for mod in modules(pkg):
        rank = LAYERS.index(mod.layer) if mod.layer in LAYERS else len(LAYERS)
        for node in ast.walk(mod.tree):
            if isinstance(node, ast.ImportFrom):
                for target in _target(mod, node):
                    layer = target.split(".")[0]
                    if layer in LAYERS and LAYERS.index(layer) > rank:
                        found.append(f"{mod.rel}:{node.lineno}: {mod.layer} imports {target} (a later layer)")
                    if layer == "cli" and mod.layer not in ("cli", None):
                        found.append(f"{mod.rel}:{node.lineno}: imports cli")
                    if target != mod.rel[:-3].replace("/", "."):
                        for alias in node.names:
                            if alias.name.startswith("_") and not alias.name.startswith("__"):
                                found.append(f"{mod.rel}:{node.lineno}: imports the private {target}.{alias.name}")
                if node.level == 0 and node.module:
                    _third_party(mod, node.module, node.lineno, found)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    _third_party(mod, alias.name, node.lineno, found)
            elif isinstance(node, ast.Call) and mod.layer != "cli":
                name = ast.unparse(node.func)
                if name == "print" or name.startswith(("sys.stdout.", "sys.stderr.")):
                    found.append(f"{mod.rel}:{node.lineno}: prints ({name}): only cli prints")
        if mod.lines > MAX_LINES and mod.rel not in LONG:
            found.append(f"{mod.rel}: {mod.lines} lines (over {MAX_LINES}; split it or say why in LONG)")
    return found


def _third_party(mod: Module, name: str, line: int, found: list[str]) -> None:
    top = name.split(".")[0]
    if top in ONLY:
        allowed = ONLY[top]
        if mod.rel not in allowed and mod.layer not in allowed:
            found.append(f"{mod.rel}:{line}: imports {top} (only {', '.join(sorted(allowed))} may)")


def test_the_package_keeps_its_import_contract():
    assert violations(PKG) == []


def test_the_layers_are_the_folders():
    assert sorted(p.name for p in PKG.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(LAYERS)


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    pkg = tmp_path / "tcgtiming"
    for layer in LAYERS:
        (pkg / layer).mkdir(parents=True)
        (pkg / layer / "__init__.py").write_text("")
    for rel, text in files.items():
        (pkg / rel).write_text(text)
    return pkg


def test_a_wrong_direction_import_is_caught(tmp_path):
    pkg = _plant(tmp_path, {
        "core/model.py": "from ..runtime.engine import Engine\n",
        "runtime/engine.py": "from ..core import model\nclass Engine: pass\n",
    })
    assert violations(pkg) == ["core/model.py:1: core imports runtime.engine (a later layer)"]


def test_an_import_of_cli_a_private_name_yaml_and_a_print_are_caught(tmp_path):
    pkg = _plant(tmp_path, {
        "present/site.py": "from ..cli.main import run\nfrom ..runtime.trace import _md\n",
        "runtime/trace.py": "import yaml\ndef _md(): print('x')\n",
        "frontend/scenario.py": "from tcgtiming.present import site\n",
    })
    found = violations(pkg)
    assert "present/site.py:1: present imports cli.main (a later layer)" in found
    assert "present/site.py:1: imports cli" in found
    assert "present/site.py:2: imports the private runtime.trace._md" in found
    assert "runtime/trace.py:1: imports yaml (only frontend/loader.py may)" in found
    assert "runtime/trace.py:2: prints (print): only cli prints" in found
    assert "frontend/scenario.py:1: frontend imports present.site (a later layer)" in found
    assert len(found) == 6


def test_a_long_module_is_caught(tmp_path):
    pkg = _plant(tmp_path, {"core/big.py": "x = 1\n" * (MAX_LINES + 1)})
    assert violations(pkg) == [f"core/big.py: {MAX_LINES + 1} lines (over {MAX_LINES}; split it or say why in LONG)"]


def test_the_engine_loads_neither_pydantic_nor_yaml():
    """Simulation start-up: importing the runtime must not pay for the front end's libraries."""
    code = ("import sys, tcgtiming.runtime.engine, tcgtiming.runtime.trace; "
            "print(sorted(m for m in ('pydantic', 'yaml', 'jinja2') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT / "generator")})
    assert out.stdout.strip() == "[]"

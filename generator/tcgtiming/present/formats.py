"""The output formats of charts (a light module: the command line's parser reads it)."""
from __future__ import annotations

FORMATS = ("svg", "png", "dot", "mermaid")
EXT = {"svg": "svg", "png": "png", "dot": "dot", "mermaid": "mmd"}

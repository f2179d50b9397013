"""Timing charts drawn from the compiled model: graphviz DOT / SVG / PNG, Mermaid, trace overlays.

Only this package and ``tables`` know about chart formats. The DOT text is generated here, never by
a library, so that it is byte-for-byte deterministic: nodes and edges come in the model's document
order (which is stable), attributes are sorted by name, ids are the model's ids. SVG and PNG are
made by the ``dot`` binary of graphviz (run in parallel, cached by content hash).

Charts of a game (each one file per language and format):

  ``turn``          the overview: phases in order (a phase with steps is a cluster of its steps),
                    the loops between them, the next turn with the role swap
  ``<phase id>``    one phase: every node, its steps as clusters, every branch and loop;
                    check timings and calls link to the procedure's own chart
  ``<procedure>``   one procedure (the check timing, damage, ...)

The visual language follows the Weiß Schwarz source: player actions green (#009f00), automatic
actions blue (#0000ff), check timings red (#ff0000); see ``NODE_STYLE`` and ``EDGE_STYLE``.

The modules, in the order they import each other:

  ``style``      colours, node and edge styles, the legend's order, the charts' words (``ui``)
  ``labels``     a node's site link, number, roles, priority window and tooltip
  ``graph``      the chart as a graph (GNode, GEdge, GCluster, Chart) and the charts of a game
  ``overlay``    trace overlays, and reading a trace (JSON Lines) into entries and diagnostics
  ``reach``      what the engine can never take (left out of every chart)
  ``overview``   the overview chart ('turn')
  ``build``      the phase and procedure charts: ``build_chart``
  ``dot``        the DOT writer
  ``mermaid``    the Mermaid writer
  ``graphviz``   running dot, with its cache (entries verified by their content's hash on every read)
  ``jobs``       drawing many files in parallel, moved into place only when all succeeded

Nothing here prints: what goes wrong is raised (``RenderError``, ``TraceError``, ``OSError``) for the
command line to report.
"""
from __future__ import annotations

from .build import build_chart
from .dot import to_dot
from .graph import Chart, GCluster, GEdge, GNode, chart_ids, resolve_chart_id
from .graphviz import (RenderError, cache_dir, cache_entry, cache_key, graphviz_version, read_entry, render_file, run_dot,
                       write_entry)
from .jobs import Job, chart_jobs, run_jobs, write_charts, write_jobs
from .labels import item_numbers, local_label, node_url, page_of, role_label, section_locator, short_role, window_facts, window_lines
from .mermaid import to_mermaid
from .reach import never_reached, never_taken
from .overlay import Overlay, TraceError, build_overlay, check_trace, read_trace, trace_overlays
from .style import EDGE_STYLE, FADE, HIGHLIGHT, KIND_ORDER, NODE_STYLE, style_key, ui

__all__ = [
    "page_of", "node_url", "chart_ids", "resolve_chart_id", "build_chart", "build_overlay", "Overlay",
    "to_dot", "to_mermaid", "run_dot", "render_file", "run_jobs", "chart_jobs", "write_jobs", "write_charts",
    "cache_dir", "cache_key", "cache_entry", "read_entry", "write_entry", "graphviz_version", "RenderError", "Job",
    "style_key", "ui", "KIND_ORDER", "NODE_STYLE", "EDGE_STYLE", "FADE", "HIGHLIGHT",
    "role_label", "short_role", "local_label", "item_numbers", "window_facts", "window_lines", "section_locator",
    "read_trace", "check_trace", "trace_overlays", "TraceError",
    "Chart", "GNode", "GEdge", "GCluster", "never_reached", "never_taken",
]

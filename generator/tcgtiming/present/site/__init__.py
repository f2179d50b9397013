"""The static site, one language at a time (日本語 ``ja/`` and English ``en/``, the same pages in
each): HTML pages generated from the compiled models, the runs of the shipped scenarios and the
code's own metadata, rendered through Jinja2 templates with autoescaping.

Pages (paths inside a language's folder; a node's page is ``charts.node_url``'s, so that the charts'
links land on the node's anchor):

  ``index.html``                       the hand-written ``data/pages/index.<lang>.md`` with the games table
  ``reference.html``                   diagnostic codes, predicates, actions, card effects, node kinds
  ``guide/<name>.html``                the reference guide (``present/guide/*.md``, English)
  ``<game>/turn.html``                 the overview: the turn chart, roles, phases, procedures, registries
  ``<game>/<phase>.html``              one per phase: its chart, then every node in time order
  ``<game>/<procedure>.html``          one per procedure, the same way
  ``<game>/timing/index.html``         the timing-chart table (``tables``)
  ``<game>/when/index.html``           may I play now? (``lookups``: ``present.when``, filtered by assets/when.js)
  ``<game>/coverage/index.html``       what the scenarios visit, with heat-map charts (``lookups``)
  ``<game>/sources/index.html``        each source, its sections and the nodes citing each one
  ``<game>/scenarios/index.html``      the example scenarios
  ``<game>/scenarios/<file>.html``     one scenario: what it demonstrates, the trace overlay, the trace, the board

Escaping is by construction: page bodies are built with ``markup.h`` (markupsafe: every string put in
is escaped), the frame is a template with autoescaping, and rule text never goes through Markdown.
Every node entry carries its stable id as its ``id``; every link of the built site is checked.

Modules: ``markup`` (HTML building, words, links, chart files), ``inputs`` (compiling and running
what the site shows), ``nodes`` (node entries), ``pages`` (a game's pages), ``scenario_pages``,
``docs`` (every page of a language, the navigation, the hand-written parts in ``data/``), ``render``
(templates, writing, link checking), ``publish`` (the one pass, moving into place).
"""
from __future__ import annotations

from .publish import OUTPUTS, BuildError, Built, build, draw_charts
from .docs import HAND_WRITTEN, generate, nav
from .inputs import InputError, Inputs, ScenarioRun, collect, rule_files, scenario_files
from .markup import chart_file, node_page
from .render import check_links, environment, write_site

__all__ = ["OUTPUTS", "HAND_WRITTEN", "BuildError", "Built", "InputError", "Inputs", "ScenarioRun", "build",
           "chart_file", "check_links", "collect", "draw_charts", "environment", "generate", "nav",
           "node_page", "rule_files", "scenario_files", "write_site"]

"""The bilingual (日本語 / English) static site: Markdown pages generated from the compiled models,
the runs of the shipped scenarios and the code's own metadata, built by mkdocs (theme material).

Pages (paths inside the generated docs folder; a node's page is ``render.node_url``'s, so that the
charts' links land on the node's anchor):

  ``index.md``                       the hand-written ``data/pages/index.md`` with the games table filled in
  ``reference.md``                   diagnostic codes, predicates, actions, card effects, node kinds
  ``<game>/turn.md``                 the overview: the turn chart, roles, phases, procedures, registries
  ``<game>/<phase>.md``              one per phase: its chart, then every node in time order
  ``<game>/<procedure>.md``          one per procedure, the same way
  ``<game>/timing/index.md``         the timing-chart table (``tables``)
  ``<game>/sources/index.md``        each source, its sections and the nodes citing each one
  ``<game>/scenarios/index.md``      the example scenarios
  ``<game>/scenarios/<file>.md``     one scenario: what it demonstrates, the trace overlay, the traces

Every node entry carries its stable id as the ``id`` of its block. Chart links
(``../<game>/<page>.md#<id>``) are rewritten to the built pages (``use_directory_urls: false``: a page
``<game>/<page>.md`` is ``<game>/<page>.html``). Links written in Markdown are checked by
``mkdocs build --strict`` (with ``validation: anchors: warn`` in mkdocs.yml).

The generated Markdown is deterministic: the same rules and scenarios give the same bytes, wherever
the rules folder is. ``build`` makes, in one pass, everything ``make site`` publishes (the models, the
charts and timing tables, the traces, the pages, the site) and moves it into OUT as one unit.

Modules: ``markup`` (words, Markdown/HTML, links, chart files), ``inputs`` (compiling and running
what the site shows), ``nodes`` (node entries), ``pages`` (a game's pages), ``scenario_pages``,
``docs`` (every page, the navigation, the mkdocs configuration, the hand-written parts in ``data/``),
``publish`` (the one pass, mkdocs, moving into place).
"""
from __future__ import annotations

from .publish import OUTPUTS, BuildError, Built, build, draw_charts, move_into_place, run_mkdocs
from .docs import HAND_WRITTEN, generate, mkdocs_config, nav, write_docs
from .inputs import InputError, Inputs, ScenarioRun, collect, rule_files, scenario_files
from .markup import chart_file, node_page

__all__ = ["OUTPUTS", "HAND_WRITTEN", "BuildError", "Built", "InputError", "Inputs", "ScenarioRun", "build",
           "chart_file", "collect", "draw_charts", "generate", "mkdocs_config", "move_into_place", "nav",
           "node_page", "rule_files", "run_mkdocs", "scenario_files", "write_docs"]

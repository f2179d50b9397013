"""The command line's arguments: every command, its options and help. Imports nothing heavy, so that
``--version``, ``--help`` and usage errors are quick; a command's module is imported only to run it.
"""
from __future__ import annotations

from .. import __version__
import argparse
import sys

from ..core.text import LANGS
from ..present.formats import FORMATS


class Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: exit 2 with a short message (argparse's default)
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="tcgtiming", description="The timing of trading card game turns: validate, compile, "
                "simulate and chart rule definitions of a turn's phases, steps, check timings and priority windows.")
    p.add_argument("--version", action="version", version=f"tcgtiming {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    v = sub.add_parser("validate", help="check rule files and report every problem",
                       description="Check rule files (or every .yaml under a directory) and report every problem "
                       "as file:line:col: error[CODE]: message. Exit 0 when valid, 1 when invalid, 2 on usage errors.")
    v.add_argument("paths", nargs="+", metavar="PATH", help="rule files or directories")
    v.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for editors and CI")
    v.add_argument("--strict", action="store_true", help="treat warnings as errors")
    v.set_defaults(command_module="validate")

    c = sub.add_parser("compile", help="compile a rule file and print the model as JSON",
                       description="Compile a rule file into the timing graph (nodes with stable ids and explicit "
                       "edges) and print it as JSON. Exit 1 (with diagnostics) when the file is invalid.")
    c.add_argument("rules", metavar="RULES", help="a rule file or a directory of rule files")
    c.add_argument("--out", metavar="FILE", help="write to FILE (atomically) instead of standard output")
    c.set_defaults(command_module="compile")

    s = sub.add_parser("schema", help="print the JSON Schema of rule files, scenario files or ruling files",
                       description="Print the JSON Schema of rule files, scenario files or ruling files (for editors: "
                       "'# yaml-language-server: $schema=...'), write it, or check that a copy is current.")
    s.add_argument("--kind", choices=("rules", "scenario", "ruling"), default="rules", help="which file kind (default: rules)")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--out", metavar="FILE", help="write the schema to FILE")
    g.add_argument("--check", metavar="FILE", help="exit 1 when FILE differs from the current schema")
    s.set_defaults(command_module="schema")

    # --- render command (charts) ---
    r = sub.add_parser(
        "render", help="draw timing charts (graphviz SVG/PNG/DOT, Mermaid) and timing-chart tables",
        description="Draw the timing charts of rule files from the compiled model: per game the overview of "
        "the turn ('turn'), one chart per phase and one per procedure, as SVG, PNG, DOT or Mermaid; or, with "
        "--format table, the timing-chart table (rows in time order, own turn / opponent's turn, closed rows "
        "marked) as text on standard output, and as Markdown, HTML and text files when --out is given. "
        "Exit 0 when done, 1 when a rule file or the trace is invalid (diagnostics printed), 2 on usage errors.")
    r.add_argument("rules", metavar="RULES", help="a rule file or a directory of rule files")
    r.add_argument("--phase", metavar="ID", help="only this chart: a phase id, a procedure id, or 'turn' "
                   "(the overview); a step id means its phase")
    r.add_argument("--lang", action="append", choices=LANGS, metavar="ja|en",
                   help="label language (ja or en; give it twice for both; default ja)")
    r.add_argument("--format", action="append", choices=FORMATS + ("table",), dest="formats",
                   metavar="svg|png|dot|mermaid|table", help="output format (repeatable; default svg)")
    r.add_argument("--out", metavar="DIR", help="output folder (default build/charts; for 'table' only: "
                   "print to standard output unless --out is given)")
    r.add_argument("--trace", metavar="TRACE.jsonl", help="highlight the path of a simulation trace "
                   "(JSON Lines: seq, node, game)")
    r.add_argument("--no-cache", action="store_true", help="do not read or write the render cache")
    r.add_argument("--jobs", type=int, metavar="N", help="parallel graphviz runs (default: the number of cores)")
    r.set_defaults(command_module="render")

    # --- site command ---
    s = sub.add_parser(
        "site", help="build the static site (Japanese and English)",
        description="Generate the site, one language at a time (OUT/site/ja and OUT/site/en, the same pages in "
        "each, a switch between them), from the compiled rules, the runs of the shipped scenarios and the reference "
        "tables; the pages are rendered through Jinja2 templates (autoescaping on) and every link is checked. "
        "Everything in one pass (each rule file compiled once, each scenario run once, each chart drawn once): "
        "writes OUT/models (the compiled models), OUT/charts (charts and timing tables, ja and en), OUT/traces "
        "(the scenarios' traces) and OUT/site (open OUT/site/index.html), moved into place together only "
        "when everything succeeded. "
        "Exit 0 when done, 1 when a rule file or a scenario is invalid (diagnostics printed) or the build "
        "fails, 2 on usage errors.")
    s.add_argument("--out", metavar="DIR", default="build", help="output folder (default: build)")
    s.add_argument("--rules", metavar="DIR", default="rules",
                   help="the rules folder: <game>/game.yaml and <game>/scenarios/*.yaml (default: rules)")
    s.add_argument("--no-cache", action="store_true", help="do not read or write the chart render cache")
    s.add_argument("--jobs", type=int, metavar="N", help="parallel graphviz runs (default: the number of cores)")
    s.add_argument("--templates", metavar="DIR",
                   help="a folder of templates replacing the packaged ones by name (base.html, landing.html, 404.html)")
    s.set_defaults(command_module="site")

    sv = sub.add_parser(
        "serve", help="build the site, serve it on 127.0.0.1 and rebuild it when a rule or scenario file changes",
        description="The authoring loop: build the site into OUT (as 'site' does), serve OUT/site on 127.0.0.1, "
        "and rebuild whenever a file under the rules folder (or the templates folder) changes. The pages "
        "reload themselves after a rebuild; when a rebuild fails, they keep the last good site and show the "
        "located errors in a panel. A change in one game's folder rebuilds only that game's pages (the other "
        "pages stay as they are; the search index is made again as a whole), and only the charts whose drawing "
        "changed are drawn again (the chart cache). "
        "Ctrl-C stops. Exit 2 on usage errors (a missing folder, a port in use).")
    sv.add_argument("--rules", metavar="DIR", default="rules", help="the rules folder (default: rules)")
    sv.add_argument("--out", metavar="DIR", default="build", help="output folder (default: build)")
    sv.add_argument("--port", type=int, default=8000, help="the port on 127.0.0.1 (default 8000; 0: any free port)")
    sv.add_argument("--templates", metavar="DIR", help="a folder of templates replacing the packaged ones")
    sv.add_argument("--no-cache", action="store_true", help="do not read or write the chart render cache")
    sv.add_argument("--jobs", type=int, metavar="N", help="parallel graphviz runs (default: the number of cores)")
    sv.add_argument("--interval", type=float, default=0.5, metavar="SECONDS", help="how often files are checked "
                    "for changes (default 0.5)")
    sv.set_defaults(command_module="serve")

    # --- simulate command (the engine) ---
    sm = sub.add_parser("simulate", help="run a turn from a scenario and print the narrated trace",
                        description="Run the turn(s) a scenario describes on the compiled rules of its game and print "
                        "the trace: every node visited, who acts, pending abilities, the stack, who holds priority, "
                        "and the rule it follows. Exit 1 with located diagnostics when the scenario or the rules are "
                        "invalid, when a scripted choice cannot be carried out, or (with --strict) when a decision is "
                        "not scripted. Diagnostics go to standard error: standard output carries only the trace, "
                        "in every format.")
    sm.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="a scenario file (several with --out-dir)")
    sm.add_argument("--rules", metavar="DIR", help="the rules folder (or the game's rule file); default: the game.yaml "
                    "above the scenario's folder, or rules/<game>/game.yaml")
    sm.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                    help="text (colour-coded when on a terminal), json (JSON Lines), markdown")
    sm.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the narration (text, markdown, and the 'text' of each JSON line)")
    sm.add_argument("--strict", action="store_true", help="an unscripted decision is an error instead of a policy's pick")
    sm.add_argument("--policy", choices=("pass", "first", "random"), help="override the scenario's policy for unscripted decisions")
    sm.add_argument("--brief", action="store_true",
                    help="text and markdown: fold procedure runs in which nothing happens into their call (json keeps every entry)")
    out = sm.add_mutually_exclusive_group()
    out.add_argument("--out", metavar="FILE", help="write the trace to FILE (atomically) instead of standard output")
    out.add_argument("--out-dir", metavar="DIR", help="write DIR/<game>/<scenario>.txt, .jsonl and .md for each scenario")
    sm.set_defaults(command_module="simulate")

    pt = sub.add_parser("points", help="list every decision point of a game (node, who decides, options)",
                        description="List every decision point of a game: the node id, who decides, the options "
                        "and how a scenario's choice answers it (player actions, priority windows, chosen cards, "
                        "the order of pending abilities, rule processes with a choice). Exit 1 when the rule file "
                        "is invalid.")
    pt.add_argument("game", metavar="GAME", help="a rule file or a directory of rule files, or a game id under ./rules")
    pt.add_argument("--format", choices=("text", "json"), default="text")
    pt.add_argument("--lang", choices=LANGS, default="en", help="the language of labels (text)")
    pt.add_argument("--out", metavar="FILE", help="write to FILE (atomically) instead of standard output")
    pt.set_defaults(command_module="points")

    ck = sub.add_parser("check", help="check ruling files: run each and say whether its answer still holds",
                        description="Run ruling files (rules/<game>/rulings/*.yaml: a judge's question, its answer and "
                        "the facts the answer states of a scenario's run) like a test runner: one line per ruling, each "
                        "failure explained (expected vs found, located in the ruling file, the trace entries around it), "
                        "and a summary line. Exit 0 when every ruling holds, 1 when one fails or is invalid, 2 on usage "
                        "errors.")
    ck.add_argument("paths", nargs="*", metavar="PATH", help="ruling files, or folders to search for rulings/*.yaml "
                    "(default: rules)")
    ck.add_argument("--rules", metavar="DIR", help="the rules folder (default: the game.yaml above each ruling's folder)")
    ck.add_argument("--lang", choices=LANGS, default="en", help="language of the questions and trace entries (default en)")
    ck.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    ck.set_defaults(command_module="check")

    ex = sub.add_parser("explore", help="does the order matter? run every combination of a scenario's open decisions",
                        description="Run every legal combination of the decisions a scenario leaves open (each player's "
                        "order of their pending abilities, passes and plays in priority windows, options and optional "
                        "actions, paying costs, which card(s) to pick), merging runs that reach the same game state, and report the distinct "
                        "outcomes: how many combinations reach each, one of them as scenario choices, and the cards that "
                        "end differently. Exit 0 when every combination was run, 1 when the scenario or the rules are "
                        "invalid, 3 when --limit stopped the exploration first (the outcomes shown are then incomplete).")
    ex.add_argument("scenario", metavar="SCENARIO", help="a scenario file")
    ex.add_argument("--rules", metavar="DIR", help="the rules folder (or the game's rule file); default: as for simulate")
    ex.add_argument("--at", metavar="NODE", help="explore from the first decision at this node id (the decisions "
                    "before it follow the scenario's choices and policy)")
    ex.add_argument("--open", action="append", default=[], metavar="NODE", help="leave the decisions at this node "
                    "open even where the scenario scripts them (repeatable): 'what if they had been taken otherwise?'")
    ex.add_argument("--limit", type=int, default=100_000, metavar="N", help="at most N engine runs (default 100000)")
    ex.add_argument("--format", choices=("text", "json"), default="text")
    ex.add_argument("--lang", choices=LANGS, default="en", help="language of the text (default en)")
    ex.set_defaults(command_module="explore")

    _lookups(sub)

    k = sub.add_parser("codes", help="list every diagnostic code",
                       description="List every diagnostic code with its severity and meaning.")
    k.add_argument("--format", choices=("text", "json"), default="text")
    k.set_defaults(command_module="codes")
    r = sub.add_parser("reference", help="print the reference tables, or check or refresh the generated pages",
                       description="Print the generated reference tables (diagnostic codes, vocabulary, card effects, "
                       "commands, games), or check or refresh the generated blocks (between the HTML comments 'BEGIN "
                       "GENERATED: name' and 'END GENERATED: name') of the packaged guide pages and of the Markdown "
                       "files given (e.g. README.md). With --check, exit 1 when a block is stale or unknown.")
    r.add_argument("files", nargs="*", metavar="FILE", help="Markdown files with generated blocks besides the guide "
                   "pages (e.g. README.md)")
    mode = r.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 when a generated block of the guide pages or "
                      "of a FILE is stale")
    mode.add_argument("--update", action="store_true", help="rewrite the stale generated blocks of the guide pages "
                      "and of each FILE (the default when a FILE is given)")
    r.set_defaults(command_module="reference")
    return p


def _lookups(sub) -> None:
    """``when`` (may I play now?) and ``coverage`` (what the shipped scenarios visit)."""
    wh = sub.add_parser("when", help="may I play now? every timing where a kind of play is allowed, and every closed one",
                        description="From the compiled model (no simulation): every timing of GAME's turn, in time "
                        "order, where a kind of play is allowed (the window, who has priority first, who may act, how "
                        "it closes) and every closed timing where no one may play. Exit 1 when the rule file is "
                        "invalid, 2 when GAME or a filter names nothing.")
    wh.add_argument("game", metavar="GAME", help="a game id (rules/<GAME>/game.yaml) or a rule file")
    wh.add_argument("--play", action="append", metavar="KIND", help="only this kind of play (repeatable)")
    wh.add_argument("--player", choices=("turn", "non_turn"), help="seen from the turn player or the other player")
    wh.add_argument("--phase", metavar="P", help="only this phase or step (its id)")
    wh.add_argument("--format", choices=("text", "json"), default="text")
    wh.add_argument("--lang", choices=LANGS, default="en", help="language of the labels (default en)")
    wh.add_argument("--rules", metavar="DIR", default="rules", help="the rules folder (default: rules)")
    wh.set_defaults(command_module="when")

    cv = sub.add_parser("coverage", help="which nodes and edges of each game the shipped scenarios visit",
                        description="Run every shipped scenario (rules/<game>/scenarios/*.yaml) and report, per game, "
                        "the nodes and edges they visit; every node not visited is listed with the reason the model "
                        "gives (unreachable, a generated boundary control never reaches, …) or as reachable but "
                        "not yet visited. Exit 1 when a rule file or a scenario is invalid.")
    cv.add_argument("--format", choices=("text", "json"), default="text")
    cv.add_argument("--lang", choices=LANGS, default="en", help="language of the labels (default en)")
    cv.add_argument("--rules", metavar="DIR", default="rules", help="the rules folder (default: rules)")
    cv.add_argument("--game", action="append", metavar="GAME", help="only this game (repeatable)")
    cv.set_defaults(command_module="coverage")

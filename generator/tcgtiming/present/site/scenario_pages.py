"""The pages of the example scenarios: the list of a game's scenarios, and one page per scenario (what
it demonstrates, its set-up and outcome, its path drawn over the turn chart, the traces in Japanese
and in English with their node ids linked, the scenario file)."""
from __future__ import annotations

import html
import re

from ...core.model import Game, Text
from ...core.words import WORDS
from .inputs import ScenarioRun
from .markup import bi, both, cite_md, code, esc, front_matter, heading, link_node, node_page, para, rel
from .pages import Pages

_TRACE_ROW = re.compile(r"^\| (\d+) \| `([^`]+)` \|", re.MULTILINE)


def trace_markdown(game: Game, sr: ScenarioRun, lang: str, page: str) -> str:
    """The interpreter's Markdown trace, each node id a link to its entry."""
    from ...runtime.trace import as_markdown

    text = as_markdown(sr.run, sr.names, lang)

    def row(mo):
        nid = mo.group(2)
        if nid not in game.nodes:
            return mo.group(0)
        return f"| {mo.group(1)} | [`{nid}`]({rel(page, node_page(game, game.nodes[nid]), nid)}) |"

    return _TRACE_ROW.sub(row, text)


def scenario_page(p: Pages, game: Game, sr: ScenarioRun) -> str:
    sc, run = sr.scenario, sr.run
    page = f"{game.id}/scenarios/{sr.stem}.md"
    out = [front_matter(f"{sc.title.ja} / {sc.title.en} — {game.name.ja}")]
    out.append(f"# {heading(sc.title.ja, sc.title.en)}\n")
    out.append(para(f"{link_node(game, page, game.turn.begin, bi(game.name))} · "
                    f"[{esc(both('scenarios'))}](index.md) · {code(sc.id)}", "tcg-crumbs"))
    out.append(f"## {heading(WORDS['site.demonstrates'][0], WORDS['site.demonstrates'][1])}\n")
    if sc.demonstrates is not None:
        out.append(f'<div class="tcg-demo" markdown="1">\n\n{para(esc(sc.demonstrates.ja), lang="ja")}\n'
                   f'{para(esc(sc.demonstrates.en), lang="en")}\n</div>\n')
    else:
        out.append("—\n")
    names = sr.names
    facts = [
        f"{both('turn_player')}: {esc(names.get(sc.turn_player, sc.turn_player))} ({code(sc.turn_player)})",
        f"{both('first_turn')}: {both('yes') if sc.first_turn else both('no')}",
        f"{both('turns_run')}: {sc.turns} · {both('seed')}: {sc.seed} · {both('policy')}: {code(sc.policy)}",
        f"{both('players')}: " + ", ".join(f"{esc(name)} ({code(pid)})" for pid, name, _ in sc.players),
        f"{both('outcome')}: {code(run.result)}" + (f" — {', '.join(esc(names.get(x, x)) for x in run.losers)}"
                                                    if run.losers else "") + f" · {len(run.entries)} {both('entries')}",
    ]
    if sc.cites:
        facts.append(f"{both('cites')}: " + "; ".join(cite_md(game, c, page) for c in sc.cites))
    out.append("\n## " + heading(*WORDS["site.setup"]) + "\n")
    out.append("\n".join(f"- {x}" for x in facts) + "\n")
    out.append(f"\n## {heading(WORDS['site.trace_chart'][0], WORDS['site.trace_chart'][1])}\n")
    out.append(p.charts_block(page, f"overlays/{game.id}/{sr.stem}", Text(f"{sc.title.ja}のトレース",
                                                                             f"the trace of {sc.title.en}")))
    out.append(f"\n## {heading(WORDS['site.trace_ja'][0], WORDS['site.trace_ja'][1])}\n")
    out.append(f'<div class="tcg-trace" lang="ja" markdown="1">\n\n{trace_markdown(game, sr, "ja", page)}\n</div>\n')
    out.append(f"\n## {heading(WORDS['site.trace_en'][0], WORDS['site.trace_en'][1])}\n")
    out.append(f'<div class="tcg-trace" lang="en" markdown="1">\n\n{trace_markdown(game, sr, "en", page)}\n</div>\n')
    out.append(f"\n<details class=\"tcg-source\">\n<summary>{esc(both('scenario_file'))}: {code(sr.shown)}</summary>\n"
               f'<pre><code class="language-yaml">{html.escape(sr.text, quote=False)}</code></pre>\n</details>\n')
    return "\n".join(out)


def scenarios_index(game: Game, runs: list[ScenarioRun]) -> str:
    page = f"{game.id}/scenarios/index.md"
    out = [front_matter(f"{WORDS['site.scenarios'][0]} / {WORDS['site.scenarios'][1]} — {game.name.ja}")]
    out.append(f"# {heading(WORDS['site.scenarios'][0] + ' — ' + game.name.ja, WORDS['site.scenarios'][1] + ' — ' + game.name.en)}\n")
    out.append(para(link_node(game, page, game.turn.begin, bi(game.name)), "tcg-crumbs"))
    for sr in runs:
        sc = sr.scenario
        out.append(f"## [{bi(sc.title)}]({sr.stem}.md)\n")
        if sc.demonstrates is not None:
            out.append(para(esc(sc.demonstrates.ja), lang="ja") + "\n" + para(esc(sc.demonstrates.en), lang="en"))
        out.append(f"{code(sc.id)} · {code(sr.run.result)} · {len(sr.run.entries)} {both('entries')}\n")
    return "\n".join(out)


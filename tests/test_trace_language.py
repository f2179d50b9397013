"""A trace is narrated in one language at a time: with the names the rules and the scenario give
masked, a Japanese trace has no Latin letter left and an English one no Japanese character - every
other word comes from the catalogue (``core.words``), which has both languages for every key."""
import dataclasses
import html
import re
from pathlib import Path

import pytest

from tcgtiming.core.words import WORDS
from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.runtime.engine import simulate
from tcgtiming.runtime.trace import as_jsonl, as_markdown, as_text

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "rules").glob("*/scenarios/*.yaml"))
LATIN = re.compile(r"[A-Za-z]+")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]+")


def given_names(game, sc, lang):
    """Every name the rules and the scenario give: ids, labels and names in the language, card and player names."""
    out = set()

    def text(t):
        if t is not None:
            out.add(t.get(lang))

    for n in game.nodes.values():
        out.add(n.id)
        text(n.label)
        out.update(str(c) for c in n.cites)
        for c in n.choices:
            out.add(c.id)
            text(c.label)
        out.update(f"{k}={v}" for k, v in n.call_args)
    for c in game.containers.values():
        text(c.label)
    for reg in (game.zones, game.events, game.roles, game.plays, game.rule_processes):
        for x in reg.values():
            out.add(x.id)
            text(x.name)
    for items in game.lists.values():
        for it in items:
            text(it.name)
    for pid, name, _ in sc.players:
        out.update((pid, name))
    for card in sc.cards.values():
        out.update((card.id, card.name, card.type, *card.traits, *card.triggers))
        for ab in card.abilities:
            out.update((ab.id, ab.label))
    return sorted((x for x in out if x), key=len, reverse=True)


def masked(text, names):
    for name in names:
        text = text.replace(name, "\x00")
    return text


def runs():
    for path in SCENARIOS:
        res = compile_file(path, str(path.relative_to(ROOT)))
        yield path, res.game, res.scenario, simulate(res.game, res.scenario, strict=True)
        # unscripted: the policy decides (its words are narrated too)
        sc = dataclasses.replace(res.scenario, policy="random", choices=(), seed=1)
        try:
            yield path, res.game, sc, simulate(res.game, sc)
        except Exception:  # a random run may stop on a located error; the scripted one is checked anyway
            pass


RUNS = list(runs())


@pytest.mark.parametrize("path,game,sc,run", RUNS, ids=[f"{p.parent.parent.name}/{p.stem}/{s.policy}" for p, _, s, _ in RUNS])
def test_a_japanese_trace_has_no_english_word_but_given_names(path, game, sc, run):
    names = given_names(game, sc, "ja")
    for text in (as_text(run, None, "ja"), html.unescape(as_markdown(run, None, "ja", brief=True)),  # what a reader sees
                 "".join(line.split('"text": ')[1] for line in as_jsonl(run, "ja").splitlines())):
        left = LATIN.findall(masked(text, names))
        assert left == [], sorted(set(left))


@pytest.mark.parametrize("path,game,sc,run", RUNS, ids=[f"{p.parent.parent.name}/{p.stem}/{s.policy}" for p, _, s, _ in RUNS])
def test_an_english_trace_has_no_japanese(path, game, sc, run):
    names = given_names(game, sc, "en")
    for text in (as_text(run, None, "en"), html.unescape(as_markdown(run, None, "en", brief=True))):
        left = JAPANESE.findall(masked(text, names))
        assert left == [], sorted(set(left))


def test_the_catalogue_has_both_languages_and_the_same_arguments():
    for key, (ja, en) in WORDS.items():
        assert ja and en, key
        words_ja = re.sub(r"\{[^}]*\}", "", ja)  # the arguments' places are not words
        assert not LATIN.search(words_ja) or key.startswith(("site.", "chart.", "table.")), key  # trace words: no English
        def args(s):
            return sorted(re.findall(r"\{(\d*)[^}]*\}", s))
        if key.startswith(("trace.", "event.", "kind.", "state.", "stat.", "icon.", "policy.", "ability.")):
            assert not JAPANESE.search(en), key
            if "{0}" in ja or "{0}" in en:  # indexed: one language may leave an argument out
                assert set(args(ja)) <= set(args(en)) or set(args(en)) <= set(args(ja)), key
            else:
                assert len(args(ja)) == len(args(en)), key


def test_every_event_code_the_engine_makes_has_words():
    """Every event of every shipped run is rendered from the catalogue (or a rule or scenario name),
    never from a code: an unknown code would show as itself."""
    from tcgtiming.runtime.narrate import RENDER
    codes = set()
    for _, _, _, run in RUNS:
        def walk(ev):
            codes.add(ev[0])
            for a in ev[1:]:
                if isinstance(a, tuple) and a and isinstance(a[0], str) and a[0].isidentifier() and a[0] not in \
                        {c.id for c in run.setup.cards.values()}:
                    if a[0] in RENDER or f"event.{a[0]}" in WORDS:
                        walk(a)
        for e in run.entries:
            walk(e.event)
    unknown = {c for c in codes if c not in RENDER and f"event.{c}" not in WORDS}
    assert unknown == set()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_simulate_lang_ja_prints_no_english_word_but_given_names(cli, path):
    """The command itself, as a reader runs it (its text is streamed entry by entry)."""
    res = compile_file(path, str(path.relative_to(ROOT)))
    code, out, _ = cli("simulate", path, "--lang", "ja", "--strict")
    assert code == 0
    assert LATIN.findall(masked(out, given_names(res.game, res.scenario, "ja"))) == []
    code, out, _ = cli("simulate", path, "--lang", "en", "--strict")
    assert code == 0 and JAPANESE.findall(masked(out, given_names(res.game, res.scenario, "en"))) == []

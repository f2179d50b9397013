"""The code generator: the generated Python runs the same turn as the interpreter, node by node."""
import os
import sys
from pathlib import Path

import pytest

from conftest import MINI, ROOT
from tcgtiming.runtime.codegen import Unsupported, compile_scenario
from tcgtiming.frontend.pipeline import compile_document, compile_file
from tcgtiming.runtime.engine import simulate
from tcgtiming.frontend.loader import load_bytes

sys.path.insert(0, str(ROOT / "benchmarks" / "anchor"))
from model import GAME, project, scenario_yaml  # noqa: E402

ANCHORS = Path(os.environ.get("TCGTIMING_SHARED", ROOT.parent / "shared")) / "bench" / "anchors"


class Sc:
    """The anchors' scenario parameters (as in their scenario.py), for when the anchors are absent."""

    def __init__(self, plays=3, attacks=(True, False, True), hand=10, end_repeats=1, tp_every=3, ntp_every=0):
        self.plays, self.attacks, self.hand = plays, attacks, hand
        self.end_repeats, self.tp_every, self.ntp_every = end_repeats, tp_every, ntp_every


CASES = [Sc(), Sc(plays=0, attacks=(), hand=7, end_repeats=0), Sc(plays=5, attacks=(True, True, True), hand=12, end_repeats=2),
         Sc(ntp_every=4), Sc(tp_every=1, ntp_every=1), Sc(plays=2, attacks=(True, False), tp_every=2, ntp_every=3, end_repeats=2)]


def load(sc):
    game = compile_file(GAME).game
    res = compile_document(load_bytes(scenario_yaml(sc).encode(), "s.yaml"), rules=str(GAME))
    assert res.scenario is not None, res.diagnostics
    return game, res.scenario


@pytest.mark.parametrize("sc", CASES, ids=range(len(CASES)))
def test_generated_code_visits_the_same_nodes_as_the_interpreter(sc):
    game, scenario = load(sc)
    want = [e.node for e in simulate(game, scenario).entries]
    got = compile_scenario(game, scenario).run_turn()  # default trace: every node id
    assert got == want
    assert len(got) > 100


@pytest.mark.parametrize("sc", CASES, ids=range(len(CASES)))
def test_projection_onto_the_anchor_names(sc):
    game, scenario = load(sc)
    fast = compile_scenario(game, scenario, project).run_turn()
    slow = [n for n in (project(game.nodes[e.node]) for e in simulate(game, scenario).entries) if n]
    assert fast == slow
    assert fast.count("check_timing") == slow.count("check_timing") > 10


@pytest.mark.skipif(not ANCHORS.is_dir(), reason=f"the benchmark anchors are not at {ANCHORS}")
def test_same_trace_as_the_hand_written_anchor():
    sys.path.insert(0, str(ANCHORS))
    from scenario import VERIFY
    from ws_turn_handwritten import HandwrittenEngine

    for sc in VERIFY:
        game, scenario = load(sc)
        assert compile_scenario(game, scenario, project).run_turn() == HandwrittenEngine(sc).run_turn()


def test_each_turn_starts_afresh():
    game, scenario = load(Sc())
    c = compile_scenario(game, scenario, project)
    assert c.run_turn() == c.run_turn()


def test_unsupported_constructs_name_the_node(tmp_path):
    from test_interpreter import BASE

    path = tmp_path / "s.yaml"
    path.write_text(BASE, encoding="utf-8")
    res = compile_file(path, rules=str(MINI))
    with pytest.raises(Unsupported) as exc:
        compile_scenario(res.game, res.scenario)
    assert str(exc.value) == "'damage.1': action 'deal_damage' is not compiled yet"


def test_generated_source_is_deterministic():
    game, scenario = load(Sc())
    assert compile_scenario(game, scenario).source == compile_scenario(game, scenario).source

"""The one pass of `tcgtiming site` (what `make site` runs): each rule file compiled once, each scenario
run once, each chart drawn once; the set of outputs moved into OUT as one unit; nothing printed below
the command line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import ROOT
from tcgtiming.core.text import LANGS
from tcgtiming.present import charts, site

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def aquarian(tmp_path, monkeypatch):
    """A rules folder with one shipped game and its scenarios (not its rulings: each ruling is a file of its own
    to compile and a run of its own), given as a relative path (as the Makefile does)."""
    shutil.copytree(ROOT / "rules" / "aquarian", tmp_path / "rules" / "aquarian", ignore=shutil.ignore_patterns("rulings"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TCGTIMING_CACHE_DIR", str(tmp_path / "cache"))
    return "rules"


def test_each_rule_file_is_compiled_once_each_scenario_run_once_each_chart_drawn_once(aquarian, tmp_path,
                                                                                    monkeypatch):
    from tcgtiming.frontend import pipeline
    from tcgtiming.runtime import engine

    compiled, ran, drawn = [], [], []
    compile_file, simulate, run_jobs = pipeline.compile_file, engine.simulate, charts.run_jobs

    def counting_compile(path, *args, **kwargs):
        compiled.append(Path(path).as_posix())
        return compile_file(path, *args, **kwargs)

    def counting_simulate(game, scenario, **kwargs):
        ran.append(scenario.file)
        return simulate(game, scenario, **kwargs)

    def counting_jobs(jobs, folder, cache, workers=None):
        jobs = list(jobs)
        drawn.extend(job.rel for job in jobs)
        return run_jobs(jobs, folder, cache, workers)

    monkeypatch.setattr(pipeline, "compile_file", counting_compile)
    monkeypatch.setattr(engine, "simulate", counting_simulate)
    monkeypatch.setattr(charts, "run_jobs", counting_jobs)
    built = site.build(aquarian, tmp_path / "out", cache=tmp_path / "cache")

    assert compiled == ["rules/aquarian/game.yaml"]  # the scenarios are checked against that one compilation
    scenarios = site.scenario_files(aquarian)
    assert len(scenarios) >= 5 and sorted(ran) == scenarios
    game = built.inputs.games[0]
    assert len(drawn) == len(set(drawn))
    assert {r for r in drawn if r.startswith("charts/")} == {
        f"charts/aquarian/{c}.{lang}.svg" for c in charts.chart_ids(game) for lang in LANGS}
    assert len([r for r in drawn if r.startswith("overlays/")]) == len(LANGS) * len(scenarios)
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == sorted(site.OUTPUTS)  # no temporary folder left
    assert not list((out / "charts").rglob("scenarios"))  # the runs drawn over the chart live on the pages only


def test_the_one_pass_writes_what_the_separate_commands_write(aquarian, cli, tmp_path):
    """models/ as `compile`, charts/ as `render --format svg --format table` (ja, en), traces/ as
    `simulate --strict --out-dir`: the same files, byte for byte."""
    code, stdout, stderr = cli("site", "--rules", aquarian, "--out", "out")
    assert code == 0, stdout + stderr
    assert stdout.splitlines() == [
        f"outputs: {(tmp_path / 'out').resolve()}/ (models/: compiled models; charts/: charts and timing tables; "
        "traces/: example simulations; site/: the site, ja/ and en/)",
        f"site: {(tmp_path / 'out' / 'site' / 'index.html').resolve()}"]
    assert stderr == ""
    sep = tmp_path / "separate"
    assert cli("compile", "rules/aquarian/game.yaml", "--out", sep / "models" / "aquarian.json")[0] == 0
    assert cli("render", aquarian, "--lang", "ja", "--lang", "en", "--format", "svg", "--format", "table",
               "--out", sep / "charts")[0] == 0
    assert cli("simulate", *site.scenario_files(aquarian), "--strict", "--out-dir", sep / "traces")[0] == 0
    for name in ("models", "charts", "traces"):
        mine, theirs = _tree(tmp_path / "out" / name), _tree(sep / name)
        assert mine.keys() == theirs.keys(), name
        assert mine == theirs, name


def test_the_outputs_replace_the_previous_ones_and_nothing_else(aquarian, cli, tmp_path):
    out = tmp_path / "out"
    (out / "charts" / "gone").mkdir(parents=True)
    (out / "charts" / "gone" / "old.svg").write_text("stale", encoding="utf-8")
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert cli("site", "--rules", aquarian, "--out", "out")[0] == 0
    assert not (out / "charts" / "gone").exists()  # charts/ is replaced as a whole: no stale chart
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"  # what is not ours stays
    assert sorted(p.name for p in out.iterdir()) == sorted(site.OUTPUTS + ("notes.txt",))


def _site_snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_the_site_killed_at_any_point_leaves_the_old_outputs_or_the_new(tmp_path):
    """kill -9 during a build (at sampled file operations, and at each of the last ones, where the
    outputs are swapped in): OUT holds the old set or the new set, never a mix; the next run finishes
    and leaves nothing behind. A file of the user's in OUT is kept."""
    import random
    import signal

    from test_outputs import _crash

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", rules / "mini")
    (rules / "mini" / "scenarios").mkdir(exist_ok=True)
    for extra in (rules / "mini" / "scenarios").glob("*.yaml"):
        extra.unlink()  # the fixture's scenarios are not all strict-clean; the rules alone make a site
    args = lambda out: ["site", "--rules", str(rules), "--out", str(out), "--jobs", "1", "--no-cache"]  # noqa: E731
    base = tmp_path / "base"
    assert _crash(0, *args(base / "out")) == 0
    (base / "out" / "mine.txt").write_text("the user's", encoding="utf-8")
    old = _site_snapshot(base / "out")
    text = (rules / "mini" / "game.yaml").read_text(encoding="utf-8")
    (rules / "mini" / "game.yaml").write_text(text.replace("en: start phase", "en: the start phase", 1), encoding="utf-8")
    fresh = tmp_path / "fresh"
    shutil.copytree(base, fresh)
    count = tmp_path / "count"
    assert _crash(0, *args(fresh / "out"), count=count) == 0
    new = _site_snapshot(fresh / "out")
    assert new != old and new["mine.txt"] == old["mine.txt"]
    n = int(count.read_text())
    rng = random.Random(7)
    points = sorted(set(rng.sample(range(1, n + 1), 2) + list(range(max(1, n - 3), n + 1))))
    run = tmp_path / "run"
    for k in points:
        shutil.rmtree(run, ignore_errors=True)
        shutil.copytree(base, run)
        assert _crash(k, *args(run / "out")) == -signal.SIGKILL
        seen = _site_snapshot(run / "out")
        assert seen in (old, new), f"killed at operation {k} of {n}: a mix of old and new outputs"
    assert _crash(0, *args(run / "out")) == 0
    assert _site_snapshot(run / "out") == new
    assert sorted(p.name for p in run.iterdir()) == ["out"]  # no staging or old folder left beside it


def test_collect_prints_nothing_and_raises_what_it_found(tmp_path, capsys):
    rules = tmp_path / "rules"
    (rules / "broken").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "fixtures" / "broken" / "five_mistakes.yaml", rules / "broken" / "game.yaml")
    with pytest.raises(site.InputError) as exc:
        site.collect(str(rules))
    [(results, files)] = exc.value.invalid
    assert files == [str(rules / "broken" / "game.yaml")] and results[0].errors and not exc.value.failed
    shutil.rmtree(rules / "broken")
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", rules / "mini")
    lanes = rules / "mini" / "scenarios" / "lanes.yaml"  # Alice's choice to play her quick card, unscripted
    lanes.write_text("".join(line for line in lanes.read_text(encoding="utf-8").splitlines(keepends=True)
                             if "at: battle.free.1" not in line), encoding="utf-8")
    with pytest.raises(site.InputError) as exc:
        site.collect(str(rules))
    assert not exc.value.invalid and exc.value.scenarios == 1
    assert [d.code for d, _ in exc.value.failed] == ["R501"]
    assert capsys.readouterr() == ("", "")

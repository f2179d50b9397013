"""Property: any mutation of a valid rule file is either valid or gets located diagnostics, never a crash."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import MINI
from tcgtiming.core.diagnostics import CODES
from tcgtiming.frontend.pipeline import compile_document
from tcgtiming.frontend.loader import load_bytes
from tcgtiming.present.report import format_text

TEXT = MINI.read_text(encoding="utf-8")
LINES = TEXT.splitlines(keepends=True)
SNIPPETS = ["no", "yes", "1:30", "&a ", "*a", "\t", ": ", "- ", "{", "}", "[", "]", "kind: ", "id: ", "'", '"',
            "goto", "target: 9", "cite: x#y", "日本", "\x00", "\\", "#", "---\n", "!!python/none ", "~", "-1", "  "]


@st.composite
def mutated(draw):
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "indent", "dedent", "replace_word"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "insert":
            line = lines[i]
            pos = draw(st.integers(0, len(line)))
            piece = draw(st.one_of(st.sampled_from(SNIPPETS), st.text(max_size=4)))
            lines[i] = line[:pos] + piece + line[pos:]
        elif op == "indent":
            lines[i] = "  " + lines[i]
        elif op == "dedent":
            lines[i] = lines[i][2:] if lines[i].startswith("  ") else lines[i]
        elif op == "replace_word":
            words = lines[i].split(" ")
            k = draw(st.integers(0, len(words) - 1))
            words[k] = draw(st.sampled_from(SNIPPETS + ["label", "lable", "nodes", "check", "turn_player", "x"]))
            lines[i] = " ".join(words)
    return "".join(lines)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutations_are_valid_or_located(text):
    raw = text.encode("utf-8", "surrogatepass") if text else b""
    doc = load_bytes(raw, "mutant.yaml")
    res = compile_document(doc)
    nlines = max(1, len(text.splitlines()) + 1)
    if res.game is None:
        assert res.errors, "no model but no error"
    else:
        assert not res.errors
    for d in res.diagnostics:
        assert d.code in CODES
        assert 1 <= d.line <= nlines and d.col >= 1, d
        rendered = format_text(d, doc.line_text(d.line) if doc.text else None)
        assert rendered.startswith(f"mutant.yaml:{d.line}:{d.col}: {d.severity}[{d.code}]: ")


def test_the_unmutated_file_is_valid():
    res = compile_document(load_bytes(TEXT.encode(), "mini.yaml"))
    assert res.game is not None and res.diagnostics == []


SCENARIO = MINI.parent.parent.parent.parent / "rules" / "ws" / "scenarios" / "front-attack-counter.yaml"
SC_LINES = SCENARIO.read_text(encoding="utf-8").splitlines(keepends=True)


@st.composite
def mutated_scenario(draw):
    lines = list(SC_LINES)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "insert", "replace_word"]))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "insert":
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + draw(st.sampled_from(SNIPPETS + ["card: x", "take: pass", "at: end.1"])) + lines[i][pos:]
        else:
            words = lines[i].split(" ")
            k = draw(st.integers(0, len(words) - 1))
            words[k] = draw(st.sampled_from(SNIPPETS + ["a-att", "front", "stop", "counter", "p1", "stage"]))
            lines[i] = " ".join(words)
    return "".join(lines)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_scenario())
def test_scenario_mutations_are_valid_or_located_and_valid_ones_run(text):
    from tcgtiming.runtime.engine import SimulationError, simulate

    doc = load_bytes(text.encode("utf-8", "surrogatepass"), str(SCENARIO))
    res = compile_document(doc)
    for d in res.diagnostics:
        assert d.code in CODES and d.line >= 1, d
    if res.scenario is not None:
        try:
            simulate(res.game, res.scenario)
        except SimulationError as exc:
            assert exc.code.startswith("R5") and exc.loc is not None


# --- the site build: a mutated game either builds a site whose every link resolves, or is refused
# --- with located diagnostics and leaves the output folder as it was (few examples: a build takes
# --- seconds; make fuzz runs the CLI at length)


@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                                  HealthCheck.function_scoped_fixture])
@given(mutated())
def test_a_mutated_game_builds_a_whole_site_or_is_refused_with_locations(tmp_path_factory, text):
    import shutil

    from tcgtiming.present import site

    if shutil.which("dot") is None:
        return
    base = tmp_path_factory.mktemp("sitefuzz")
    (base / "rules" / "mini").mkdir(parents=True)
    (base / "rules" / "mini" / "game.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
    out = base / "out"
    out.mkdir()
    (out / "keep.txt").write_text("before", encoding="utf-8")
    try:
        built = site.build(str(base / "rules"), out, cache=base / "cache")
    except site.InputError as exc:
        for results, _files in exc.invalid:
            for r in results:
                assert r.errors
                for d in r.diagnostics:
                    assert d.line >= 1 and d.col >= 1, d
        assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]  # nothing half-written
        return
    assert built.out == out
    assert (out / "site" / "ja" / "mini" / "turn.html").is_file()
    assert site.check_links(out / "site") == []
    assert (out / "keep.txt").read_text(encoding="utf-8") == "before"

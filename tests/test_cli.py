"""The command line: exit codes, diagnostics format, JSON, help and version."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import MINI, ROOT

FIVE = ROOT / "tests" / "fixtures" / "broken" / "five_mistakes.yaml"


def test_fixture_game_is_valid(cli):
    code, out, _ = cli("validate", MINI)
    assert code == 0
    assert out.strip() == "ok: 1 file checked, no problems"


def test_five_planted_mistakes_give_five_located_diagnostics(cli):
    code, out, _ = cli("validate", FIVE)
    assert code == 1
    heads = [ln for ln in out.splitlines() if ln.startswith(str(FIVE))]
    assert len(heads) == 5, out
    found = {(h.split(":")[1], h.split(": ")[1].split("]")[0]) for h in heads}
    assert found == {("93", "error[S201"), ("108", "error[C302"), ("117", "error[C307"),
                     ("122", "error[C303"), ("156", "error[S205")}
    assert "5 errors, 0 warnings in 1 file" in out


def test_text_diagnostic_shows_source_line_caret_and_hint(cli):
    _, out, _ = cli("validate", FIVE)
    block = out.split("\n\n")[0].splitlines()
    assert block[0] == f"{FIVE}:93:7: error[S201]: unknown key 'lable' in a phase"
    assert block[2] == "93 |       lable: {ja: 開始フェイズ, en: start phase}"
    assert block[3] == "   |       ^^^^^"
    assert block[4] == "  = help: did you mean 'label'?"


def test_caret_is_aligned_under_wide_characters(cli, variant):
    path = variant(("name: {ja: ミニ, en: Mini}", "name: {ja: ミニ, en: Mini, de: Mini}"))
    code, out, _ = cli("validate", path)
    assert code == 1
    lines = out.splitlines()
    src = next(i for i, ln in enumerate(lines) if "de: Mini}" in ln)
    caret = lines[src + 1]
    # 'ミニ' is two wide characters: the caret sits under 'de' in display columns
    prefix = lines[src].split("| ", 1)[1]
    wide = prefix[: prefix.index("de:")]
    width = sum(2 if "\u3000" <= ch <= "\u9fff" or "\u30a0" <= ch <= "\u30ff" else 1 for ch in wide)
    assert caret.split("| ", 1)[1] == " " * width + "^^"


def test_json_format_has_the_same_diagnostics(cli):
    code, out, _ = cli("validate", "--format", "json", FIVE)
    assert code == 1
    data = json.loads(out)
    assert data["errors"] == 5 and data["warnings"] == 0
    assert [d["code"] for d in data["diagnostics"]] == ["S201", "C302", "C307", "C303", "S205"]
    first = data["diagnostics"][0]
    assert (first["line"], first["col"], first["length"], first["help"]) == (93, 7, 5, "did you mean 'label'?")


def test_json_for_a_valid_file(cli):
    code, out, _ = cli("validate", "--format", "json", MINI)
    assert code == 0 and json.loads(out)["diagnostics"] == []


def test_missing_path_is_a_usage_error(cli, tmp_path):
    code, _, err = cli("validate", tmp_path / "nope.yaml")
    assert code == 2 and "U401" in err and "nope.yaml" in err


def test_directory_without_yaml_is_a_usage_error(cli, tmp_path):
    code, _, err = cli("validate", tmp_path)
    assert code == 2 and "no .yaml file" in err


def test_bad_option_is_a_usage_error(cli):
    code, _, err = cli("validate", "--format", "xml", MINI)
    assert code == 2 and "invalid choice" in err


def test_no_command(cli):
    code, _, err = cli()
    assert code == 2 and "validate" in err


def test_directory_is_walked_and_all_files_reported(cli, tmp_path, mini_text):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "game.yaml").write_text(mini_text, encoding="utf-8")
    (tmp_path / "b.yaml").write_text("game: [\n", encoding="utf-8")
    (tmp_path / "c.yml").write_text("", encoding="utf-8")
    code, out, _ = cli("validate", tmp_path)
    assert code == 1
    assert "b.yaml:2:1: error[Y101]" in out and "c.yml:1:1: error[Y109]" in out
    assert "2 errors, 0 warnings in 3 files" in out


def test_warnings_pass_unless_strict(cli, variant):
    path = variant(("  - {id: turn_start, name: {ja: ターン開始時, en: start of the turn}}",
                    "  - {id: turn_start, name: {ja: ターン開始時, en: start of the turn}}\n"
                    "  - {id: spare, name: {ja: 予備, en: spare}}"))
    code, out, _ = cli("validate", path)
    assert code == 0 and "warning[C315]: event 'spare' is defined but no trigger point" in out
    code, _, _ = cli("validate", "--strict", path)
    assert code == 1


@pytest.mark.parametrize("sub", ["validate", "compile", "schema", "codes", "reference"])
def test_every_subcommand_has_help(cli, sub):
    code, out, _ = cli(sub, "--help")
    assert code == 0 and out.startswith(f"usage: tcgtiming {sub}")


def test_version(cli):
    from tcgtiming import __version__
    code, out, _ = cli("--version")
    assert code == 0 and out.strip() == f"tcgtiming {__version__}"


def test_compile_prints_the_model(cli):
    code, out, _ = cli("compile", MINI)
    assert code == 0
    data = json.loads(out)
    assert data["id"] == "mini"
    assert data["nodes"]["main.play"]["kind"] == "player"


def test_compile_refuses_an_invalid_file_and_writes_nothing(cli, tmp_path):
    out_file = tmp_path / "out" / "model.json"
    code, out, _ = cli("compile", FIVE, "--out", out_file)
    assert code == 1 and "5 errors" in out
    assert not out_file.exists() and not (tmp_path / "out").exists()


def test_compile_output_is_byte_identical(cli, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert cli("compile", MINI, "--out", a)[0] == 0
    assert cli("compile", MINI, "--out", b)[0] == 0
    assert a.read_bytes() == b.read_bytes()


def test_committed_json_schema_is_current(cli):
    code, out, err = cli("schema", "--check", ROOT / "schema" / "tcgtiming-rules.schema.json")
    assert code == 0, err


def test_schema_check_fails_when_stale(cli, tmp_path):
    stale = tmp_path / "s.json"
    stale.write_text("{}\n", encoding="utf-8")
    code, _, err = cli("schema", "--check", stale)
    assert code == 1 and "stale" in err


def test_codes_lists_every_code(cli):
    from tcgtiming.core.diagnostics import CODES

    code, out, _ = cli("codes", "--format", "json")
    assert code == 0 and [c["code"] for c in json.loads(out)] == list(CODES)


def test_console_script_runs_without_traceback(tmp_path):
    """The installed entry point, as a user runs it, on a hostile file."""
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    exe = Path(sys.executable).parent / "tcgtiming"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "tcgtiming.cli.main"]
    proc = subprocess.run(cmd + ["validate", str(bad)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "error[Y108]" in proc.stdout


@pytest.mark.parametrize("args", [
    ("simulate", ROOT / "rules/ws/scenarios/encore.yaml", "--out-dir", "/proc/no/such/dir"),
    ("compile", MINI, "--out", "/proc/no/such/dir/model.json"),
    ("schema", "--out", "/proc/no/such/dir/schema.json"),
])
def test_an_output_that_cannot_be_written_is_a_usage_error(cli, args):
    code, out, err = cli(*args)
    assert code == 2 and "error: cannot write /proc/no" in err and "Traceback" not in err + out

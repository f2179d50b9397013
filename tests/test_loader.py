"""Hostile and broken input: each gets one clear, located diagnostic, never an exception."""
import pytest

from tcgtiming.frontend.pipeline import compile_file
from tcgtiming.frontend.loader import MAX_BYTES, load, load_bytes


def only(doc_or_result):
    diags = doc_or_result.diagnostics
    assert len(diags) == 1, [(d.code, d.line, d.col, d.message) for d in diags]
    return diags[0]


def test_malformed_yaml_is_located():
    d = only(load_bytes(b"game:\n  id: x\n  name: {ja: a, en: b\nturn: 1\n", "f.yaml"))
    assert (d.code, d.line) == ("Y101", 4)
    assert d.message.startswith("YAML syntax:")


def test_value_with_colon_hints_at_quoting():
    d = only(load_bytes(b"game:\n  note: a: b\n", "f.yaml"))
    assert (d.code, d.line, d.col) == ("Y101", 2, 10)
    assert "quoted" in d.help


def test_tab_in_indentation():
    d = only(load_bytes(b"game:\n\tid: x\n", "f.yaml"))
    assert (d.code, d.line, d.col) == ("Y102", 2, 1)


def test_duplicate_key_points_at_the_second_and_names_the_first():
    d = only(load_bytes(b"game:\n  id: a\n  name: x\n  id: b\n", "f.yaml"))
    assert (d.code, d.line, d.col) == ("Y103", 4, 3)
    assert "line 2, column 3" in d.message


@pytest.mark.parametrize("word", ["no", "yes", "on", "off", "No", "Y"])
def test_yaml11_booleans_are_flagged(word):
    d = only(load_bytes(f"may: {word}\n".encode(), "f.yaml"))
    assert (d.code, d.line, d.col, d.length) == ("Y104", 1, 6, len(word))


def test_quoted_no_is_fine():
    doc = load_bytes(b"a: 'no'\nb: \"1:30\"\n", "f.yaml")
    assert doc.diagnostics == [] and doc.data == {"a": "no", "b": "1:30"}


@pytest.mark.parametrize("text,col", [("t: 1:30\n", 4), ("t: 0755\n", 4)])
def test_yaml11_numbers_are_flagged(text, col):
    d = only(load_bytes(text.encode(), "f.yaml"))
    assert (d.code, d.line, d.col) == ("Y104", 1, col)


def test_billion_laughs_is_refused_at_the_first_anchor():
    bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        bomb.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    d = only(load_bytes("\n".join(bomb).encode(), "bomb.yaml"))
    assert (d.code, d.line, d.col) == ("Y105", 1, 4)


def test_alias_alone_is_refused():
    d = only(load_bytes(b"a: 1\nb: *x\n", "f.yaml"))
    assert d.code in ("Y101", "Y105")  # an undefined alias is a syntax error for libyaml
    assert d.line == 2


def test_deep_nesting():
    text = "a: " + "[" * 5000 + "]" * 5000 + "\n"
    d = only(load_bytes(text.encode(), "deep.yaml"))
    assert d.code == "Y106" and d.line == 1


def test_deep_block_nesting():
    text = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "v\n"
    d = only(load_bytes(text.encode(), "deep.yaml"))
    assert (d.code, d.line, d.col) == ("Y106", 65, 129)  # the 65th mapping


def test_fifty_megabyte_file_is_refused_without_reading_it(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.write(b"a: b\n" * (50 * 1024 * 1024 // 5))
    assert big.stat().st_size >= 50 * 1024 * 1024
    d = only(load(big))
    assert (d.code, d.line, d.col) == ("Y107", 1, 1)
    assert f"{MAX_BYTES:,}" in d.message


def test_not_utf8_names_the_byte_and_its_place():
    raw = "game:\n  name: ".encode() + "日本".encode("shift_jis") + b"\n"
    d = only(load_bytes(raw, "sjis.yaml"))
    assert (d.code, d.line, d.col) == ("Y108", 2, 9)
    assert "0x93" in d.message


def test_binary_bytes():
    d = only(load_bytes(b"game: x\n\x00\x01\x02\xff", "bin.yaml"))
    assert (d.code, d.line, d.col) == ("Y108", 2, 1)


@pytest.mark.parametrize("raw", [b"", b"\n\n", b"# just a comment\n", b"---\n"])
def test_empty_file(raw):
    d = only(load_bytes(raw, "empty.yaml"))
    assert (d.code, d.line, d.col) == ("Y109", 1, 1) or d.code == "Y109"


def test_two_documents():
    d = only(load_bytes(b"a: 1\n---\nb: 2\n", "two.yaml"))
    assert (d.code, d.line) == ("Y110", 2)


def test_python_tag_is_refused():
    d = only(load_bytes(b"a: !!python/object/apply:os.system ['echo hi']\n", "tag.yaml"))
    assert (d.code, d.line, d.col) == ("Y111", 1, 4)


def test_complex_key():
    d = only(load_bytes(b"? [a, b]\n: 1\n", "key.yaml"))
    assert d.code == "Y112"


def test_huge_integer():
    d = only(load_bytes(b"n: " + b"9" * 5000 + b"\n", "n.yaml"))
    assert (d.code, d.line, d.col) == ("Y113", 1, 4)


def test_missing_file(tmp_path):
    d = only(load(tmp_path / "nope.yaml"))
    assert d.code == "Y100"


def test_bom_is_accepted():
    doc = load_bytes(b"\xef\xbb\xbfa: 1\n", "bom.yaml")
    assert doc.data == {"a": 1} and doc.diagnostics == []


def test_spans_point_at_keys_and_values():
    doc = load_bytes("a:\n  - x\n  - {b: 日本, c: 2}\n".encode(), "f.yaml")
    assert doc.key_spans[("a", 1, "c")].line == 3 and doc.key_spans[("a", 1, "c")].col == 13
    assert (doc.spans[("a", 1, "b")].line, doc.spans[("a", 1, "b")].col) == (3, 9)


def test_not_a_rule_file(tmp_path):
    p = tmp_path / "x.yaml"
    p.write_text("gmae: {}\n", encoding="utf-8")
    d = only(compile_file(p))
    assert d.code == "S200" and "game" in d.help


def test_too_many_problems_stops_reading():
    doc = load_bytes(b"k: 1\n" * 5000, "dups.yaml")
    codes = [d.code for d in doc.diagnostics]
    assert codes.count("Y103") == 100 and codes[-1] == "Y114"
    assert doc.diagnostics[-1].line == 101  # the line of the 100th duplicate

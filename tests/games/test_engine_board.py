"""Positions, position strings, start layouts and the board geometry."""

from __future__ import annotations

import pytest

from games.engine import (
    BELGIAN_DAISY_START,
    GERMAN_DAISY_START,
    STANDARD_START,
    Position,
    PositionError,
    resolve_start,
    start_position,
)
from games.engine.board import CELL_NAMES, VALID, direction_between, step, symmetry_maps

STANDARD = "b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c3,c4,c5|g5,g6,g7,h4,h5,h6,h7,h8,h9,i5,i6,i7,i8,i9"


def test_board_has_61_cells_named_as_in_the_rules():
    assert len(CELL_NAMES) == 61 and VALID.bit_count() == 61
    rows = {
        "a": "12345",
        "b": "123456",
        "c": "1234567",
        "d": "12345678",
        "e": "123456789",
        "f": "23456789",
        "g": "3456789",
        "h": "456789",
        "i": "56789",
    }
    assert set(CELL_NAMES) == {row + digit for row, digits in rows.items() for digit in digits}


def test_directions_follow_the_rules():
    assert step("e5", "E") == "e6" and step("e5", "W") == "e4"
    assert step("e5", "NE") == "f6" and step("e5", "SW") == "d4"
    assert step("e5", "NW") == "f5" and step("e5", "SE") == "d5"
    assert step("a1", "W") is None and step("e9", "E") is None and step("i5", "NW") is None
    assert direction_between("e5", "f6") == "NE" and direction_between("e5", "e7") is None


def test_symmetries_are_twelve_distinct_bijections():
    maps = symmetry_maps()
    assert len(maps) == 12
    assert len({tuple(sorted(m.items())) for m in maps}) == 12
    for mapping in maps:
        assert sorted(mapping.values()) == sorted(CELL_NAMES)
        assert mapping["e5"] == "e5"


def test_standard_start_string():
    assert start_position("standard").to_string() == STANDARD
    assert Position.from_string(STANDARD) == STANDARD_START
    assert start_position("Standard") is STANDARD_START


@pytest.mark.parametrize(
    ("name", "constant", "black", "white"),
    [
        (
            "belgian",
            BELGIAN_DAISY_START,
            "a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9",
            "a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6",
        ),
        (
            "german",
            GERMAN_DAISY_START,
            "b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9",
            "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5",
        ),
    ],
)
def test_daisy_starts(name, constant, black, white):
    position = start_position(name)
    assert position is constant
    assert position.side_to_move == "b"
    assert set(position.black_cells) == set(black.split())
    assert set(position.white_cells) == set(white.split())


def test_unknown_start_is_refused():
    with pytest.raises(PositionError) as caught:
        start_position("dutch")
    assert caught.value.code == "unknown_start"


def test_resolve_start_accepts_names_strings_and_positions():
    assert resolve_start("german") is GERMAN_DAISY_START
    assert resolve_start(STANDARD) == STANDARD_START
    assert resolve_start(STANDARD_START) is STANDARD_START


def test_position_string_is_sorted_lower_case_and_accepts_any_case():
    position = Position.from_string(" W | E5 , a1 | i9,C3 ")
    assert position.to_string() == "w|a1,e5|c3,i9"
    assert position.side_to_move == "w"
    assert position.black_cells == ("a1", "e5") and position.white_cells == ("c3", "i9")


def test_empty_sides_are_allowed():
    position = Position.from_string("b||")
    assert position.to_string() == "b||"
    assert position.pushed_off("b") == 14 and position.legal_moves() == []


def test_pushed_off_and_counts():
    position = Position.from_string("b|a1,a2|i9")
    assert position.pushed_off("b") == 12 and position.pushed_off("white") == 13
    assert position.marbles_on_board("Black") == 2
    assert position.occupant("A1") == "b" and position.occupant("i9") == "w"
    assert position.occupant("e5") is None
    with pytest.raises(PositionError):
        position.occupant("a0")


def test_positions_are_hashable_values():
    a = Position.from_string("b|a1|i9")
    b = Position.from_string("B|A1|I9")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != a.with_side_to_move("w")
    assert eval(repr(a)) == a  # noqa: S307 - repr is a constructor call


@pytest.mark.parametrize(
    ("text", "code", "fragment"),
    [
        ("", "syntax", "three parts"),
        ("b|a1", "syntax", "three parts"),
        ("b|a1|i9|x", "syntax", "three parts"),
        ("x|a1|i9", "bad_colour", "side to move"),
        ("b|a0|i9", "not_a_cell", "'a0' is not a cell"),
        ("b|a6|i9", "not_a_cell", "'a6' is not a cell"),
        ("b|zz|i9", "not_a_cell", "'zz' is not a cell"),
        ("b|a1,,a2|i9", "not_a_cell", "'' is not a cell"),
        ("b|a1,A1|i9", "duplicate", "a1 is listed twice"),
        ("b|a1,e5|e5", "overlap", "both a black and a white marble: e5"),
        ("b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c1,c2,c3,c4|i9", "too_many_marbles", "15 marbles"),
    ],
)
def test_bad_position_strings(text, code, fragment):
    with pytest.raises(PositionError) as caught:
        Position.from_string(text)
    assert caught.value.code == code
    assert fragment in str(caught.value)


def test_from_cells_validates_too():
    assert Position.from_cells("b", ["A1"], ["i9"]) == Position.from_string("b|a1|i9")
    with pytest.raises(PositionError):
        Position.from_cells("b", ["a1"], ["a1"])
    with pytest.raises(PositionError):
        Position.from_cells("x", [], [])

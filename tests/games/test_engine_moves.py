"""Every rule of the rules file, one positive and one negative hand-checked case each.

Positions are built with ``Position.from_string``; Black is to move unless stated.  Geometry
reminder: E is the next digit in the row (e5 -> e6), NE the next row and next digit (e5 -> f6),
NW the next row and the same digit (e5 -> f5).
"""

from __future__ import annotations

import pytest

from games.engine import (
    BROADSIDE,
    INLINE,
    EngineError,
    IllegalMove,
    Position,
    apply_move,
    legal_moves,
    parse_move,
    start_position,
)


def position(black: str, white: str, side: str = "b") -> Position:
    """A position from space-separated cell lists."""
    return Position.from_string(f"{side}|{','.join(black.split())}|{','.join(white.split())}")


def play(pos: Position, text: str) -> Position:
    return apply_move(pos, parse_move(pos, text))[0]


def assert_illegal(pos: Position, text: str, code: str, message: str) -> IllegalMove:
    """``text`` is illegal in ``pos`` with this code and exactly this message."""
    with pytest.raises(IllegalMove) as caught:
        parse_move(pos, text)
    assert caught.value.code == code
    assert str(caught.value) == message
    return caught.value


def notations(pos: Position) -> set[str]:
    return {move.notation for move in legal_moves(pos)}


# --- in-line moves of 1 to 3 marbles --------------------------------------------------------------


def test_single_marble_moves_in_every_direction():
    pos = position("e5", "i9")
    assert notations(pos) == {"e5e6", "e5e4", "e5f6", "e5d4", "e5f5", "e5d5"}
    move = parse_move(pos, "e5f6")
    assert (move.kind, move.direction, move.marbles, move.destinations) == (
        INLINE,
        "NE",
        ("e5",),
        ("f6",),
    )
    assert play(pos, "e5f6") == position("f6", "i9", side="w")


def test_single_marble_cannot_jump():
    assert_illegal(position("e5", "i9"), "e5e7", "not_adjacent", "e5e7: e7 is not next to e5")


def test_two_marbles_in_line():
    pos = position("e4 e5", "i9")
    move = parse_move(pos, "e4e5")
    assert move.marbles == ("e4", "e5") and move.destinations == ("e5", "e6")
    assert play(pos, "e4e5") == position("e5 e6", "i9", side="w")


def test_three_marbles_in_line():
    pos = position("e3 e4 e5", "i9")
    move = parse_move(pos, "e3e4")
    assert move.marbles == ("e3", "e4", "e5") and move.destinations == ("e4", "e5", "e6")
    assert play(pos, "e3e4") == position("e4 e5 e6", "i9", side="w")


def test_in_line_group_cannot_leave_the_board():
    pos = position("e8 e9", "i5")
    assert_illegal(
        pos, "e8e9", "own_off_board", "e8e9: this would move your own marble e9 off the board"
    )


def test_part_of_a_longer_line_may_move():
    pos = position("e2 e3 e4 e5", "i9")
    assert {"e3e4", "e4e5", "e5e6"} <= notations(pos)
    assert parse_move(pos, "e3e4").marbles == ("e3", "e4", "e5")
    assert parse_move(pos, "e4e5").marbles == ("e4", "e5")


def test_more_than_three_marbles_never_move():
    pos = position("e2 e3 e4 e5", "i9")
    assert_illegal(
        pos,
        "e2e3",
        "too_many",
        "e2e3: more than 3 of your marbles in line (e2, e3, e4, e5); at most 3 move",
    )
    assert all(move.group_size <= 3 for move in legal_moves(pos))


# --- broadside ------------------------------------------------------------------------------------


def test_broadside_of_two():
    pos = position("e4 e5", "i9")
    move = parse_move(pos, "e4e5f4")
    assert (move.kind, move.direction) == (BROADSIDE, "NW")
    assert move.marbles == ("e4", "e5") and move.destinations == ("f4", "f5")
    assert play(pos, "e4e5f4") == position("f4 f5", "i9", side="w")


def test_broadside_of_three_accepts_both_end_orders():
    pos = position("e3 e4 e5", "i9")
    move = parse_move(pos, "e3e5f3")
    assert move.notation == "e3e5f3"
    assert move.destinations == ("f3", "f4", "f5")
    assert parse_move(pos, "e5e3f5") == move
    assert parse_move(pos, "E5E3F5") == move
    assert "e5e3f5" not in notations(pos)


def test_broadside_destination_must_be_empty():
    pos = position("e4 e5 f5", "i9")
    assert_illegal(pos, "e4e5f4", "own_marble", "e4e5f4: f5 holds your own marble")


def test_broadside_never_pushes():
    pos = position("e4 e5", "f5 i9")
    assert_illegal(
        pos,
        "e4e5f4",
        "broadside_push",
        "e4e5f4: f5 holds an opponent's marble; a broadside never pushes",
    )
    assert all(not move.pushed for move in legal_moves(pos) if move.kind == BROADSIDE)


def test_broadside_destination_must_be_on_the_board():
    # e1, e2 moving NW: e2 -> f2 is fine but e1 -> f1 is not a cell
    pos = position("e1 e2", "i9")
    assert_illegal(
        pos, "e2e1f2", "off_board", "e2e1f2: this would move your own marble e1 off the board"
    )
    assert not [m for m in legal_moves(pos) if m.kind == BROADSIDE and m.direction == "NW"]


def test_broadside_of_more_than_three_is_refused():
    pos = position("e2 e3 e4 e5", "i9")
    assert_illegal(
        pos, "e2e5f2", "too_many", "e2e5f2: e2 to e5 is 4 marbles; a broadside moves 2 or 3"
    )


def test_broadside_ends_must_be_in_line():
    pos = position("e2 f4", "i9")
    assert_illegal(pos, "e2f4f2", "not_in_line", "e2f4f2: e2 and f4 are not on one line")
    assert_illegal(
        pos,
        "e2e2f2",
        "not_in_line",
        "e2e2f2: the two ends of a broadside must be different cells",
    )


def test_broadside_group_must_be_all_own_marbles():
    assert_illegal(position("e3 e5", "i9"), "e3e5f3", "no_marble", "e3e5f3: e4 holds no marble")
    assert_illegal(
        position("e3 e5", "e4"),
        "e3e5f3",
        "opponent_marble",
        "e3e5f3: e4 holds your opponent's marble",
    )


def test_broadside_destination_must_be_next_to_the_first_end():
    pos = position("e4 e5", "i9")
    assert_illegal(pos, "e4e5g4", "not_adjacent", "e4e5g4: g4 is not next to e4")


def test_broadside_along_the_line_is_refused():
    pos = position("e4 e5", "i9")
    error = assert_illegal(
        pos,
        "e4e5e3",
        "not_broadside",
        "e4e5e3: the destination lies along the group's line: write an in-line move with 4 "
        "characters (trailing marble, its destination)",
    )
    assert isinstance(error, EngineError) and isinstance(error, ValueError)


# --- sumito ---------------------------------------------------------------------------------------


def test_two_push_one():
    pos = position("e3 e4", "e5 i9")
    move = parse_move(pos, "e3e4")
    assert move.pushed == ("e5",) and move.pushed_off is None
    new, outcome = apply_move(pos, move)
    assert new == position("e4 e5", "e6 i9", side="w")
    assert outcome.pushed == (("e5", "e6"),)
    assert outcome.moved == (("e3", "e4"), ("e4", "e5"))


def test_three_push_one():
    pos = position("e2 e3 e4", "e5 i9")
    assert play(pos, "e2e3") == position("e3 e4 e5", "e6 i9", side="w")


def test_three_push_two():
    pos = position("e2 e3 e4", "e5 e6 i9")
    assert parse_move(pos, "e2e3").pushed == ("e5", "e6")
    assert play(pos, "e2e3") == position("e3 e4 e5", "e6 e7 i9", side="w")


def test_white_pushes_black_too():
    pos = position("e5 a1", "e3 e4", side="w")
    assert play(pos, "e3e4") == position("e6 a1", "e4 e5", side="b")


def test_one_against_one_is_a_pac():
    pos = position("e4", "e5 i9")
    assert_illegal(pos, "e4e5", "pac", "e4e5: 1 against 1 is a pac, no push")
    assert "e4e5" not in notations(pos)


def test_two_against_two_is_a_pac():
    pos = position("e3 e4", "e5 e6")
    assert_illegal(pos, "e3e4", "pac", "e3e4: 2 against 2 is a pac, no push")


def test_three_against_three_is_a_pac():
    pos = position("e1 e2 e3", "e4 e5 e6")
    assert_illegal(pos, "e1e2", "pac", "e1e2: 3 against 3 is a pac, no push")
    assert not any(move.pushed for move in legal_moves(pos))


def test_four_against_three_is_still_a_pac():
    pos = position("e1 e2 e3 e4", "e5 e6 e7")
    assert_illegal(pos, "e2e3", "pac", "e2e3: 3 against 3 is a pac, no push")
    assert_illegal(
        pos,
        "e1e2",
        "too_many",
        "e1e2: more than 3 of your marbles in line (e1, e2, e3, e4); at most 3 move",
    )
    assert not any(move.pushed for move in legal_moves(pos))


def test_fewer_cannot_push_more():
    pos = position("e3 e4", "e5 e6 e7")
    assert_illegal(
        pos, "e3e4", "outnumbered", "e3e4: 2 against 3: you must outnumber the marbles you push"
    )


def test_single_marble_never_pushes():
    pos = position("e4", "e5 e6")
    assert_illegal(pos, "e4e5", "single_marble", "e4e5: a single marble never pushes")


def test_own_marble_behind_the_column_blocks_the_push():
    pos = position("e2 e3 e4 e6", "e5")
    assert_illegal(pos, "e2e3", "blocked", "e2e3: the push is blocked by a marble at e6")
    assert not any(move.pushed for move in legal_moves(pos))
    # without the blocker the same push is legal
    assert parse_move(position("e2 e3 e4", "e5"), "e2e3").pushed == ("e5",)


def test_opponent_marble_behind_makes_a_longer_column():
    # 2 against 1 with a second white marble behind is 2 against 2
    assert_illegal(position("e3 e4", "e5 e6"), "e3e4", "pac", "e3e4: 2 against 2 is a pac, no push")
    # 3 against 2 with a third white marble behind is 3 against 3
    pos = position("e1 e2 e3", "e4 e5 e6")
    assert_illegal(pos, "e1e2", "pac", "e1e2: 3 against 3 is a pac, no push")


def test_push_blocked_by_an_opponent_marble_after_a_gap_is_not_blocked():
    # e5 white, e6 empty, e7 white: the push of e5 into e6 is legal
    pos = position("e3 e4", "e5 e7")
    assert play(pos, "e3e4") == position("e4 e5", "e6 e7", side="w")
    # with e6 white too, e5, e6, e7 is a column of 3
    assert_illegal(
        position("e3 e4", "e5 e6 e7"),
        "e3e4",
        "outnumbered",
        "e3e4: 2 against 3: you must outnumber the marbles you push",
    )


def test_push_blocked_by_an_own_marble_two_behind():
    pos = position("e2 e3 e4 e7", "e5 e6")
    assert_illegal(pos, "e2e3", "blocked", "e2e3: the push is blocked by a marble at e7")


def test_gap_means_no_push():
    pos = position("e3 e4", "e6 i9")
    move = parse_move(pos, "e3e4")
    assert move.pushed == ()
    assert play(pos, "e3e4") == position("e4 e5", "e6 i9", side="w")


def test_push_off_the_board():
    pos = position("e7 e8", "e9 a1")
    move = parse_move(pos, "e7e8")
    assert move.pushed == ("e9",) and move.pushed_off == "e9"
    new, outcome = apply_move(pos, move)
    assert new == position("e8 e9", "a1", side="w")
    assert outcome.pushed_off == "e9" and outcome.pushed == (("e9", None),)
    assert new.pushed_off("w") == 13 and new.pushed_off("b") == 12


def test_at_most_one_marble_leaves_per_move():
    pos = position("e5 e6 e7", "e8 e9 a1")
    new, outcome = apply_move(pos, parse_move(pos, "e5e6"))
    assert outcome.pushed == (("e8", "e9"), ("e9", None))
    assert new == position("e6 e7 e8", "e9 a1", side="w")
    assert new.marbles_on_board("w") == pos.marbles_on_board("w") - 1


def test_push_of_two_off_needs_three():
    pos = position("e6 e7", "e8 e9")
    assert_illegal(pos, "e6e7", "pac", "e6e7: 2 against 2 is a pac, no push")


def test_never_move_own_marble_off_the_board():
    pos = position("a1 a2", "i9")
    assert_illegal(
        pos, "a2a1", "own_off_board", "a2a1: this would move your own marble a1 off the board"
    )
    assert_illegal(pos, "a1a0", "not_a_cell", "a1a0: a0 is not a cell")
    for move in legal_moves(pos):
        assert apply_move(pos, move)[0].marbles_on_board("b") == 2


def test_pushing_is_never_compulsory():
    pos = position("e3 e4", "e5 i9")
    assert parse_move(pos, "e3e4").pushed == ("e5",)
    assert {"e4f4", "e3d3", "e3e4f3"} <= notations(pos)  # other moves stay legal
    assert parse_move(pos, "e3e4f3").kind == BROADSIDE


# --- notation and parsing -------------------------------------------------------------------------


def test_every_legal_move_has_one_canonical_notation():
    for name in ("standard", "belgian", "german"):
        moves = legal_moves(start_position(name))
        assert len({move.notation for move in moves}) == len(moves)
        for move in moves:
            assert move.notation == move.notation.lower()
            assert parse_move(start_position(name), move.notation) == move


def test_in_line_notation_is_trailing_marble_and_its_target():
    pos = start_position("standard")
    move = parse_move(pos, "a1b2")
    assert move.marbles == ("a1", "b2", "c3") and move.destinations == ("b2", "c3", "d4")
    assert parse_move(pos, "c3d3").marbles == ("c3",)


def test_case_and_whitespace_are_ignored():
    pos = start_position("standard")
    assert parse_move(pos, "  A1B2\n") == parse_move(pos, "a1b2")
    assert parse_move(pos, "C3c5D4").notation == "c3c5d4"


def test_broadside_notation_orders_the_ends():
    pos = start_position("standard")
    move = parse_move(pos, "c5c3d6")
    assert move.notation == "c3c5d4"
    assert move.destinations == ("d4", "d5", "d6")


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("", "empty", "(empty): no move given"),
        ("   ", "empty", "(empty): no move given"),
        (
            "a1",
            "syntax",
            "a1: a move has 4 characters (in-line, e.g. a1b2) or 6 (broadside, e.g. c3c5d4), not 2",
        ),
        (
            "a1b2c3d4",
            "syntax",
            "a1b2c3d4: a move has 4 characters (in-line, e.g. a1b2) or 6 "
            "(broadside, e.g. c3c5d4), not 8",
        ),
        ("a1-b", "syntax", "a1-b: '-b' is not a cell name (a letter a-i and a digit 1-9)"),
        ("1a2b", "syntax", "1a2b: '1a' is not a cell name (a letter a-i and a digit 1-9)"),
        ("A1J1", "not_a_cell", "a1j1: j1 is not a cell"),
        ("a1a6", "not_a_cell", "a1a6: a6 is not a cell"),
        ("d4e5", "no_marble", "d4e5: d4 holds no marble"),
        ("g5f5", "opponent_marble", "g5f5: g5 holds your opponent's marble"),
        ("a1c3", "not_adjacent", "a1c3: c3 is not next to a1"),
        ("a1a1", "not_adjacent", "a1a1: a move must go to a neighbouring cell"),
        (
            "b1b2",
            "too_many",
            "b1b2: more than 3 of your marbles in line (b1, b2, b3, b4, b5, b6); at most 3 move",
        ),
        ("a3a2", "own_off_board", "a3a2: this would move your own marble a1 off the board"),
        ("a1a3b1", "own_marble", "a1a3b1: b1 holds your own marble"),
        ("c3c5e3", "not_adjacent", "c3c5e3: e3 is not next to c3"),
        ("c3d5d3", "not_in_line", "c3d5d3: c3 and d5 are not on one line"),
    ],
)
def test_error_messages(text, code, message):
    assert_illegal(start_position("standard"), text, code, message)


def test_long_garbage_is_shortened_in_the_message():
    with pytest.raises(IllegalMove) as caught:
        parse_move(start_position("standard"), "x" * 1000)
    assert caught.value.code == "syntax"
    assert len(str(caught.value)) < 200


def test_non_text_is_an_illegal_move():
    with pytest.raises(IllegalMove):
        parse_move(start_position("standard"), None)  # type: ignore[arg-type]


# --- apply_move -----------------------------------------------------------------------------------


def test_apply_move_accepts_notation_and_checks_legality():
    pos = start_position("standard")
    new, outcome = apply_move(pos, "a1b2")
    assert outcome.mover == "b" and new.side_to_move == "w"
    foreign = parse_move(position("e5", "i9"), "e5e6")
    with pytest.raises(IllegalMove) as caught:
        apply_move(pos, foreign)
    assert caught.value.code == "no_marble"


def test_apply_move_rejects_a_move_meaning_something_else_here():
    single = parse_move(position("c3", "i9"), "c3d4")  # one marble
    pos = position("c3 d4", "i9")  # here c3d4 moves two marbles
    with pytest.raises(IllegalMove) as caught:
        apply_move(pos, single)
    assert caught.value.code == "not_legal"
    assert str(caught.value) == "c3d4: in this position it moves c3, d4, not c3"


def test_moves_are_values():
    a = parse_move(start_position("standard"), "a1b2")
    b = legal_moves(start_position("standard"))
    assert a in b and hash(a) == hash(next(m for m in b if m.notation == "a1b2"))
    assert repr(a) == "Move('a1b2')" and str(a) == "a1b2"


def test_moves_are_immutable_and_survive_pickle_and_copy():
    import copy
    import pickle

    move = parse_move(start_position("standard"), "c3c5d4")
    with pytest.raises(AttributeError):
        move.notation = "a1a2"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(move)) is move
    assert copy.deepcopy(move) is move
    pos = start_position("german")
    assert pickle.loads(pickle.dumps(pos)) == pos

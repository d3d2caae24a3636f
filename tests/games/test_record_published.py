"""Records as people publish them (``read_published_record``): the forms accepted, the headers
filled in and named, and every problem at a move named by its ply."""

from __future__ import annotations

import contextlib
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import START_NAMES, Game, RecordError, read_record, write_record
from games.engine.record import REQUIRED_TAGS
from games.engine.record_published import PlyError, read_published_record

#: Eight plies from the standard start, as our own writer gives them.
MOVES = ["a1b2", "i5h5", "a2b3", "i6h6", "b1c2", "h4g4", "a3b4", "i7h7"]
#: Black to move; Black has lost 5 marbles: White's next push-off ends the game.
FIVE_DOWN = "b|a1,a2,c1,c2,c3,c4,c5,e7,e8|e9,i5,i6,i7,i8,h4,h5,h6,g5"


def numbered(moves: list[str], *, space: str = " ") -> str:
    """``1. a1b2 i5h5 2. ...`` (``space`` after each number)."""
    units = []
    for index, move in enumerate(moves):
        units.append(f"{index // 2 + 1}.{space}{move}" if index % 2 == 0 else move)
    return " ".join(units)


def random_game(start: str, plies: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(start)
    while game.ply < plies and not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize(
    "text",
    [
        numbered(MOVES),
        numbered(MOVES, space=""),  # 1.a1b2 i5h5 2.a2b3 ...
        numbered(MOVES).upper(),
        numbered(MOVES, space="").upper() + " *",
        " ".join(MOVES),  # a bare move list
        "\n".join(MOVES),
        " ".join(move.upper() for move in MOVES),
        "1. a1b2 {the usual} i5h5 2. a2b3! i6h6?! {a comment\nover two lines} 3. b1c2 "
        "3... h4g4 4. a3b4 i7h7",
        "1.a1b2\n1...i5h5\n2.a2b3\n2...i6h6\n3.b1c2\n3...h4g4\n4.a3b4\n4...i7h7",
        '[Event "Club night"]\n[black "Ada"]\n\n' + numbered(MOVES),
        '[Event "Club night"]\n' + numbered(MOVES),  # no blank line after the headers
    ],
)
def test_every_published_form_reads_as_the_same_game(text):
    _headers, game, _filled = read_published_record(text)
    assert list(game.notations) == MOVES
    assert game.ply == len(MOVES)


def test_a_bare_move_list_gets_every_header_and_names_them():
    headers, game, filled = read_published_record(" ".join(MOVES))
    assert filled == list(REQUIRED_TAGS)
    assert headers == {
        "Event": "?",
        "Round": "?",
        "Date": "????.??.??",
        "Black": "?",
        "White": "?",
        "Start": "standard",
        "MarblesToWin": "6",
        "TimeControl": "-",
        "Result": "*",
        "Termination": "unterminated",
    }
    assert game.settings.marbles_to_win == 6 and game.settings.start == "standard"
    assert game.result is None


def test_only_the_missing_headers_are_filled_and_named():
    text = '[White "Bob"]\n[BLACK "Ada"]\n[Date "2024.05.01"]\n[Site "Paris"]\n\n'
    headers, _game, filled = read_published_record(text + numbered(MOVES[:4]) + " 1-0")
    assert filled == ["Event", "Round", "Start", "MarblesToWin", "TimeControl", "Termination"]
    assert (headers["Black"], headers["White"], headers["Site"]) == ("Ada", "Bob", "Paris")
    assert list(headers)[: len(REQUIRED_TAGS)] == list(REQUIRED_TAGS)
    assert headers["Result"] == "1-0"  # given by the result token
    assert headers["Termination"] == "resignation"  # a win the rules did not give


def test_a_blank_header_counts_as_missing():
    headers, _game, filled = read_published_record('[Black ""]\n\na1b2')
    assert headers["Black"] == "?" and "Black" in filled


def test_the_callers_start_is_used_without_a_start_header():
    moves = list(random_game("belgian", 10, seed=3).notations)
    headers, game, filled = read_published_record(" ".join(moves), start="belgian")
    assert (headers["Start"], game.settings.start) == ("belgian", "belgian")
    assert "Start" in filled
    assert list(game.notations) == moves


def test_the_callers_start_may_be_a_position_string():
    _headers, game, _filled = read_published_record("e7e8", start=FIVE_DOWN)
    assert (game.result, game.termination) == ("1-0", "marbles")


def test_the_records_own_start_header_wins_and_must_agree_with_a_given_start():
    moves = " ".join(random_game("german", 6, seed=5).notations)
    headers, game, filled = read_published_record(f'[Start "German Daisy"]\n{moves}')
    assert game.settings.start == "german" and headers["Start"] == "german"
    assert "Start" not in filled
    assert read_published_record(f'[Start "german"]\n{moves}', start="german")[1].ply == 6
    with pytest.raises(RecordError) as caught:
        read_published_record(f'[Start "german"]\n{moves}', start="belgian")
    assert caught.value.code == "start_mismatch"
    assert "'german'" in str(caught.value) and "'belgian'" in str(caught.value)


@pytest.mark.parametrize("start", ["dutch", "b|a1,a1|i9", "b|z1|i9"])
def test_a_bad_start_is_refused(start):
    with pytest.raises(RecordError) as caught:
        read_published_record("a1b2", start=start)
    assert caught.value.code == "bad_start"
    assert start in str(caught.value)


@pytest.mark.parametrize("ply", [1, 2, 5, 8])
def test_an_illegal_move_is_named_by_its_ply(ply):
    moves = list(MOVES)
    moves[ply - 1] = "e5e6"  # e5 is empty all along
    for text in (" ".join(moves), numbered(moves, space="")):
        with pytest.raises(PlyError) as caught:
            read_published_record(text)
        error = caught.value
        assert (error.code, error.ply) == ("illegal_move", ply)
        move_number, colour = (ply + 1) // 2, "Black" if ply % 2 else "White"
        assert str(error).startswith(f"ply {ply} (move {move_number}, {colour}) ")
        assert moves[ply - 1] in str(error)


def test_only_the_first_illegal_move_is_named():
    moves = list(MOVES)
    moves[3], moves[6] = "a1a1", "zz99"
    with pytest.raises(PlyError) as caught:
        read_published_record(" ".join(moves))
    assert caught.value.ply == 4 and "a1a1" in str(caught.value)
    assert "zz99" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "ply", "fragment"),
    [
        ("2. a1b2", 1, "expected move number 1., found 2."),
        ("1. a1b2 i5h5 3. a2b3", 3, "expected move number 2., found 3."),
        ("1. a1b2 1. i5h5", 2, "expected move number 1..., found 1."),
        ("1. 2. a1b2", 1, "move number '1.' without a move"),
        ("1. a1b2 i5h5 2.", 3, "move number '2.' without a move"),
    ],
)
def test_a_wrong_move_number_is_named_by_its_ply(text, ply, fragment):
    with pytest.raises(PlyError) as caught:
        read_published_record(text)
    assert (caught.value.code, caught.value.ply) == ("bad_move_number", ply)
    assert fragment in str(caught.value)


def test_moves_after_the_rules_ended_the_game_are_named():
    with pytest.raises(PlyError) as caught:
        read_published_record("e7e8 i5h5", start=FIVE_DOWN)
    assert (caught.value.code, caught.value.ply) == ("move_after_end", 2)
    assert "already over (1-0, marbles)" in str(caught.value)


def test_a_game_the_rules_end_gets_its_result_and_termination():
    headers, game, filled = read_published_record("1. e7e8", start=FIVE_DOWN)
    assert (headers["Result"], headers["Termination"]) == ("1-0", "marbles")
    assert (game.result, game.termination) == ("1-0", "marbles")
    assert "Result" in filled and "Termination" in filled
    with pytest.raises(RecordError) as caught:
        read_published_record("1. e7e8 0-1", start=FIVE_DOWN)
    assert caught.value.code == "result_mismatch"


@pytest.mark.parametrize(
    ("token", "result", "termination"),
    [
        ("1/2-1/2", "1/2-1/2", "agreement"),
        ("½-½", "1/2-1/2", "agreement"),
        ("0-1", "0-1", "resignation"),
    ],
)
def test_a_result_token_ends_the_game(token, result, termination):
    headers, game, _filled = read_published_record(f"{numbered(MOVES)} {token}")
    assert (game.result, game.termination) == (result, termination)
    assert headers["Result"] == result


def test_result_header_and_token_must_agree_and_a_result_token_only_ends():
    with pytest.raises(RecordError) as caught:
        read_published_record(f'[Result "1-0"]\n{numbered(MOVES)} 0-1')
    assert caught.value.code == "result_mismatch"
    with pytest.raises(PlyError) as caught:
        read_published_record("a1b2 1-0 i5h5")
    assert (caught.value.code, caught.value.ply) == ("bad_movetext", 2)
    headers, game, _ = read_published_record(
        f'[Result "0-1"]\n[Termination "Time"]\n{numbered(MOVES)}'
    )
    assert (game.result, game.termination, headers["Termination"]) == ("0-1", "time", "time")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty_record"),
        ("  \n {just a comment} \n", "empty_record"),
        ("1. a1b2 {not closed", "bad_movetext"),
        ("1. a1b2 } i5h5", "bad_movetext"),
        ('[Event "x"\n1. a1b2', "bad_header"),
        ('[Event "x"]\n[event "y"]\n1. a1b2', "bad_header"),
        ('[MarblesToWin "9"]\na1b2', "bad_header"),
    ],
)
def test_unreadable_records(text, code):
    with pytest.raises(RecordError) as caught:
        read_published_record(text)
    assert caught.value.code == code


def test_non_text_is_refused():
    with pytest.raises(RecordError):
        read_published_record(None)  # type: ignore[arg-type]


def test_the_headers_returned_write_a_record_that_reads_back_as_the_same_game():
    headers, game, _filled = read_published_record(
        f'[Black "Ada"]\n[MarblesToWin "04"]\n[Start "Belgian Daisy"]\n'
        f"{' '.join(random_game('belgian', 12, seed=8).notations).upper()} 1-0"
    )
    text = write_record(game, headers)
    read_headers, copy = read_record(text)
    assert copy.notations == game.notations and copy.settings == game.settings
    assert (
        (copy.result, copy.termination) == (game.result, game.termination) == ("1-0", "resignation")
    )
    assert read_headers["Black"] == "Ada" and read_headers["MarblesToWin"] == "4"


@pytest.mark.parametrize("seed", range(6))
def test_our_own_records_read_unchanged_and_stripped_to_bare_moves(seed):
    start = ("standard", "belgian", "german")[seed % 3]
    game = random_game(start, 40 + seed, seed=seed)
    if not game.is_over:
        game.end("0-1", "resignation")
    text = write_record(game, {"Black": "Ada", "White": "Bob"})
    headers, copy, filled = read_published_record(text)
    assert filled == [] and copy.notations == game.notations
    assert headers == read_record(text)[0]
    movetext = text.split("\n\n", 1)[1]
    bare = re.sub(r"\d+\.(\.\.)?\s", "", movetext).rsplit(" ", 1)[0].upper()
    _headers, copy, _filled = read_published_record(bare, start=start)
    assert copy.notations == game.notations


@pytest.mark.skipif("placement" not in START_NAMES, reason="the engine has no placement phase")
def test_placements_are_passed_to_the_game():
    game = Game("placement")
    while game.in_placement:
        game.play(game.legal_moves()[0])
    game.play(game.legal_moves()[0])
    placements = list(game.notations)
    text = " ".join(placements).upper().replace("@", "@ ", 1)
    headers, copy, _filled = read_published_record(text, start="placement")
    assert copy.notations == game.notations and headers["Start"] == "placement"
    assert placements[0].startswith("@")
    with pytest.raises(PlyError) as caught:
        read_published_record(f"{placements[0]} {placements[0]}", start="placement")
    assert caught.value.ply == 2 and placements[0] in str(caught.value)


#: Pieces of records, glued at random: readable and broken ones, so that the reader meets both.
PIECES = st.sampled_from(
    [*MOVES, "A1B2", "1.", "2.", "1...", "12.a1b2", "9" * 5000 + ".", "@e5", "@", "{", "}",
     "{c}", "1-0", "½-½", "*", "e5e6", "c3c5d4", "zz99", "\n", " ", '[Event "x"]\n',
     '[MarblesToWin "99999999999999"]\n', '[MarblesToWin "²"]\n', '[Start "b|a1|"]\n',
     "\u0000", "é", "a" * 40]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30), st.sampled_from([None, "standard", "belgian", "b|a1|i9"]))
def test_any_text_reads_or_is_a_record_error(pieces, start):
    try:
        _headers, game, filled = read_published_record(" ".join(pieces), start=start)
    except RecordError as error:
        assert str(error) and len(str(error)) < 400
    else:
        assert set(filled) <= set(REQUIRED_TAGS) and game.ply >= 0


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_at_all_reads_or_is_a_record_error(text):
    with contextlib.suppress(RecordError):
        read_published_record(text)

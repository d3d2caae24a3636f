"""Game records: write -> read round trips, and precise errors for broken records."""

from __future__ import annotations

import random

import pytest

from games.engine import Game, RecordError, read_record, start_position, write_record

HEADERS = {
    "Event": "Club championship",
    "Round": "3",
    "Date": "2026.11.21",
    "Black": "Ada",
    "White": 'Bob "the pusher"',
    "TimeControl": "900",
}
FIVE_DOWN = "b|a1,a2,c1,c2,c3,c4,c5,e7,e8|e9,i5,i6,i7,i8,h4,h5,h6,g5"


def random_game(start: str = "standard", plies: int = 60, seed: int = 1, **settings) -> Game:
    rng = random.Random(seed)
    game = Game(start, **settings)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def assert_same_game(a: Game, b: Game) -> None:
    assert a.notations == b.notations
    assert a.settings == b.settings
    assert a.start_position == b.start_position
    assert (a.result, a.termination) == (b.result, b.termination)
    assert a.position == b.position


def test_round_trip_of_an_unfinished_game():
    game = random_game(plies=61)
    text = write_record(game, HEADERS)
    headers, copy = read_record(text)
    assert_same_game(game, copy)
    assert headers["White"] == 'Bob "the pusher"' and headers["Result"] == "*"
    assert headers["Termination"] == "unterminated"
    assert all(len(line) <= 80 for line in text.splitlines())
    assert text.splitlines()[-1].endswith(" *")


def test_record_layout():
    game = Game()
    game.play("a1b2")
    game.play("i5h5")
    game.play("a2b3")
    game.end("1-0", "resignation")
    assert write_record(game, HEADERS) == (
        '[Event "Club championship"]\n'
        '[Round "3"]\n'
        '[Date "2026.11.21"]\n'
        '[Black "Ada"]\n'
        '[White "Bob \\"the pusher\\""]\n'
        '[Start "standard"]\n'
        '[MarblesToWin "6"]\n'
        '[TimeControl "900"]\n'
        '[Result "1-0"]\n'
        '[Termination "resignation"]\n'
        '[ThreefoldRepetition "on"]\n'
        '[MaxPlies "400"]\n'
        '[MaxPliesResult "draw"]\n'
        "\n"
        "1. a1b2 i5h5 2. a2b3 1-0\n"
    )


@pytest.mark.parametrize("start", ["standard", "belgian", "german"])
def test_round_trip_from_every_start_with_settings(start):
    game = random_game(
        start,
        plies=150,
        seed=7,
        marbles_to_win=4,
        threefold_repetition=False,
        max_plies=150,
        max_plies_result="marbles",
    )
    assert game.is_over
    _, copy = read_record(write_record(game, HEADERS))
    assert_same_game(game, copy)


def test_round_trip_of_a_win_by_marbles():
    game = Game(FIVE_DOWN)
    game.play("e7e8")
    text = write_record(game, {"Event": "Teaching"})
    assert '[Start "b|a1,a2,c1,c2,c3,c4,c5,e7,e8|e9,g5,h4,h5,h6,i5,i6,i7,i8"]' in text
    headers, copy = read_record(text)
    assert_same_game(game, copy)
    assert headers["Black"] == "?" and headers["Date"] == "????.??.??"


def test_round_trip_of_external_ends():
    for result, termination in [("0-1", "time"), ("1/2-1/2", "agreement"), ("1-0", "forfeit")]:
        game = random_game(plies=9, seed=3)
        game.end(result, termination)
        _, copy = read_record(write_record(game, HEADERS))
        assert_same_game(game, copy)


def test_round_trip_with_white_to_move_first():
    start = "w|" + start_position("standard").to_string()[2:]
    game = Game(start)
    game.play("i5h5")
    game.play("a1b2")
    game.play("i6h6")
    text = write_record(game, HEADERS)
    assert "1... i5h5 2. a1b2 i6h6 *" in text
    _, copy = read_record(text)
    assert_same_game(game, copy)


def test_extra_headers_are_kept():
    game = Game()
    text = write_record(game, {**HEADERS, "Annotator": "Cy", "Site": "Sumito"})
    headers, _ = read_record(text)
    assert headers["Annotator"] == "Cy" and headers["Site"] == "Sumito"
    assert list(headers)[-2:] == ["Annotator", "Site"]


def test_header_disagreeing_with_the_game_is_refused():
    with pytest.raises(RecordError) as caught:
        write_record(Game(), {"Result": "1-0"})
    assert caught.value.code == "header_mismatch"
    write_record(Game(), {"Start": "STANDARD", "Result": "*"})  # agreeing values are fine
    with pytest.raises(RecordError):
        write_record(Game(), {"Event": "two\nlines"})
    with pytest.raises(RecordError):
        write_record(Game(), {"bad tag": "x"})


def record_with_moves(moves: str, result: str = "*", termination: str = "unterminated") -> str:
    game_headers = "\n".join(
        f'[{tag} "{value.replace(chr(34), chr(92) + chr(34))}"]' for tag, value in HEADERS.items()
    )
    return (
        f'{game_headers}\n[Start "standard"]\n[MarblesToWin "6"]\n[Result "{result}"]\n'
        f'[Termination "{termination}"]\n\n{moves} {result}\n'
    )


def test_first_illegal_move_is_named_by_number_and_colour():
    game = random_game(plies=30, seed=11)
    notations = list(game.notations)
    notations[23] = "a1a0"  # White's 12th move (ply 24)
    tokens = []
    for index, notation in enumerate(notations):
        if index % 2 == 0:
            tokens.append(f"{index // 2 + 1}.")
        tokens.append(notation)
    with pytest.raises(RecordError) as caught:
        read_record(record_with_moves(" ".join(tokens)))
    assert str(caught.value) == "move 12 (White) a1a0: a0 is not a cell"
    assert caught.value.code == "illegal_move"


def test_illegal_move_message_carries_the_rule():
    text = record_with_moves("1. a1b2 i5h5 2. a1a2")
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert str(caught.value) == "move 2 (Black) a1a2: a1 holds no marble"


@pytest.mark.parametrize(
    ("text", "code", "fragment"),
    [
        ("", "missing_header", "missing header(s): Event"),
        ('[Event "x"\n\n1. a1b2 *', "bad_header", "malformed header"),
        ("[Event x]\n\n*", "bad_header", "malformed header"),
        (
            record_with_moves("").replace('[Round "3"]', '[Round "3"]\n[Round "4"]'),
            "bad_header",
            "appears twice",
        ),
        (record_with_moves("").replace('[Round "3"]\n', ""), "missing_header", "Round"),
        (
            record_with_moves("").replace('[MarblesToWin "6"]', '[MarblesToWin "9"]'),
            "bad_header",
            "marbles_to_win",
        ),
        (
            record_with_moves("").replace('[MarblesToWin "6"]', '[MarblesToWin "six"]'),
            "bad_header",
            "not a whole number",
        ),
        (
            record_with_moves("").replace('[Start "standard"]', '[Start "dutch"]'),
            "bad_header",
            "unknown start",
        ),
        (record_with_moves("2. a1b2 i5h5"), "bad_move_number", "expected move number 1."),
        (record_with_moves("1. a1b2 i5h5 3. a2b3"), "bad_move_number", "expected move number 2."),
        (record_with_moves("a1b2 i5h5"), "bad_move_number", "expected move number 1."),
        (record_with_moves("1. 2. a1b2"), "bad_move_number", "expected a move"),
        (record_with_moves("1. a1b2 i5h5 2."), "bad_move_number", "without a move"),
        (record_with_moves("1. a1b2 1-0 i5h5"), "bad_movetext", "before the end"),
        (record_with_moves("1. a1b2").rstrip(" *\n"), "no_result", "result token"),
        (
            record_with_moves("1. a1b2", result="1-0", termination="marbles"),
            "result_mismatch",
            "Termination",
        ),
        (
            record_with_moves("1. a1b2", result="1-0", termination="unterminated"),
            "result_mismatch",
            "Termination",
        ),
        (
            record_with_moves("1. a1b2", result="1/2-1/2", termination="resignation"),
            "result_mismatch",
            "has a winner",
        ),
        (record_with_moves("1. a1b2", termination="resignation"), "result_mismatch", "unfinished"),
        (
            record_with_moves("1. a1b2").replace('[Result "*"]', '[Result "1-0"]'),
            "result_mismatch",
            "disagrees with the result token",
        ),
    ],
)
def test_malformed_records(text, code, fragment):
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert caught.value.code == code
    assert fragment in str(caught.value)


def test_result_must_match_a_rule_ending():
    game = Game(FIVE_DOWN)
    game.play("e7e8")
    text = write_record(game, HEADERS)
    with pytest.raises(RecordError) as caught:
        read_record(text.replace("1-0", "0-1"))
    assert caught.value.code == "result_mismatch"
    assert "the moves end the game 1-0 (marbles)" in str(caught.value)


def test_moves_after_the_end_are_refused():
    game = Game(FIVE_DOWN)
    game.play("e7e8")
    text = write_record(game, HEADERS).replace("1. e7e8 1-0", "1. e7e8 i5h5 1-0")
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert caught.value.code == "move_after_end"
    assert str(caught.value).startswith("move 1 (White) i5h5: the game was already over")


def test_reading_accepts_upper_case_moves_and_extra_whitespace():
    text = record_with_moves("1.   A1B2\n  I5H5   2. a2b3")
    _, game = read_record("\n\n" + text)
    assert game.notations == ("a1b2", "i5h5", "a2b3")


def test_non_text_record_is_refused():
    with pytest.raises(RecordError):
        read_record(None)  # type: ignore[arg-type]


def test_the_example_in_the_documentation_reads_back():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "game-records.md").read_text()
    example = doc.split("```\n")[1]
    headers, game = read_record(example)
    assert headers["Start"] == "belgian" and game.ply == 37
    assert (game.result, game.termination) == ("0-1", "resignation")
    assert write_record(game, headers) == example

"""Game: settings, winning, draws by rule, external ends, and refusal to play on."""

from __future__ import annotations

import pytest

from games.engine import (
    DRAW,
    Game,
    GameOverError,
    GameSettings,
    IllegalMove,
    Position,
    SettingsError,
    start_position,
)

# Black has pushed off 5 white marbles (9 left) and can push off a sixth with e7e8.
FIVE_DOWN = "b|a1,a2,c1,c2,c3,c4,c5,e7,e8|e9,i5,i6,i7,i8,h4,h5,h6,g5"
# White has no legal move once Black plays g3f2 (white walled into the a row and the 1 diagonal).
WALLED = "b|b2,b3,b4,b5,b6,c2,d2,e2,g3,i5,i6,i7,i8,i9|a1,a2,a3,a4,a5,b1,c1,d1,e1"
SHUFFLE = ["c5d5", "g5f5", "d5c5", "f5g5"]


def test_defaults():
    game = Game()
    assert game.settings == GameSettings()
    assert game.settings.start == "standard" and game.settings.marbles_to_win == 6
    assert game.settings.threefold_repetition is True
    assert game.settings.max_plies == 400 and game.settings.max_plies_result == "draw"
    assert game.position == start_position("standard") and game.side_to_move == "b"
    assert game.result is None and game.termination is None and not game.is_over
    assert game.pushed_off("b") == game.pushed_off("w") == 0
    assert len(game.legal_moves()) == 44


def test_play_records_moves_positions_and_outcomes():
    game = Game("belgian")
    outcome = game.play("A1B2")
    assert outcome.mover == "b"
    assert game.notations == ("a1b2",) and game.ply == 1 and game.side_to_move == "w"
    assert game.positions[0] == start_position("belgian") and game.positions[-1] == game.position
    assert game.outcomes == (outcome,)
    move = game.legal_moves()[0]
    game.play(move)
    assert game.moves[-1] == move


def test_win_by_pushing_off_six():
    game = Game(FIVE_DOWN)
    assert game.pushed_off_by("b") == 5
    outcome = game.play("e7e8")
    assert outcome.pushed_off == "e9"
    assert game.result == "1-0" and game.termination == "marbles" and game.winner == "b"
    assert game.pushed_off("w") == 6


def test_no_win_before_marbles_to_win():
    game = Game(FIVE_DOWN, marbles_to_win=6)
    game.play("a1a2")  # a quiet move: nothing pushed off
    assert not game.is_over


def test_blitz_wins_at_four():
    # White has lost 3; with marbles_to_win=4 the next push-off wins
    start = "b|a1,a2,c1,c2,c3,c4,c5,c6,c7,e7,e8|e9,i5,i6,i7,i8,h4,h5,h6,g5,g6,g7"
    game = Game(start, marbles_to_win=4)
    game.play("e7e8")
    assert (game.result, game.termination) == ("1-0", "marbles")
    standard = Game(start)
    standard.play("e7e8")
    assert not standard.is_over


def test_white_wins_by_marbles():
    start = "w|e1,i5,i6,i7,i8,h4,h5,h6,g5|a1,a2,c1,c2,c3,c4,c5,e2,e3"
    game = Game(start)
    game.play("e3e2")
    assert (game.result, game.termination, game.winner) == ("0-1", "marbles", "w")


@pytest.mark.parametrize("value", [0, 7, -1, "6", 6.0, True, None])
def test_marbles_to_win_must_be_1_to_6(value):
    with pytest.raises(SettingsError) as caught:
        Game(marbles_to_win=value)
    assert caught.value.code == "bad_marbles_to_win"


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_marbles_to_win_accepts_1_to_6(value):
    assert Game(marbles_to_win=value).settings.marbles_to_win == value


def test_start_already_decided_is_refused():
    with pytest.raises(SettingsError) as caught:
        Game(FIVE_DOWN, marbles_to_win=5)
    assert caught.value.code == "start_already_won"


@pytest.mark.parametrize(
    ("game_settings", "code"),
    [
        ({"max_plies": 0}, "bad_max_plies"),
        ({"max_plies": "400"}, "bad_max_plies"),
        ({"max_plies_result": "win"}, "bad_max_plies_result"),
        ({"threefold_repetition": "yes"}, "bad_repetition"),
    ],
)
def test_bad_settings(game_settings, code):
    with pytest.raises(SettingsError) as caught:
        Game(**game_settings)
    assert caught.value.code == code


def test_threefold_repetition_is_a_draw():
    game = Game()
    for notation in SHUFFLE:
        game.play(notation)
    assert game.position == game.start_position and game.repetition_count() == 2
    assert not game.is_over
    for notation in SHUFFLE:
        game.play(notation)
    assert game.repetition_count() == 3
    assert (game.result, game.termination) == (DRAW, "repetition")


def test_repetition_needs_the_same_side_to_move():
    # the start layout with White to move never equals the start position
    game = Game()
    assert game.position.with_side_to_move("w") != game.start_position


def test_threefold_repetition_can_be_switched_off():
    game = Game(threefold_repetition=False)
    for notation in SHUFFLE * 3:
        game.play(notation)
    assert game.repetition_count() == 4 and not game.is_over


def test_move_cap_is_a_draw_by_default():
    game = Game(max_plies=4)
    for notation in ["a1b2", "i5h5", "a2b3"]:
        game.play(notation)
    assert not game.is_over
    game.play("i6h6")
    assert (game.result, game.termination) == (DRAW, "move_cap")


def test_move_cap_by_marbles_goes_to_the_side_that_pushed_off_more():
    start = "b|a1,a2,c1,c2,c3,c4,c5,c6,c7,d1,d2,d3,e7,e8|e9,i5,i6,i7,i8,h4,h5,h6,g5,g6"
    game = Game(start, max_plies=2, max_plies_result="marbles")
    game.play("e7e8")  # Black has now pushed off 5, White none
    game.play("i5h5")
    assert (game.result, game.termination) == ("1-0", "move_cap")


def test_move_cap_by_marbles_with_equal_counts_is_a_draw():
    game = Game(max_plies=2, max_plies_result="marbles")
    game.play("a1b2")
    game.play("i5h5")
    assert (game.result, game.termination) == (DRAW, "move_cap")


def test_player_without_legal_moves_loses():
    game = Game(WALLED)
    assert Position.from_string(WALLED).with_side_to_move("w").count_legal_moves() > 0
    game.play("g3f2")
    assert game.position.count_legal_moves() == 0
    assert (game.result, game.termination) == ("1-0", "no_legal_moves")
    assert game.legal_moves() == []


def test_start_without_legal_moves_is_lost_at_once():
    after = Game(WALLED)
    after.play("g3f2")
    game = Game(after.position)
    assert (game.result, game.termination) == ("1-0", "no_legal_moves")


@pytest.mark.parametrize(
    ("result", "termination"),
    [
        ("0-1", "resignation"),
        ("1-0", "time"),
        (DRAW, "agreement"),
        ("1-0", "abandoned"),
        (DRAW, "abandoned"),
        ("0-1", "forfeit"),
    ],
)
def test_external_end(result, termination):
    game = Game()
    game.play("a1b2")
    game.end(result, termination)
    assert (game.result, game.termination) == (result, termination)
    assert game.is_over


@pytest.mark.parametrize(
    ("result", "termination", "code"),
    [
        ("1-0", "agreement", "bad_result"),
        (DRAW, "resignation", "bad_result"),
        (DRAW, "time", "bad_result"),
        ("2-0", "time", "bad_result"),
        ("1-0", "marbles", "bad_termination"),
        ("1-0", "boredom", "bad_termination"),
    ],
)
def test_bad_external_end(result, termination, code):
    game = Game()
    with pytest.raises(SettingsError) as caught:
        game.end(result, termination)
    assert caught.value.code == code
    assert not game.is_over


def test_play_after_the_end_is_refused():
    game = Game()
    game.end("0-1", "resignation")
    with pytest.raises(GameOverError) as caught:
        game.play("a1b2")
    assert caught.value.code == "game_over"
    assert str(caught.value) == "a1b2: the game is over (0-1, resignation)"
    with pytest.raises(GameOverError):
        game.end("1-0", "time")
    assert game.ply == 0 and game.result == "0-1"


def test_play_after_a_rule_end_is_refused():
    game = Game(FIVE_DOWN)
    game.play("e7e8")
    with pytest.raises(GameOverError):
        game.play(game.position.legal_moves()[0])


def test_illegal_move_leaves_the_game_unchanged():
    game = Game()
    game.play("a1b2")
    before = (game.position, game.moves, game.outcomes, game.positions, game.repetition_count())
    for bad in ["a1b2", "i5h5h6", "zz", "", "i5i4", game.legal_moves()[0].notation + "x"]:
        with pytest.raises(IllegalMove):
            game.play(bad)
    foreign = Game().legal_moves()[0]  # a Black move, but White is to move
    with pytest.raises(IllegalMove):
        game.play(foreign)
    after = (game.position, game.moves, game.outcomes, game.positions, game.repetition_count())
    assert before == after and not game.is_over


def test_settings_object_and_custom_start():
    upper = "W|" + start_position("standard").to_string().upper()[2:]
    settings = GameSettings(start=upper, marbles_to_win=4)
    assert settings.start == "w|" + start_position("standard").to_string()[2:]
    assert settings.start_position.side_to_move == "w"
    with pytest.raises(SettingsError):
        GameSettings(start="b|a1|i9")  # White has lost 13 already
    game = Game(settings=GameSettings(start=FIVE_DOWN))
    assert game.start_position == Position.from_string(FIVE_DOWN)
    assert GameSettings(start=start_position("german").to_string()).start == "german"

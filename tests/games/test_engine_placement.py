"""The placement phase of the pure engine (``games.engine.placement``; rules: "Alternate
placement" in ../shared/abalone-rules.md)."""

import random

import pytest

from games import engine
from games.engine.board import CELL_NAMES
from games.engine.placement import Placement


def placed_game(seed: int = 3) -> engine.Game:
    game = engine.Game("placement")
    rng = random.Random(seed)
    while game.in_placement:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_the_placement_start_is_the_empty_board_black_to_place():
    game = engine.Game("placement")
    assert game.settings.start == "placement"
    assert game.position.black_cells == () and game.position.white_cells == ()
    assert game.side_to_move == "b" and game.in_placement and not game.is_over
    assert {p.notation for p in game.legal_moves()} == {f"@{c}" for c in CELL_NAMES}
    assert game.pushed_off("b") == game.pushed_off_by("w") == 0


def test_placements_alternate_and_fill_fourteen_each_then_black_moves():
    game = engine.Game("placement")
    game.play("@E5")  # any case
    assert game.position.black_cells == ("e5",) and game.side_to_move == "w"
    game.play(Placement("a1"))
    assert game.position.white_cells == ("a1",) and game.side_to_move == "b"
    assert len(game.legal_moves()) == 59
    game = placed_game()
    assert game.ply == 28 and not game.in_placement
    assert len(game.position.black_cells) == len(game.position.white_cells) == 14
    assert game.side_to_move == "b"
    assert game.pushed_off("b") == game.pushed_off("w") == 0
    assert all(not isinstance(move, Placement) for move in game.legal_moves())
    assert game.legal_moves() == game.position.legal_moves()


@pytest.mark.parametrize(
    ("text", "code"),
    [("@e5", "cell_occupied"), ("@j1", "bad_placement"), ("e5", "placement_phase")],
)
def test_a_bad_placement_is_refused_and_changes_nothing(text, code):
    game = engine.Game("placement")
    game.play("@e5")
    before = (game.position, game.ply)
    with pytest.raises(engine.IllegalMove) as raised:
        game.play(text)
    assert raised.value.code == code
    assert (game.position, game.ply) == before


def test_a_move_during_the_phase_and_a_placement_after_it_are_refused():
    game = engine.Game("placement")
    move = engine.Game("standard").legal_moves()[0]
    with pytest.raises(engine.IllegalMove) as raised:
        game.play(move)
    assert raised.value.code == "placement_phase"
    game = placed_game()
    empty = next(p for p in CELL_NAMES if game.position.occupant(p) is None)
    with pytest.raises(engine.IllegalMove) as raised:
        game.play(f"@{empty}")
    assert raised.value.code == "placement_over"
    with pytest.raises(engine.IllegalMove):
        game.play(Placement(empty))
    assert game.ply == 28


def test_the_move_cap_counts_the_moves_after_the_phase():
    game = engine.Game("placement", max_plies=2, threefold_repetition=False)
    rng = random.Random(5)
    while game.in_placement:
        game.play(rng.choice(game.legal_moves()))
    assert not game.is_over
    game.play(rng.choice(game.legal_moves()))
    if not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert game.is_over and game.ply <= 30


def test_a_placement_game_plays_to_the_end_and_its_record_replays():
    rng = random.Random(11)
    game = engine.Game("placement", marbles_to_win=1)
    while not game.is_over:
        moves = game.legal_moves()
        pushes = [m for m in moves if getattr(m, "pushed_off", None)]
        game.play(rng.choice(pushes or moves))
    text = engine.write_record(game)
    assert '[Start "placement"]' in text and "1. @" in text
    _, replayed = engine.read_record(text)
    assert replayed.position == game.position and replayed.result == game.result
    assert replayed.notations == game.notations


def test_the_two_player_starts_are_unchanged_and_have_no_phase():
    for name in ("standard", "belgian", "german"):
        game = engine.Game(name)
        assert not game.in_placement
        assert len(game.legal_moves()) == {"standard": 44, "belgian": 52, "german": 80}[name]
    assert "placement" in engine.START_NAMES
    assert engine.start_position("placement").to_string() == "b||"

"""The move path's storage (games.move_store): engines kept between moves, caught up with moves
made elsewhere, rebuilt when what was kept is not this game's history."""

import pytest

from games import engine, move_store, selectors
from games.models import Move
from games.records import engine_game_of

from .conftest import at
from .test_moves import move

pytestmark = pytest.mark.django_db


def test_a_kept_engine_behind_the_game_catches_up_with_the_moves_since(
    new_game, players, django_capture_on_commit_callbacks
):
    # As when the other player's move was made in another web process.
    black, white = players
    game = new_game(start="standard")
    with django_capture_on_commit_callbacks(execute=True):
        game = move(game, black, 1)
    behind = move_store.kept(game)  # the engine and moves as of ply 1
    assert behind is not None and behind[0].ply == 1
    game = move(game, white, 2)  # hooks not run: nothing kept for ply 2
    move_store.keep(game, *behind)
    hits, caught_up = move_store.counters["kept"], move_store.counters["caught up"]
    with django_capture_on_commit_callbacks(execute=True):
        game = move(game, black, 3)
    assert (move_store.counters["kept"], move_store.counters["caught up"]) == (hits, caught_up + 1)
    game.refresh_from_db()
    assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == [1, 2, 3]
    replayed = engine_game_of(game)
    assert replayed.position.to_string() == game.position and replayed.ply == 3
    state = selectors.game_state(game, now=at(3))
    kept_engine, kept_documents = move_store.kept(game)
    assert kept_documents == state["moves"]  # what the next move will answer with
    assert kept_engine.position == replayed.position


def test_a_kept_engine_of_another_history_is_not_used(
    new_game, players, django_capture_on_commit_callbacks
):
    black, white = players
    game = new_game(start="standard")
    game = move(game, black, 1)
    game = move(game, white, 2)
    # An engine at ply 1 whose first move is not the game's: catching up cannot reach the row.
    start = engine.Position.from_string(game.start_position)
    played = Move.objects.get(game=game, ply=1).notation
    other = next(m.notation for m in engine.legal_moves(start) if m.notation != played)
    wrong = engine_game_of(game, [other])
    documents = [selectors.move_document(1, other, at(1), 179_000, False)]
    move_store.keep(game, wrong, documents)
    hits, caught_up = move_store.counters["kept"], move_store.counters["caught up"]
    game = move(game, black, 3)  # rebuilt from every move, and played correctly
    assert (move_store.counters["kept"], move_store.counters["caught up"]) == (hits, caught_up)
    game.refresh_from_db()
    replayed = engine_game_of(game)
    assert replayed.position.to_string() == game.position and replayed.ply == 3
    assert replayed.notations[0] == played

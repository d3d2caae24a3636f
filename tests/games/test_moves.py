"""Playing moves (games.services.moves): recorded with the clock, refused with the right error
and nothing changed, lost on time, ended by the rules; with controlled time."""

import pytest

from core.errors import Conflict, NotAllowed, NotFound, Unprocessable
from games import engine, move_store, services
from games.models import Game, Move

from .conftest import T0, a_legal_move, at

pytestmark = pytest.mark.django_db


def move(game, player, seconds, notation=None):
    game.refresh_from_db()
    return services.game_move_apply(
        game_id=game.pk,
        player=player,
        move=notation or a_legal_move(game),
        expected_ply=game.ply,
        now=at(seconds),
    )


def snapshot(game):
    game.refresh_from_db()
    return (
        game.ply,
        game.position,
        game.status,
        game.black_ms,
        game.white_ms,
        game.flag_deadline,
        Move.objects.filter(game=game).count(),
    )


def test_game_create_sets_the_first_move_deadline(new_game):
    game = new_game()
    assert game.position == engine.BELGIAN_DAISY_START.to_string()
    assert game.flag_deadline == at(30)
    assert (game.black_ms, game.white_ms) == (180_000, 180_000)


def test_moves_are_recorded_with_clock_and_notation(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 3)
    move(game, white, 8)
    game = move(game, black, 18.5)
    rows = list(Move.objects.filter(game=game).order_by("ply"))
    assert [m.ply for m in rows] == [1, 2, 3]
    assert rows[2].spent_ms == 10_500
    assert rows[2].clock_ms == 180_000 - 10_500 + 2_000
    assert rows[2].played_at == at(18.5)
    assert game.ply == 3 and game.side_to_move == "w"
    assert game.flag_deadline == at(18.5 + 180)


def test_illegal_move_is_422_with_the_engine_message_and_changes_nothing(new_game, players):
    game = new_game()
    before = snapshot(game)
    with pytest.raises(Unprocessable) as error:
        services.game_move_apply(
            game_id=game.pk, player=players[0], move="a1a0", expected_ply=0, now=at(1)
        )
    assert error.value.code == "illegal_move"
    assert "a0 is not a cell" in error.value.detail
    assert snapshot(game) == before


def test_out_of_turn_and_stale_ply_are_409(new_game, players):
    black, white = players
    game = new_game()
    before = snapshot(game)
    with pytest.raises(Conflict) as error:
        services.game_move_apply(
            game_id=game.pk, player=white, move=a_legal_move(game), expected_ply=0, now=at(1)
        )
    assert error.value.code == "not_your_turn"
    with pytest.raises(Conflict) as error:
        services.game_move_apply(
            game_id=game.pk, player=black, move=a_legal_move(game), expected_ply=3, now=at(1)
        )
    assert error.value.code == "stale_ply"
    assert snapshot(game) == before


def test_non_player_is_403(new_game, make_player):
    game = new_game()
    with pytest.raises(NotAllowed):
        services.game_move_apply(
            game_id=game.pk,
            player=make_player("kibitzer"),
            move=a_legal_move(game),
            expected_ply=0,
            now=at(1),
        )


def test_unknown_game_is_404(players):
    with pytest.raises(NotFound):
        services.game_move_apply(
            game_id=999999, player=players[0], move="a1b2", expected_ply=0, now=T0
        )


def test_late_move_is_not_played_and_loses_on_time(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 1)
    move(game, white, 2)
    before_moves = Move.objects.count()
    with pytest.raises(Conflict) as error:
        move(game, black, 2 + 180)
    assert error.value.code == "time_out"
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "0-1", "time")
    assert Move.objects.count() == before_moves
    assert game.black_ms == 0


def test_push_off_reaching_marbles_to_win_ends_the_game(new_game, players):
    black, white = players
    game = new_game()
    # An adjourned game: White has already lost 5 marbles; g7,h8 push i9 off (2 against 1).
    custom = engine.Position.from_cells(
        "b",
        ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "b6", "c3", "g7", "h8"],
        ["i9", "e5", "e6", "e7", "e8", "e9", "d5", "d6", "d7"],
    ).to_string()
    Game.objects.filter(pk=game.pk).update(start_position=custom, position=custom)
    game = services.game_move_apply(
        game_id=game.pk, player=black, move="G7H8", expected_ply=0, now=at(1)
    )
    assert (game.status, game.result, game.termination) == ("finished", "1-0", "marbles")
    assert Move.objects.get(game=game).pushed_off is True
    assert game.flag_deadline is None


def repetition_cycle(position: engine.Position) -> list[str]:
    """Four single-marble moves that bring ``position`` back: out and back for both sides."""
    there = next(
        m for m in engine.legal_moves(position) if m.kind == "inline" and len(m.marbles) == 1
    )
    after, _ = engine.apply_move(position, there)
    reply = next(m for m in engine.legal_moves(after) if m.kind == "inline" and len(m.marbles) == 1)
    after2, _ = engine.apply_move(after, reply)
    back = next(
        m
        for m in engine.legal_moves(after2)
        if m.marbles == there.destinations and m.destinations == there.marbles
    )
    after3, _ = engine.apply_move(after2, back)
    reply_back = next(
        m
        for m in engine.legal_moves(after3)
        if m.marbles == reply.destinations and m.destinations == reply.marbles
    )
    return [there.notation, reply.notation, back.notation, reply_back.notation]


@pytest.mark.parametrize("kept", [False, True], ids=["replayed", "kept-between-moves"])
def test_repetition_ends_the_game_as_a_draw(
    new_game, players, kept, django_capture_on_commit_callbacks
):
    # With ``kept`` the after-commit hooks run, so each move takes the engine the previous one
    # kept (games.move_store); it must know the repetitions as well as a full replay does.
    black, white = players
    game = new_game(start="standard")
    move_store.forget_all()
    hits_before = move_store.counters["kept"]
    shuffle = repetition_cycle(engine.Position.from_string(game.position))
    seconds = 1
    for notation in shuffle * 2:
        game.refresh_from_db()
        player = black if game.side_to_move == "b" else white
        with django_capture_on_commit_callbacks(execute=kept):
            game = move(game, player, seconds, notation)
        seconds += 1
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "1/2-1/2", "repetition")
    assert move_store.counters["kept"] - hits_before == (7 if kept else 0)


def test_a_move_schedules_no_task_whatever_its_deadline(
    new_game, players, django_capture_on_commit_callbacks
):
    """Deadlines are found in the database (core.deadlines): a move only publishes its event,
    however close the mover's opponent is to running out."""
    black, white = players
    game = new_game(base=3)
    move(game, black, 1)
    with django_capture_on_commit_callbacks() as callbacks:
        move(game, white, 2)  # Black now has 3 s
    assert len(callbacks) == 2  # the event, and the engine kept for the next move
    assert {callback.__qualname__.split(".")[0] for callback in callbacks} == {
        "after_commit",
        "keep_after_commit",
    }

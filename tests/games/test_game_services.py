"""Live-game services against the database, with controlled time."""

import pytest

from abalone_site.errors import Conflict, InvalidInput, NotAllowed, NotFound
from games import engine, selectors, services
from games.models import Challenge, Game, Move

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


def test_illegal_move_is_400_with_the_engine_message_and_changes_nothing(new_game, players):
    game = new_game()
    before = snapshot(game)
    with pytest.raises(InvalidInput) as error:
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


def test_adjudication_is_idempotent(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 1)
    move(game, white, 2)
    assert services.game_adjudicate(game_id=game.pk, now=at(100)) is False  # not yet
    assert services.game_adjudicate(game_id=game.pk, now=at(182)) is True
    ended_at = Game.objects.get(pk=game.pk).ended_at
    for _ in range(3):
        assert services.game_adjudicate(game_id=game.pk, now=at(500)) is False
    game.refresh_from_db()
    assert game.ended_at == ended_at and game.result == "0-1"


def test_first_move_missed_rated_is_abandoned_casual_is_aborted(new_game, players):
    rated = new_game(rated=True)
    assert services.games_sweep_flags(now=at(30)) == 1
    rated.refresh_from_db()
    assert (rated.status, rated.result, rated.termination) == ("finished", "0-1", "abandoned")

    casual = new_game(rated=False)
    move(casual, players[0], 5)
    assert services.games_sweep_flags(now=at(36)) == 1  # White missed its first move
    casual.refresh_from_db()
    assert (casual.status, casual.result, casual.termination) == ("aborted", "", "aborted")


def test_sweep_finds_only_flagged_games(new_game, players):
    black, white = players
    flagged, running = new_game(), new_game(first_move=300)
    assert services.games_sweep_flags(now=at(31)) == 1
    flagged.refresh_from_db()
    running.refresh_from_db()
    assert flagged.status == "finished" and running.status == "started"


def test_resign_and_then_nothing_more(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 1)
    game = services.game_resign(game_id=game.pk, player=white, now=at(2))
    assert (game.result, game.termination) == ("1-0", "resignation")
    with pytest.raises(Conflict) as error:
        services.game_resign(game_id=game.pk, player=black, now=at(3))
    assert error.value.code == "game_over"
    with pytest.raises(Conflict):
        move(game, white, 4)


def test_draw_offer_accept_decline(new_game, players):
    black, white = players
    game = new_game()
    services.game_draw_offer(game_id=game.pk, player=black, now=at(1))
    with pytest.raises(Conflict):
        services.game_draw_offer(game_id=game.pk, player=black, now=at(1))
    with pytest.raises(Conflict):
        services.game_draw_answer(game_id=game.pk, player=black, accept=True, now=at(1))
    services.game_draw_answer(game_id=game.pk, player=white, accept=False, now=at(2))
    game.refresh_from_db()
    assert game.draw_offer == ""
    services.game_draw_offer(game_id=game.pk, player=white, now=at(3))
    game = services.game_draw_answer(game_id=game.pk, player=black, accept=True, now=at(4))
    assert (game.result, game.termination) == ("1/2-1/2", "agreement")


def test_crossing_draw_offers_agree_and_moving_declines(new_game, players):
    black, white = players
    game = new_game()
    services.game_draw_offer(game_id=game.pk, player=white, now=at(1))
    move(game, black, 2)  # Black plays on: White's offer lapses
    game.refresh_from_db()
    assert game.draw_offer == ""
    services.game_draw_offer(game_id=game.pk, player=black, now=at(3))
    game = services.game_draw_offer(game_id=game.pk, player=white, now=at(4))
    assert game.termination == "agreement"


def test_abort_only_before_both_moved(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 1)
    move(game, white, 2)
    with pytest.raises(Conflict) as error:
        services.game_abort(game_id=game.pk, player=black, now=at(3))
    assert error.value.code == "too_late_to_abort"
    fresh = new_game()
    fresh = services.game_abort(game_id=fresh.pk, player=white, now=at(1))
    assert fresh.status == "aborted"


def test_claim_flag_is_checked_by_the_server(new_game, players):
    black, white = players
    game = new_game()
    move(game, black, 1)
    move(game, white, 2)
    with pytest.raises(Conflict) as error:
        services.game_claim_flag(game_id=game.pk, player=white, now=at(100))
    assert error.value.code == "not_flagged" and "82.0 s" in error.value.detail
    with pytest.raises(Conflict):  # you cannot claim your own flag
        services.game_claim_flag(game_id=game.pk, player=black, now=at(200))
    game = services.game_claim_flag(game_id=game.pk, player=white, now=at(200))
    assert (game.result, game.termination) == ("0-1", "time")


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
    # kept (services._ReplayCache); it must know the repetitions as well as a full replay does.
    black, white = players
    game = new_game(start="standard")
    services._replays.clear()
    hits_before = services._replays.hits
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
    assert services._replays.hits - hits_before == (7 if kept else 0)


def test_a_kept_engine_behind_the_game_catches_up_with_the_moves_since(
    new_game, players, django_capture_on_commit_callbacks
):
    # As when the other player's move was made in another web process.
    black, white = players
    game = new_game(start="standard")
    with django_capture_on_commit_callbacks(execute=True):
        game = move(game, black, 1)
    behind = services._replays.take(game)  # the engine and moves as of ply 1
    assert behind is not None and behind[0].ply == 1
    game = move(game, white, 2)  # hooks not run: nothing kept for ply 2
    services._replays.keep(game, *behind)
    hits, caught_up = services._replays.hits, services._replays.caught_up
    with django_capture_on_commit_callbacks(execute=True):
        game = move(game, black, 3)
    assert (services._replays.hits, services._replays.caught_up) == (hits, caught_up + 1)
    game.refresh_from_db()
    assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == [1, 2, 3]
    replayed = services.replay(game)
    assert replayed.position.to_string() == game.position and replayed.ply == 3
    state = selectors.game_state(game, now=at(3))
    kept_engine, kept_documents = services._replays.take(game)
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
    wrong = services.replay(game, [other])
    documents = [selectors.move_document(1, other, at(1), 179_000, False)]
    services._replays.keep(game, wrong, documents)
    hits, caught_up = services._replays.hits, services._replays.caught_up
    game = move(game, black, 3)  # rebuilt from every move, and played correctly
    assert (services._replays.hits, services._replays.caught_up) == (hits, caught_up)
    game.refresh_from_db()
    replayed = services.replay(game)
    assert replayed.position.to_string() == game.position and replayed.ply == 3
    assert replayed.notations[0] == played


# --- challenges ---------------------------------------------------------------------------------


def seek(player, **overrides):
    settings = services.GameSettings(180, 2, 4, "belgian", True)
    return services.challenge_create(
        challenger=player,
        opponent=overrides.pop("opponent", None),
        colour=overrides.pop("colour", "black"),
        game_settings=settings,
        now=T0,
    )


def test_open_seek_accepted_starts_a_game(players):
    black, white = players
    challenge = seek(black, colour="black")
    game = services.challenge_accept(challenge_id=challenge.pk, user=white, now=at(5))
    assert (game.black, game.white, game.marbles_to_win) == (black, white, 4)
    challenge.refresh_from_db()
    assert challenge.status == "accepted" and challenge.game == game
    with pytest.raises(Conflict):
        services.challenge_accept(challenge_id=challenge.pk, user=white, now=at(6))


def test_random_colour_gives_both_colours_over_many_games(make_player):
    challenger, seen = make_player("chal"), set()
    for i in range(24):
        game = services.challenge_accept(
            challenge_id=seek(challenger, colour="random").pk,
            user=make_player(f"acc{i}"),
            now=at(1),
        )
        seen.add("b" if game.black == challenger else "w")
    assert seen == {"b", "w"}


def test_direct_challenge_only_for_the_named_player(players, make_player):
    black, white = players
    challenge = seek(black, opponent=white)
    with pytest.raises(NotAllowed):
        services.challenge_accept(challenge_id=challenge.pk, user=make_player("other"), now=at(1))
    with pytest.raises(NotAllowed):
        services.challenge_decline(challenge_id=challenge.pk, user=black, now=at(1))
    services.challenge_decline(challenge_id=challenge.pk, user=white, now=at(1))
    challenge.refresh_from_db()
    assert challenge.status == "declined"
    assert not Game.objects.exists()


def test_own_seek_cannot_be_accepted_and_cancel_is_challenger_only(players):
    black, white = players
    challenge = seek(black)
    with pytest.raises(Conflict):
        services.challenge_accept(challenge_id=challenge.pk, user=black, now=at(1))
    with pytest.raises(NotAllowed):
        services.challenge_cancel(challenge_id=challenge.pk, user=white, now=at(1))
    services.challenge_cancel(challenge_id=challenge.pk, user=black, now=at(1))
    with pytest.raises(Conflict):
        services.challenge_accept(challenge_id=challenge.pk, user=white, now=at(2))


def test_challenges_expire(players, settings):
    black, white = players
    challenge = seek(black)
    late = at(settings.CHALLENGE_EXPIRY_SECONDS + 1)
    with pytest.raises(Conflict) as error:
        services.challenge_accept(challenge_id=challenge.pk, user=white, now=late)
    assert error.value.code == "challenge_expired"
    assert services.challenges_expire(now=late) == 1
    assert Challenge.objects.get(pk=challenge.pk).status == "expired"


@pytest.mark.parametrize(
    ("settings_args", "code"),
    [
        ((None, 0, 6, "belgian", True), "rated_needs_clock"),
        ((180, 0, 7, "belgian", False), "invalid"),
        ((180, 0, 6, "martian", False), "invalid_start"),
        ((0, 0, 6, "belgian", False), "invalid_time_control"),
    ],
)
def test_bad_game_settings_are_refused(players, settings_args, code):
    with pytest.raises(InvalidInput) as error:
        services.challenge_create(
            challenger=players[0],
            opponent=None,
            colour="random",
            game_settings=services.GameSettings(*settings_args),
            now=T0,
        )
    assert error.value.code == code
    assert not Challenge.objects.exists()


def test_cannot_challenge_yourself(players):
    with pytest.raises(InvalidInput):
        seek(players[0], opponent=players[0])


def test_sweep_schedules_deadline_tasks_only_for_deadlines_entering_the_horizon(
    new_game, players, django_capture_on_commit_callbacks
):
    black, white = players
    game = new_game(base=60)
    move(game, black, 1)
    move(game, white, 2)  # Black's deadline: 62 s
    with django_capture_on_commit_callbacks() as far:
        services.games_sweep_flags(now=at(30))
    with django_capture_on_commit_callbacks() as entering:
        services.games_sweep_flags(now=at(57.5))  # 4.5 s left: inside the 5 s horizon
    with django_capture_on_commit_callbacks() as inside:
        services.games_sweep_flags(now=at(59.5))  # already scheduled by an earlier sweep
    assert (len(far), len(entering), len(inside)) == (0, 1, 0)


def test_a_move_schedules_a_task_only_for_a_close_deadline(
    new_game, players, django_capture_on_commit_callbacks
):
    black, white = players
    game = new_game(base=3)
    move(game, black, 1)
    with django_capture_on_commit_callbacks() as close:
        move(game, white, 2)  # Black now has 3 s: a task at the deadline
    slow = new_game(base=600)
    move(slow, black, 1)
    with django_capture_on_commit_callbacks() as far:
        move(slow, white, 2)  # 600 s away: the sweep will schedule it later
    assert len(close) == len(far) + 1

"""Conditional moves in correspondence games (issue 29, item 1): "if he plays X, I play Y",
saved on the opponent's turn, played at once when the opponent plays a move foreseen, kept for
the turns after, dropped otherwise; every refusal changes nothing; the sweep plays an answer a
dead process left unplayed, once."""

from datetime import timedelta

import pytest

from games import conditional, engine, services
from games.models import ConditionalMoves, Game
from games.services import moves as move_services

from .conftest import at
from .test_correspondence import DAY, correspondence_game

pytestmark = pytest.mark.django_db


# --- the pure rules ---------------------------------------------------------------------------------


def test_follow_answers_a_foreseen_move_and_keeps_what_comes_after():
    lines = [["x1", "y1", "x2", "y2"], ["x1", "y1", "x3", "y3"], ["z1", "y9"]]
    assert conditional.follow(lines, ["x1"]) == ("y1", [["x2", "y2"], ["x3", "y3"]])
    assert conditional.follow(lines, ["z1"]) == ("y9", [])
    assert conditional.follow(lines, ["q1"]) == (None, [])  # not foreseen: all dropped
    # The player's own move made meanwhile (an even count): the lines that went that way stay.
    assert conditional.follow(lines, ["x1", "y1"]) == (None, [["x2", "y2"], ["x3", "y3"]])
    assert conditional.follow(lines, ["x1", "y2"]) == (None, [])
    assert conditional.follow(lines, ["x1", "y1", "x3"]) == ("y3", [])
    assert conditional.follow([], ["x1"]) == (None, [])


def test_conflict_finds_two_answers_to_one_move():
    assert conditional.conflict([["a", "b", "c", "d"], ["a", "b", "e", "f"]]) is None
    assert conditional.conflict([["a", "b"], ["a", "c"]]) == (["a"], "b", "c")
    assert conditional.conflict([["a", "b", "c", "d"], ["a", "b", "c", "e"]]) == (
        ["a", "b", "c"],
        "d",
        "e",
    )
    assert conditional.normalised([[" A1B2 ", "c3c4"], ["a1b2", "C3C4"]]) == [["a1b2", "c3c4"]]


# --- the game -----------------------------------------------------------------------------------------


def legal(game: Game, index: int = 0) -> str:
    return engine.legal_moves(engine.Position.from_string(game.position))[index].notation


def after(position: str, *moves: str) -> str:
    board = engine.Position.from_string(position)
    for move in moves:
        board, _outcome = engine.apply_move(board, move)
    return board.to_string()


def nth_legal(position: str, index: int) -> str:
    return engine.legal_moves(engine.Position.from_string(position))[index].notation


def started_game(players) -> tuple[Game, str]:
    """A three-day game after Black's first move: White to move. Its position."""
    black, _white = players
    game = correspondence_game(players)
    services.game_move_apply(
        game_id=game.pk, player=black, move=legal(game), expected_ply=0, now=at(3600)
    )
    game.refresh_from_db()
    return game, game.position


def one_line_saved(game: Game, player, position: str) -> tuple[str, str]:
    """``player`` saves one line: the opponent's first legal move, their own first answer."""
    theirs = nth_legal(position, 0)
    mine = nth_legal(after(position, theirs), 0)
    services.conditional_moves_set(
        game_id=game.pk, player=player, ply=1, lines=[[theirs, mine]], now=at(4000)
    )
    return theirs, mine


def test_the_answer_to_a_foreseen_move_is_played_at_once_and_the_rest_kept(players):
    black, white = players
    game, position = started_game(players)
    w1 = nth_legal(position, 0)
    b2 = nth_legal(after(position, w1), 3)
    w3 = nth_legal(after(position, w1, b2), 5)
    b4 = nth_legal(after(position, w1, b2, w3), 2)
    other = nth_legal(position, 1)
    services.conditional_moves_set(
        game_id=game.pk,
        player=black,
        ply=1,
        lines=[[w1, b2, w3, b4], [other, nth_legal(after(position, other), 0)]],
        now=at(4000),
    )
    services.game_move_apply(game_id=game.pk, player=white, move=w1, expected_ply=1, now=at(DAY))
    game.refresh_from_db()
    assert game.ply == 3 and list(game.moves.values_list("notation", flat=True))[1:] == [w1, b2]
    answered = game.moves.get(ply=3)
    assert answered.played_at == at(DAY) and answered.spent_ms == 0
    assert game.flag_deadline == at(DAY) + timedelta(days=3)  # White's three days, from now
    kept = ConditionalMoves.objects.get(game=game, player=black)
    assert (kept.ply, kept.lines) == (3, [[w3, b4]])
    services.game_move_apply(
        game_id=game.pk, player=white, move=w3, expected_ply=3, now=at(2 * DAY)
    )
    game.refresh_from_db()
    assert game.ply == 5 and game.moves.get(ply=5).notation == b4
    assert not ConditionalMoves.objects.filter(game=game).exists()  # all used


def test_a_move_not_foreseen_drops_the_lines_and_plays_nothing(players):
    black, white = players
    game, position = started_game(players)
    w1, _b2 = one_line_saved(game, black, position)
    services.game_move_apply(
        game_id=game.pk, player=white, move=nth_legal(position, 4), expected_ply=1, now=at(DAY)
    )
    game.refresh_from_db()
    assert game.ply == 2 and game.side_to_move == engine.BLACK
    assert not ConditionalMoves.objects.exists()


def test_every_refusal_names_its_problem_and_changes_nothing(api, players, new_game):
    black, white = players
    game, position = started_game(players)
    w1 = nth_legal(position, 0)
    b2 = nth_legal(after(position, w1), 0)
    url = f"/api/v1/games/{game.pk}/conditional/"
    saved = api(black).put(url, {"ply": 1, "lines": [[w1, b2]]}, format="json")
    assert saved.status_code == 200, saved.content
    assert saved.json() == {"game": game.pk, "ply": 1, "lines": [[w1, b2]], "can_set": True}
    for who, body, status, code in (
        (white, {"ply": 1, "lines": [[b2, w1]]}, 409, "your_move"),
        (black, {"ply": 0, "lines": [[w1, b2]]}, 409, "stale_ply"),
        (black, {"ply": 1, "lines": [[w1]]}, 400, "invalid"),  # the schema: two moves at least
        (black, {"ply": 1, "lines": [[w1, b2, w1]]}, 422, "line_without_answer"),
        (black, {"ply": 1, "lines": [[w1, "a1a9"]]}, 422, "illegal_move"),
        (black, {"ply": 1, "lines": [["i9i1", b2]]}, 422, "illegal_move"),
        (
            black,
            {"ply": 1, "lines": [[w1, b2], [w1, nth_legal(after(position, w1), 1)]]},
            422,
            "conflicting_answers",
        ),
        (black, {"ply": 1, "lines": [[w1, b2]] * 21}, 400, "invalid"),
        (black, {"ply": 1, "lines": "d5d4"}, 400, "invalid"),
    ):
        refused = api(who).put(url, body, format="json")
        assert refused.status_code == status, (body, refused.content)
        assert refused.json()["error"] == code, (body, refused.json())
        assert refused.json()["detail"]
    illegal = api(black).put(url, {"ply": 1, "lines": [[w1, "a1a9"]]}, format="json").json()
    assert "Line 1, move 2" in illegal["detail"]
    stranger = api(new_game().black.__class__.objects.create(username="stranger")).get(url)
    assert stranger.status_code == 403 and stranger.json()["error"] == "not_a_player"
    assert api().get(url).status_code in (401, 403)
    live = new_game()
    for player in (live.black, live.white):
        refused = api(player).put(
            f"/api/v1/games/{live.pk}/conditional/", {"ply": 0, "lines": []}, format="json"
        )
        assert refused.status_code == 409 and refused.json()["error"] == "not_correspondence"
    row = ConditionalMoves.objects.get()
    assert (row.player, row.ply, row.lines) == (black, 1, [[w1, b2]])  # still as saved
    cleared = api(black).put(url, {"ply": 1, "lines": []}, format="json")
    assert cleared.json()["lines"] == [] and not ConditionalMoves.objects.exists()
    services.game_resign(game_id=game.pk, player=white, now=at(DAY))
    over = api(black).put(url, {"ply": 1, "lines": [[w1, b2]]}, format="json")
    assert over.status_code == 409 and over.json()["error"] == "game_over"


def test_the_sweep_plays_an_answer_a_dead_process_left_unplayed_once(players, monkeypatch):
    black, white = players
    game, position = started_game(players)
    w1, b2 = one_line_saved(game, black, position)
    # The move's process dies after its commit, before it looks for conditional moves.
    monkeypatch.setattr(move_services, "has_conditional_moves", lambda game_id: False)
    services.game_move_apply(game_id=game.pk, player=white, move=w1, expected_ply=1, now=at(DAY))
    assert Game.objects.get(pk=game.pk).ply == 2
    assert services.conditional_moves_pending(now=at(DAY + 30)) == 1
    assert services.conditional_moves_pending(now=at(DAY + 60)) == 0  # once
    game.refresh_from_db()
    assert game.ply == 3 and game.moves.get(ply=3).notation == b2
    assert game.moves.get(ply=3).played_at == at(DAY + 30)


def test_a_flag_fallen_before_the_answer_drops_the_lines(players, monkeypatch):
    black, white = players
    game, position = started_game(players)
    w1, _b2 = one_line_saved(game, black, position)
    monkeypatch.setattr(move_services, "has_conditional_moves", lambda game_id: False)
    services.game_move_apply(game_id=game.pk, player=white, move=w1, expected_ply=1, now=at(DAY))
    # Nobody swept for three days: Black's time ran out before the answer could be played.
    assert services.conditional_moves_pending(now=at(4 * DAY + 1)) == 0
    assert not ConditionalMoves.objects.exists()
    assert Game.objects.get(pk=game.pk).ply == 2

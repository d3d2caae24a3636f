"""Records of three- and four-player games (games.engine.multi_record)."""

import random

import pytest

from games.engine.errors import RecordError
from games.engine.multi_game import MultiGame
from games.engine.multi_record import read_multi_record, result_text, write_multi_record


def played(players: int, *, placement: bool = False, seed: int = 1) -> MultiGame:
    rng = random.Random(seed)
    game = MultiGame(players=players, placement=placement, marbles_to_win=2, max_plies=300)
    while not game.over:
        moves = game.legal_moves()
        pushes = [m for m in moves if getattr(m, "pushed_off", None)]
        game.play(rng.choice(pushes or moves))
    return game


@pytest.mark.parametrize(("players", "placement"), [(3, False), (4, False), (3, True)])
def test_a_finished_game_writes_and_reads_back(players, placement):
    game = played(players, placement=placement)
    text = write_multi_record(
        game, {"Players": "ann, bob, cid" + (", dan" if players == 4 else "")}
    )
    assert '[Result "' + result_text(game) + '"]' in text
    headers, again = read_multi_record(text)
    assert headers["Players"].startswith("ann, bob")
    assert again.notations == game.notations and again.position == game.position
    assert again.ranking() == game.ranking()


def test_a_resignation_is_kept_with_who_dropped_out():
    game = MultiGame()
    game.play(game.legal_moves()[0])
    game.drop_out("w", "time")
    text = write_multi_record(game)
    assert '[Out "w"]' in text and '[Result "1-3-1"]' in text
    _, again = read_multi_record(text)
    assert again.out == "w" and again.ranking() == game.ranking()


def test_an_illegal_move_is_named_by_its_ply_and_a_wrong_result_is_refused():
    with pytest.raises(RecordError) as refused:
        read_multi_record('[Variant "three"]\n\n1. a1b1 a1b2 *')
    assert "ply 2" in str(refused.value)
    text = write_multi_record(played(3))
    with pytest.raises(RecordError) as refused:
        read_multi_record(text.replace('[Result "', '[Result "9'))
    assert refused.value.code in ("result_mismatch", "bad_header")

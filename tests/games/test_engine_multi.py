"""The three-player engine (games.engine.multi): hand-built positions for every rule, and an
independent generator (written here cell by cell, sharing no code with the bitboard one)
that must produce the same moves from the start, from random play and from random layouts."""

import random
from collections import Counter

import pytest

from games.engine.board import CELL_NAMES, DIRECTION_STEPS, ROW_LETTERS
from games.engine.errors import EngineError, IllegalMove, PositionError
from games.engine.multi import (
    COLOURS,
    MultiPosition,
    apply_multi_move,
    multi_perft,
    three_player_start,
)
from games.engine.multi_game import MultiGame, ranking

# --- an independent generator ------------------------------------------------------------------


def cell(row: int, diagonal: int) -> str | None:
    if 0 <= row < 9 and 0 <= diagonal < 9 and abs(diagonal - row) <= 4:
        return f"{ROW_LETTERS[row]}{diagonal + 1}"
    return None


def coords(name: str) -> tuple[int, int]:
    return ROW_LETTERS.index(name[0]), int(name[1]) - 1


def step(name: str, direction: str) -> str | None:
    row, diagonal = coords(name)
    dr, dd = DIRECTION_STEPS[direction]
    return cell(row + dr, diagonal + dd)


AXES = ("E", "NE", "NW")
OPPOSITE = {"E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}


def naive_results(board: dict[str, str], mover: str) -> Counter:
    """Every position (as a sorted tuple of (cell, colour)) one legal move of ``mover`` leads to."""
    results: Counter = Counter()
    mine = [c for c, colour in board.items() if colour == mover]
    groups = {(c,) for c in mine}
    for start in mine:
        for axis in AXES:
            line = [start]
            for _ in range(2):
                nxt = step(line[-1], axis)
                if nxt is None or board.get(nxt) != mover:
                    break
                line.append(nxt)
                groups.add(tuple(line))
    for group in groups:
        size = len(group)
        axis = None if size == 1 else next(a for a in AXES if step(group[0], a) == group[1])
        for direction in DIRECTION_STEPS:
            along = size == 1 or direction in (axis, OPPOSITE[axis])
            if along:
                column = list(group) if size == 1 or direction == axis else list(reversed(group))
                lead = column[-1]
                ahead = step(lead, direction)
                if ahead is None or board.get(ahead) == mover:
                    continue
                pushed = []
                at = ahead
                while at is not None and board.get(at) not in (None, mover):
                    pushed.append(at)
                    at = step(at, direction)
                blocked = at is not None and board.get(at) == mover
                if pushed and (len(pushed) >= size or blocked):
                    continue
                new = dict(board)
                for c in column:
                    del new[c]
                for c in pushed:
                    del new[c]
                for c in column:
                    new[step(c, direction)] = mover
                for c in pushed:
                    target = step(c, direction)
                    if target is not None:
                        new[target] = board[c]
                results[tuple(sorted(new.items()))] += 1
            else:
                targets = [step(c, direction) for c in group]
                if any(t is None or t in board for t in targets):
                    continue
                new = dict(board)
                for c in group:
                    del new[c]
                for t in targets:
                    new[t] = mover
                results[tuple(sorted(new.items()))] += 1
    return results


def as_board(position: MultiPosition) -> dict[str, str]:
    return {c: colour for colour in COLOURS for c in position.cells(colour)}


def engine_results(position: MultiPosition) -> Counter:
    return Counter(
        tuple(sorted(as_board(apply_multi_move(position, move)[0]).items()))
        for move in position.legal_moves()
    )


def naive_perft(board: dict[str, str], turn: int, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for result, count in naive_results(board, COLOURS[turn]).items():
        total += count * naive_perft(dict(result), (turn + 1) % 3, depth - 1)
    return total


def test_perft_from_the_three_player_start_agrees_with_an_independent_generator():
    start = three_player_start()
    counts = [multi_perft(start, depth) for depth in (1, 2, 3)]
    assert counts == [naive_perft(as_board(start), 0, depth) for depth in (1, 2, 3)]
    assert counts == [40, 1587, 62440]  # written in docs/rules-multiplayer.md


@pytest.mark.parametrize("seed", range(12))
def test_random_play_and_random_layouts_give_the_same_moves(seed):
    rng = random.Random(seed)
    position = three_player_start()
    for _ply in range(40):  # random play from the start
        assert engine_results(position) == naive_results(as_board(position), position.side_to_move)
        moves = position.legal_moves()
        if not moves:
            break
        position = apply_multi_move(position, rng.choice(moves))[0]
    for _layout in range(25):  # crowded random layouts: mixed columns everywhere
        cells = rng.sample(CELL_NAMES, rng.randint(12, 33))
        board = {c: COLOURS[i % 3] for i, c in enumerate(cells)}
        text = "|".join(
            [rng.choice(COLOURS)]
            + [
                ",".join(sorted(c for c, col in board.items() if col == colour))
                for colour in COLOURS
            ]
        )
        position = MultiPosition.from_string(text)
        assert engine_results(position) == naive_results(board, position.side_to_move)


# --- the rules, by hand ------------------------------------------------------------------------


def test_three_push_a_mixed_column_and_the_pushed_keep_their_colours():
    position = MultiPosition.from_string("b|e1,e2,e3|e4|e5")
    after, outcome = apply_multi_move(position, "e1e2")  # the trailing marble and where it goes
    assert outcome.ejected is None
    assert after.to_string() == "w|e2,e3,e4|e5|e6"
    assert after.side_to_move == "w"


def test_any_marble_behind_the_column_blocks_the_push():
    for behind in ("b|e1,e2,e3,e6|e4|e5", "b|e1,e2,e3|e4,e6|e5", "b|e1,e2,e3|e4|e5,e6"):
        position = MultiPosition.from_string(behind)
        assert "e1e2" not in {m.notation for m in position.legal_moves()}
        with pytest.raises(IllegalMove):
            apply_multi_move(position, "e1e2")


def test_outnumbered_and_pac_whatever_the_colours():
    assert "e1e2" not in {
        m.notation for m in MultiPosition.from_string("b|e1,e2|e3|e4").legal_moves()
    }  # 2 against 2 (one White, one Red): pac
    assert "e1e2" in {m.notation for m in MultiPosition.from_string("b|e1,e2|e3|").legal_moves()}


def test_pushing_a_marble_off_credits_the_mover_and_the_sixth_wins():
    # Red's e5 e6 e7 push White's e8 and Black's e9 east: e9 is on the edge, so Black's
    # marble leaves the board, and Red (the mover) is credited with it.
    game = MultiGame(position=MultiPosition.from_string("r|e9|e8|e5,e6,e7"))
    game.pushed_off["r"] = 5
    outcome = game.play("e5e6")
    assert outcome.ejected == "b"
    assert game.pushed_off == {"b": 0, "w": 0, "r": 6}
    assert game.winner == "r" and game.over
    assert game.position.cells("w") == ("e9",) and game.position.cells("b") == ()
    assert game.ranking()[0] == (1, "r")
    with pytest.raises(EngineError):
        game.play("a1a2")


def test_turns_go_black_white_red_and_a_move_out_of_turn_is_refused():
    position = three_player_start()
    position = apply_multi_move(position, "a1b1")[0]
    assert position.side_to_move == "w"
    with pytest.raises(IllegalMove):  # Black's marble is not White's to move
        apply_multi_move(position, "a2b2")
    position = apply_multi_move(position, position.legal_moves()[0])[0]
    assert position.side_to_move == "r"
    position = apply_multi_move(position, position.legal_moves()[0])[0]
    assert position.side_to_move == "b"


def test_a_player_who_drops_out_finishes_last_and_the_others_rank_by_push_offs():
    game = MultiGame()
    game.pushed_off.update({"b": 2, "w": 3, "r": 1})
    game.drop_out("w")
    assert game.over and game.ranking() == [(1, "b"), (2, "r"), (3, "w")]
    assert ranking({"b": 2, "w": 0, "r": 2}, out="w") == [(1, "b"), (1, "r"), (3, "w")]


def test_position_strings_are_checked():
    for bad, code in (
        ("b|a1|a1|", "duplicate_cell"),
        ("x|a1||", "syntax"),
        ("b|a1|b1", "syntax"),
        ("b|z9||", "not_a_cell"),
        ("b|" + ",".join(CELL_NAMES[:12]) + "||", "too_many_marbles"),
    ):
        with pytest.raises(PositionError) as refused:
            MultiPosition.from_string(bad)
        assert refused.value.code == code, bad
    start = three_player_start()
    assert MultiPosition.from_string(start.to_string()) == start
    assert start.to_string().startswith("b|a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6|d1,e1,")


def test_the_command_line_counts_and_lists_three_player_moves(capsys):
    from games.engine.__main__ import main

    assert main(["perft", "three", "2"]) == 0
    assert capsys.readouterr().out.strip() == "1587"
    assert main(["moves", "r|e9|e8|e5,e6,e7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "e5e6 b||e9|e6,e7,e8" in lines  # Black's marble pushed off; Black (none left) next
    assert main(["moves", "b|a1|a1|"]) == 2
    assert "holds two marbles" in capsys.readouterr().err

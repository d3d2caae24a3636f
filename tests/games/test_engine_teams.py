"""Four players in two teams (games.engine.multi, multi_game): hand-built positions for the team
rule and its settings, and an independent generator written here cell by cell."""

import random
from collections import Counter

import pytest

from games.engine.board import CELL_NAMES, DIRECTION_STEPS, ROW_LETTERS
from games.engine.errors import IllegalMove, PositionError
from games.engine.multi import (
    FOUR_COLOURS,
    MultiPosition,
    TeamRules,
    apply_multi_move,
    four_player_start,
    multi_perft,
)
from games.engine.multi_game import MultiGame

PARTNER = {"b": "r", "r": "b", "w": "g", "g": "w"}


def step(name, direction):
    row, diagonal = ROW_LETTERS.index(name[0]), int(name[1]) - 1
    dr, dd = DIRECTION_STEPS[direction]
    row, diagonal = row + dr, diagonal + dd
    if 0 <= row < 9 and 0 <= diagonal < 9 and abs(diagonal - row) <= 4:
        return f"{ROW_LETTERS[row]}{diagonal + 1}"
    return None


def naive_team_results(board, mover, rules):
    """Every board one legal move of ``mover`` leads to, by the team rule as written in
    docs/rules-multiplayer.md, found cell by cell."""
    partner = PARTNER[mover]
    team = (mover, partner)
    results = Counter()

    def shifted(column, pushed, direction):
        new = dict(board)
        for c in (*column, *pushed):
            del new[c]
        for c in (*column, *pushed):
            target = step(c, direction)
            if target is not None:
                new[target] = board[c]
        return tuple(sorted(new.items()))

    for trailing in [c for c, colour in board.items() if colour in team]:
        for direction in DIRECTION_STEPS:
            for size in (1, 2, 3):
                column = [trailing]
                while len(column) < size:
                    nxt = step(column[-1], direction)
                    if nxt is None or board.get(nxt) not in team:
                        break
                    column.append(nxt)
                if len(column) < size:
                    break
                colours = [board[c] for c in column]
                has_partner = partner in colours
                if not has_partner and colours.count(mover) != len(column):
                    continue
                if has_partner:
                    need = {"rear": colours[0] == mover, "front": colours[-1] == mover}
                    if not need.get(rules.own_marble, mover in colours):
                        continue
                ahead = step(column[-1], direction)
                if ahead is None or board.get(ahead) in team:
                    continue
                pushed, at = [], ahead
                while at is not None and board.get(at) not in (None, *team):
                    pushed.append(at)
                    at = step(at, direction)
                if not pushed:
                    if has_partner and not rules.partner_moves:
                        continue
                elif len(pushed) >= len(column) or (at is not None and at in board):
                    continue
                results[shifted(column, pushed, direction)] += 1
    # broadsides: 2-3 of the mover's own marbles in a line, every target empty
    mine = [c for c, colour in board.items() if colour == mover]
    for start in mine:
        for axis in ("E", "NE", "NW"):
            line = [start]
            for _ in range(2):
                nxt = step(line[-1], axis)
                if nxt is None or board.get(nxt) != mover:
                    break
                line.append(nxt)
                for direction in DIRECTION_STEPS:
                    if direction in (axis, {"E": "W", "NE": "SW", "NW": "SE"}[axis]):
                        continue
                    targets = [step(c, direction) for c in line]
                    if all(t is not None and t not in board for t in targets):
                        results[shifted(line, [], direction)] += 1
    return results


def as_board(position):
    return {c: colour for colour in FOUR_COLOURS for c in position.cells(colour)}


def engine_results(position, rules):
    return Counter(
        tuple(sorted(as_board(apply_multi_move(position, move, rules)[0]).items()))
        for move in position.legal_moves(rules)
    )


def test_the_four_player_start():
    start = four_player_start()
    assert start.players == 4 and start.teams and start.side_to_move == "b"
    cells = [set(start.cells(colour)) for colour in FOUR_COLOURS]
    assert [len(c) for c in cells] == [9, 9, 9, 9]
    assert not set.intersection(*cells[:2]) and len(set.union(*cells)) == 36
    assert MultiPosition.from_string(start.to_string()) == start
    assert multi_perft(start, 1) == len(start.legal_moves())


def test_a_partner_marble_in_the_pushing_column_counts_when_the_rear_marble_is_yours():
    position = MultiPosition.from_string("b|e1|e3|e2|")  # Black e1, Red (partner) e2, White e3
    assert "e1e2" in {m.notation for m in position.legal_moves()}
    after, outcome = apply_multi_move(position, "e1e2")
    assert after.cells("b") == ("e2",) and after.cells("r") == ("e3",)
    assert after.cells("w") == ("e4",) and outcome.ejected is None
    # the front marble must be Black's under "front"; the rear one is not enough then
    front = TeamRules(own_marble="front")
    assert "e1e2" not in {m.notation for m in position.legal_moves(front)}
    swapped = MultiPosition.from_string("b|e2|e3|e1|")
    assert "e1e2" in {m.notation for m in swapped.legal_moves(front)}
    assert "e1e2" not in {m.notation for m in swapped.legal_moves()}


def test_a_partner_marble_is_never_pushed_and_blocks_behind_a_column():
    position = MultiPosition.from_string("b|e1,e2||e3|")
    assert "e1e2" not in {m.notation for m in position.legal_moves()}
    with pytest.raises(IllegalMove):
        apply_multi_move(position, "e1e2")
    blocked = MultiPosition.from_string("b|e1,e2,e3|e4|e5|")  # Red behind White's marble
    assert "e1e2" not in {m.notation for m in blocked.legal_moves()}


def test_partner_marbles_move_without_a_push_only_by_the_setting():
    position = MultiPosition.from_string("b|e1||e2|")
    assert "e1e2" not in {m.notation for m in position.legal_moves()}
    assert "e1e2" in {m.notation for m in position.legal_moves(TeamRules(partner_moves=True))}


def test_three_of_the_team_push_two_opponents_of_either_colour_off_the_board():
    # Black e4 and e6 with Red's e5 between them push White's e7 and Green's e8
    position = MultiPosition.from_string("b|e4,e6|e7|e5|e8")
    after, outcome = apply_multi_move(position, "e4e5")
    assert outcome.ejected is None  # e9 empty: the column moves one cell
    assert after.cells("w") == ("e8",) and after.cells("g") == ("e9",)
    position = MultiPosition.from_string("b|e5,e7|e8|e6|e9")
    after, outcome = apply_multi_move(position, "e5e6")
    assert outcome.ejected == "g" and after.cells("w") == ("e9",)


@pytest.mark.parametrize(
    "rules", [TeamRules(), TeamRules("front"), TeamRules("any"), TeamRules("rear", True)]
)
def test_the_engine_agrees_with_the_independent_generator_on_random_layouts(rules):
    rng = random.Random(hash(rules) & 0xFFFF)
    for _ in range(150):
        cells = rng.sample(CELL_NAMES, rng.randint(12, 36))
        lists = [cells[i::4][:9] for i in range(4)]
        position = MultiPosition(
            rng.randrange(4),
            tuple(MultiPosition.from_string("b|" + ",".join(c) + "|||").boards[0] for c in lists),
            FOUR_COLOURS,
        )
        board = as_board(position)
        assert engine_results(position, rules) == naive_team_results(
            board, position.side_to_move, rules
        ), position.to_string()
    game = MultiGame(players=4, rules=rules)
    for _ in range(40):
        if game.over:
            break
        board = as_board(game.position)
        assert engine_results(game.position, rules) == naive_team_results(
            board, game.position.side_to_move, rules
        )
        game.play(rng.choice(game.legal_moves()))


def test_the_first_team_to_six_wins_and_partners_share_first_place():
    game = MultiGame(position=MultiPosition.from_string("r|a1||e5,e6,e7|e9,e8"))
    game.pushed_off.update({"b": 3, "r": 2})
    outcome = game.play("e5e6")
    assert outcome.ejected == "g" and game.pushed_off["r"] == 3
    assert game.over and game.winner == "r" and game.termination == "marbles"
    assert game.ranking() == [(1, "b"), (1, "r"), (3, "w"), (3, "g")]


def test_a_player_who_drops_out_loses_for_the_team():
    game = MultiGame(players=4)
    game.play(game.legal_moves()[0])
    game.drop_out("w", "time")
    assert game.ranking() == [(1, "b"), (1, "r"), (3, "w"), (3, "g")]


def test_four_player_position_strings_are_checked():
    with pytest.raises(PositionError) as refused:
        MultiPosition.from_string("b|" + ",".join(CELL_NAMES[:10]) + "|||")
    assert refused.value.code == "too_many_marbles"
    with pytest.raises(PositionError):
        MultiPosition.from_string("x||||")


def test_placement_with_three_and_four_players():
    for players in (3, 4):
        game = MultiGame(players=players, placement=True)
        assert game.in_placement and game.position.occupied == 0
        game.play("@e5")
        with pytest.raises(IllegalMove) as refused:
            game.play("@E5")
        assert refused.value.code == "cell_occupied" and game.plies == 1
        rng = random.Random(players)
        while game.in_placement:
            game.play(rng.choice(game.legal_moves()))
        assert game.plies == players * (11 if players == 3 else 9)
        assert game.position.side_to_move == "b"
        with pytest.raises(IllegalMove) as refused:
            game.play("@" + next(c for c in CELL_NAMES if game.position.colour_at(c) is None))
        assert refused.value.code == "placement_over"
        game.play(game.legal_moves()[0])

"""Exports of a tournament: standings and crosstable as CSV, the event as FIDE TRF, its games."""

from __future__ import annotations

import csv
import io

from games import engine
from games.models import Move
from tournaments import history, selectors
from tournaments.models import Board, Entrant, Tournament
from tournaments.pairing import PairingPlayer, write_trf
from tournaments.tiebreaks import TIEBREAKS


def standings_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    order = [code for code in tournament.tiebreaks if code in TIEBREAKS]
    writer.writerow(
        ["rank", "number", "player", "rating", "points", *[TIEBREAKS[code].short for code in order]]
    )
    for row in selectors.standings(tournament):
        writer.writerow(
            [
                row["rank"],
                row["number"],
                row["username"],
                row["rating"],
                f"{row['points_value']:g}",
                *[f"{row['tiebreak_values'][code]:g}" for code in order],
            ]
        )
    return out.getvalue()


def crosstable_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "rank",
            "number",
            "player",
            "rating",
            *[f"R{n}" for n in range(1, tournament.current_round + 1)],
            "points",
        ]
    )
    for row in selectors.crosstable(tournament):
        writer.writerow(
            [
                row["rank"],
                row["number"],
                row["username"],
                row["rating"],
                *row["cells"],
                row["points"],
            ]
        )
    return out.getvalue()


def trf(tournament: Tournament) -> str:
    """The whole event as a FIDE TRF-16 file (decided rounds; Black is TRF's white)."""
    people = list(
        Entrant.objects.filter(tournament=tournament, pairing_number__isnull=False)
        .select_related("user")
        .order_by("pairing_number")
    )
    past = history.histories(tournament, people, tournament.current_round)
    players = [
        PairingPlayer(e.pairing_number, e.user.username, e.rating, past[e.pk]) for e in people
    ]
    return write_trf(
        tournament.name,
        players,
        total_rounds=tournament.rounds,
        scoring=history.scoring_of(tournament),
    )


def game_records(tournament: Tournament) -> str:
    """Every game of the event in the game-record format, round by round."""
    records = []
    boards = (
        Board.objects.filter(round__tournament=tournament, game__isnull=False)
        .select_related("round", "game", "black__user", "white__user")
        .order_by("round__number", "number")
    )
    for board in boards:
        game = board.game
        engine_game = engine.Game(
            game.start_position,
            marbles_to_win=game.marbles_to_win,
            threefold_repetition=game.threefold_repetition,
            max_plies=game.max_plies,
            max_plies_result=game.max_plies_result,
        )
        for notation in (
            Move.objects.filter(game=game).order_by("ply").values_list("notation", flat=True)
        ):
            engine_game.play(notation)
        if (
            not engine_game.is_over
            and game.result
            and game.termination in engine.EXTERNAL_TERMINATIONS
        ):
            engine_game.end(game.result, game.termination)
        records.append(
            engine.write_record(
                engine_game,
                {
                    "Event": tournament.name,
                    "Round": f"{board.round.number}.{board.number}",
                    "Date": game.created_at.strftime("%Y.%m.%d"),
                    "Black": board.black.user.username,
                    "White": board.white.user.username,
                    "TimeControl": f"{game.base_seconds or '-'}+{game.increment_seconds}",
                },
            )
        )
    return "\n".join(records)

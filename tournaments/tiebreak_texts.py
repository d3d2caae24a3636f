"""The tie-breaks as the pages name and explain them, in the reader's language
(:mod:`tournaments.tiebreaks`, pure, names them in English): the settings form's choices,
the guide under them, and the standings' column titles."""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.tiebreaks import TIEBREAKS
from tournaments.tiebreaks.team import TEAM_TIEBREAKS

#: code -> (name, what it counts), in the order the settings form offers them: the usual
#: ones first.
TIEBREAK_TEXTS = {
    "buchholz_cut1": (
        _("Buchholz cut 1"),
        _("Buchholz without the weakest opponent (a voluntary bye or forfeit goes first)."),
    ),
    "buchholz": (_("Buchholz"), _("The sum of the opponents' scores.")),
    "buchholz_cut2": (_("Buchholz cut 2"), _("Buchholz without the two weakest opponents.")),
    "median_buchholz": (
        _("Median Buchholz"),
        _("Buchholz without the weakest and the strongest opponent."),
    ),
    "median_buchholz2": (
        _("Median Buchholz 2"),
        _("Buchholz without the two weakest and the two strongest opponents."),
    ),
    "sonneborn_berger": (
        _("Sonneborn-Berger"),
        _("Each opponent's score times the points scored against them."),
    ),
    "sonneborn_berger_cut1": (
        _("Sonneborn-Berger cut 1"),
        _("Sonneborn-Berger without its least significant part."),
    ),
    "direct_encounter": (
        _("Direct encounter"),
        _("The points scored against the other players still tied."),
    ),
    "wins": (_("Number of wins"), _("Rounds won, played or not (forfeits and byes count).")),
    "games_won": (_("Games won over the board"), _("Games won by playing them.")),
    "fore_buchholz": (
        _("Fore Buchholz"),
        _("Buchholz as if every game of the last round had been drawn."),
    ),
    "average_opponents_buchholz": (
        _("Average of opponents' Buchholz"),
        _("The average Buchholz of the opponents met over the board."),
    ),
    "progressive": (_("Progressive score"), _("The sum of the running score after each round.")),
    "koya": (
        _("Koya (round-robin)"),
        _("Points scored against the players who made at least half the maximum."),
    ),
    "rounds_elected": (
        _("Rounds elected to play"),
        _("Rounds not given up by a requested bye, an absence or a forfeit loss."),
    ),
    "standard_points": (
        _("Standard points"),
        _("The score counted as 1 for a win, ½ for a draw, 0 for a loss."),
    ),
    "white_games": (
        _("Games with White (second move)"),
        _("Games played over the board as the second mover (FIDE's games with Black)."),
    ),
    "white_wins": (
        _("Wins with White (second move)"),
        _("Games won over the board as the second mover."),
    ),
    "black_games": (
        _("Games with Black (first move)"),
        _("Games played over the board as the first mover."),
    ),
    "average_rating_opponents": (
        _("Average rating of opponents"),
        _("The average rating of the opponents met over the board."),
    ),
    "average_rating_opponents_cut1": (
        _("Average rating of opponents cut 1"),
        _("The same without the lowest-rated opponent."),
    ),
    "performance": (
        _("Performance rating"),
        _("The average rating of the opponents plus FIDE's difference for the score made."),
    ),
    "perfect_performance": (
        _("Perfect performance"),
        _("The lowest rating that would expect the score made against these opponents."),
    ),
    "average_performance_opponents": (
        _("Average performance of opponents"),
        _("The average of the opponents' performance ratings."),
    ),
    "average_perfect_performance_opponents": (
        _("Average perfect performance of opponents"),
        _("The average of the opponents' perfect performances."),
    ),
    "rating": (_("Rating"), _("The player's own rating.")),
    "pairing_number": (
        _("Pairing number"),
        _("The lower pairing number first (the last resort)."),
    ),
    "marbles": (
        _("Marble tie-break"),
        _("Marbles pushed off less marbles lost, over every round (Abalone)."),
    ),
}

#: The settings form's choices: "BH-C1 · Buchholz cut 1".
TIEBREAK_CHOICES = [
    (code, format_lazy("{} · {}", TIEBREAKS[code].short, name))
    for code, (name, _explanation) in TIEBREAK_TEXTS.items()
]


#: The team tie-breaks an individual event has not (tournaments.tiebreaks.team), offered after
#: them: "EMGSB · Opponents' match points x game points (team events)".
TEAM_TIEBREAK_CHOICES = [
    (code, format_lazy("{} · {} ({})", tiebreak.short, _(tiebreak.name), _("team events")))
    for code, tiebreak in TEAM_TIEBREAKS.items()
    if code not in TIEBREAK_TEXTS
]


def tiebreak_name(code: str) -> str:
    return str(TIEBREAK_TEXTS[code][0])


def tiebreak_guide() -> list[tuple[str, str, str, str]]:
    """(short, name, what it counts, article) of every tie-break, in the form's order."""
    return [
        (TIEBREAKS[code].short, str(name), str(explanation), TIEBREAKS[code].article)
        for code, (name, explanation) in TIEBREAK_TEXTS.items()
    ]

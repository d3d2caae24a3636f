"""The player's pages: the home page, the list of players and a player's public page."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import find_player, player_named, players_matching
from clubs.models import Club
from multiplayer.selectors import finished_tables_of
from pools.selectors import pools
from ratings import elo
from ratings import selectors as rating_selectors

from .charts import rating_chart
from .selectors import home as home_reads
from .selectors import profile


def home(request):
    """The home page: for a player, what is happening for them; for everyone, what is
    happening on the site. ``?part=live`` answers only the part that changes, which the page
    fetches again when the player's socket says something happened (static/js/home.js)."""
    now = timezone.now()
    user = request.user
    context = {"live_games": home_reads.live_games(now=now)}
    if request.GET.get("part") != "live":
        context["pools"] = pools(now=now)
    if user.is_authenticated:
        received, made = home_reads.my_challenges(user, now=now)
        context |= {
            "my_games": home_reads.my_games(user, now=now),
            "challenges_received": received,
            "challenges_made": made,
            "next_rounds": home_reads.my_next_rounds(user),
            "club_tournaments": home_reads.club_tournaments_soon(user, now=now),
            "results": home_reads.my_results(user),
        }
    else:
        context |= {
            "tournaments": home_reads.tournaments_upcoming_and_running(),
            "leaders": home_reads.leaderboard_top(now=now),
            "player_count": User.objects.filter(is_active=True, is_guest=False).count(),
            "club_count": Club.objects.count(),
        }
    if request.GET.get("part") == "live":
        return render(request, "players/home_live.html", context)
    return render(request, "players/home.html", context)


def player_list(request):
    query = request.GET.get("q", "").strip()
    page = Paginator(players_matching(query), 50).get_page(request.GET.get("page"))
    return render(request, "players/player_list.html", {"page": page, "query": query})


def table_lines(player: User, limit: int = 10) -> list[dict]:
    """The player's latest finished three- and four-player games, shown apart from the
    two-player ones: place, players, rating change."""
    lines = []
    tables = finished_tables_of(player).prefetch_related("seats__user", "rating_changes")[:limit]
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.index)
        mine = next(s for s in seats if s.user_id == player.pk)
        change = next((c for c in table.rating_changes.all() if c.user_id == player.pk), None)
        lines.append(
            {
                "table": table,
                "place": mine.place,
                "colour": mine.colour,
                "others": [s.user for s in seats if s.user_id and s.user_id != player.pk],
                "delta": change.rating_after - change.rating_before if change else None,
            }
        )
    return lines


def player_profile_context(request, player: User) -> dict:
    """The rating sections of ``/players/<username>/``: ratings, charts, record, games (those
    against the computer apart), tournaments and the head-to-head form (``?vs=username``)."""
    ratings = rating_selectors.player_ratings(player)
    multi = any(row.category == elo.MULTI_CATEGORY for row in ratings)
    history = rating_selectors.rating_history(player, tables=multi)
    tournaments, tournament_count = profile.player_tournaments(player)
    # a board over the board is played in a tournament that has begun: none entered, none played
    boards = profile.played_boards(player) if tournament_count else []
    context = {
        "ratings": ratings,
        "charts": [rating_chart(category, points) for category, points in history.items()],
        "record": profile.player_record(player, boards=boards),
        "recent_games": profile.recent_games(player, boards=boards),
        "table_games": table_lines(player),
        "computer_games": profile.computer_games(player),
        "tournaments": tournaments,
        "tournament_count": tournament_count,
        "provisional_games": elo.PROVISIONAL_GAMES,
        "vs": request.GET.get("vs", "").strip()[:150],
        "vs_error": "",
        "head_to_head": None,
    }
    if context["vs"]:
        opponent = find_player(context["vs"])
        if opponent is None:
            context["vs_error"] = _("There is no player called '%(username)s'.") % {
                "username": context["vs"]
            }
        elif opponent.pk == player.pk:
            context["vs_error"] = _("Choose another player than this one.")
        else:
            context["head_to_head"] = profile.head_to_head(player, opponent)
    return context


def player_detail(request, username: str):
    """The public page of a player (a deactivated account is not found)."""
    player = player_named(username)
    memberships = player.memberships.select_related("club").order_by("club__name")
    return render(
        request,
        "players/player.html",
        {"player": player, "memberships": memberships, **player_profile_context(request, player)},
    )

"""The player's pages: the home page, the list of players and a player's public page."""

from __future__ import annotations

import hashlib

from django.core.paginator import Paginator
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import find_player, player_named, players_matching
from clubs.models import Club
from core.fragments import kept
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


def _account(user: User) -> str:
    """A player in a cache key: the id, and the moment the account was made (a database made
    again, the same ids for other players, never reads what the cache kept of the old one)."""
    return f"{user.pk}.{int(user.date_joined.timestamp() * 1_000_000)}"


def history_sections(player: User, *, stamp: str, tournament_count: int) -> str:
    """The sections of ``/players/<username>/`` drawn from the player's games and rating
    changes (ratings, charts, record, recent games, games against the computer, tables' games),
    rendered. They are rendered once per change of what they show and kept in the site's cache
    in between, by language, under the player's ``history_stamp``: one small query per page
    instead of ten and the tables."""

    def render() -> str:
        ratings = rating_selectors.player_ratings(player)
        multi = any(row.category == elo.MULTI_CATEGORY for row in ratings)
        history = rating_selectors.rating_history(player, tables=multi)
        # a board over the board is played in a tournament that has begun: none entered, none
        # played
        boards = profile.played_boards(player) if tournament_count else []
        return render_to_string(
            "players/_history_sections.html",
            {
                "ratings": ratings,
                "charts": [rating_chart(category, points) for category, points in history.items()],
                "record": profile.player_record(player, boards=boards),
                "recent_games": profile.recent_games(player, boards=boards),
                "table_games": table_lines(player),
                "computer_games": profile.computer_games(player),
                "provisional_games": elo.PROVISIONAL_GAMES,
            },
        )

    return kept(f"player-history:{_account(player)}:{get_language()}:{stamp}", render)


def head_to_head_section(player: User, opponent: User, *, stamp: str) -> str:
    """The head-to-head record and games of ``player`` against ``opponent`` (``?vs=``),
    rendered and kept as :func:`history_sections` are: every game it lists is one of
    ``player``'s and every rating change ``player``'s, so ``player``'s stamp sees them all; the
    two names shown are in the key."""
    names = hashlib.blake2b(
        f"{player.display_name}\x1f{opponent.display_name}".encode(), digest_size=8
    ).hexdigest()
    key = f"player-h2h:{_account(player)}:{_account(opponent)}:{get_language()}:{stamp}:{names}"
    return kept(
        key,
        lambda: render_to_string(
            "players/_head_to_head.html",
            {"player": player, "head_to_head": profile.head_to_head(player, opponent)},
        ),
    )


def player_profile_context(request, player: User) -> dict:
    """The rating sections of ``/players/<username>/``: ratings, charts, record, games (those
    against the computer apart) as :func:`history_sections`, the tournaments read for each
    page, and the head-to-head form (``?vs=username``) with :func:`head_to_head_section`."""
    stamp = profile.history_stamp(player)
    tournaments, tournament_count = profile.player_tournaments(player)
    context = {
        "history_sections": history_sections(
            player, stamp=stamp, tournament_count=tournament_count
        ),
        "tournaments": tournaments,
        "tournament_count": tournament_count,
        "vs": request.GET.get("vs", "").strip()[:150],
        "vs_error": "",
        "head_to_head": "",
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
            context["head_to_head"] = head_to_head_section(player, opponent, stamp=stamp)
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

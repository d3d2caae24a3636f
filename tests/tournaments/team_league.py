"""A club of six teams for the team-event tests (the database ones and the browser's)."""

from clubs import services as club_services
from ratings.models import PlayerRating
from teams import services as team_services


def league_club(
    make_player,
    owner: tuple[str, str] = ("director", "Director"),
    captains: dict[int, tuple[str, str]] | None = None,
    reserve: tuple[str, str] = ("reserve", "Reserve"),
):
    """A club owned by ``owner`` (username, name) with six teams of four, "Team A" to "Team F":
    team ``i``'s board ``b`` player is ``t{i}b{b}`` rated 2000 - 100 i - 10 b (so Team A is
    rated highest), its board-1 player the captain (``captains`` renames a team's captain:
    index -> (username, name)); ``reserve`` is Team A's reserve. Returns (club, owner, teams)."""
    captains = captains or {}
    director = make_player(owner[0], display_name=owner[1])
    club = club_services.club_create(owner=director, name="Flanders")
    teams = []
    for index in range(6):
        players = []
        for board in range(4):
            username, name = (
                captains[index]
                if board == 0 and index in captains
                else (f"t{index}b{board}", f"t{index}b{board}")
            )
            player = make_player(username, display_name=name)
            club_services.club_join(user=player, club=club)
            rating = 2000 - 100 * index - 10 * board
            PlayerRating.objects.create(
                user=player, category="rapid", rating=rating, peak=rating, games=20
            )
            players.append(player)
        team = team_services.team_create(
            club=club, actor=director, name=f"Team {'ABCDEF'[index]}", captain=players[0]
        )
        for player in players:
            team_services.team_member_add(team=team, actor=director, user=player)
        teams.append(team)
    extra = make_player(reserve[0], display_name=reserve[1])
    club_services.club_join(user=extra, club=club)
    team_services.team_member_add(team=teams[0], actor=director, user=extra, reserve=True)
    return club, director, teams

"""Correspondence games (issue 29, item 1): a clock of days for each move, challenged for through
the API and the lobby's form, rated in a category of its own, played across a simulated week
(time moved by the test's clock) and lost on time by the sweep with nobody online."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from core.errors import Conflict
from games import selectors, services
from games.models import Challenge, Game
from games.options import options_from_choices
from games.selectors import game_state
from notifications.models import Notification
from notifications.texts import notification_text
from ratings.models import PlayerRating, RatingChange

from .conftest import T0, at
from .test_moves import move

pytestmark = pytest.mark.django_db

DAY = 86_400


@pytest.mark.parametrize("days", [1, 2, 3, 5, 7, 14])
def test_a_correspondence_challenge_through_the_api_becomes_a_game_of_days(days, api, players):
    black, white = players
    created = api(black).post(
        "/api/v1/challenges/",
        {"preset": f"correspondence-{days}d", "colour": "black", "opponent": "whitey"},
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["time_control"] == f"{days}d/move"
    challenge = Challenge.objects.get(pk=body["id"])
    assert (challenge.base_seconds, challenge.increment_seconds) == (days * DAY, 0)
    # A correspondence challenge waits a week, not the twenty minutes of a live one.
    assert challenge.expires_at - challenge.created_at == timedelta(days=7)

    accepted = api(white).post(f"/api/v1/challenges/{body['id']}/accept/")
    assert accepted.status_code == 201, accepted.content
    assert accepted.json()["time_control"]["days_per_move"] == days
    game = Game.objects.get(pk=accepted.json()["id"])
    assert game.days_per_move == days and game.first_move_seconds == days * DAY
    assert game.flag_deadline - game.turn_started_at == timedelta(days=days)
    state = game_state(game, now=game.turn_started_at + timedelta(hours=1))
    assert state["time_control"]["days_per_move"] == days
    assert state["clock"]["black_ms"] == (days * DAY - 3600) * 1000  # the days run at once


def test_a_correspondence_clock_is_given_as_seconds_of_whole_days_or_refused(api, players):
    black, _white = players
    good = api(black).post(
        "/api/v1/challenges/", {"base_seconds": 5 * DAY, "increment_seconds": 0}, format="json"
    )
    assert good.status_code == 201 and good.json()["time_control"] == "5d/move"
    for base, increment in ((4 * DAY, 0), (DAY, 30), (8 * 3600, 0), (15 * DAY, 0)):
        refused = api(black).post(
            "/api/v1/challenges/",
            {"base_seconds": base, "increment_seconds": increment},
            format="json",
        )
        assert refused.status_code == 400, (base, increment, refused.content)
        assert refused.json()["error"] in ("invalid_time_control", "invalid")
        assert (
            "base_seconds" in refused.json()["detail"] or "time control" in refused.json()["detail"]
        )
    assert Challenge.objects.count() == 1


def correspondence_game(players, days=3, rated=True):
    black, white = players
    challenge = services.challenge_create(
        challenger=black,
        opponent=white,
        colour="black",
        options=options_from_choices({"preset": f"correspondence-{days}d", "rated": rated}),
        now=T0,
    )
    return services.challenge_accept(challenge_id=challenge.pk, user=white, now=T0)


def test_a_week_of_correspondence_moves_then_a_flag_with_nobody_online(players):
    black, white = players
    game = correspondence_game(players, days=3)
    # A week of play, each move within its three days: Black after two days, White after a
    # minute, Black after two days and 23 hours (the days come back each move; nothing banks).
    moments = [2 * DAY, 2 * DAY + 60, 5 * DAY + 59, 6 * DAY, 7 * DAY]
    for number, seconds in enumerate(moments):
        game = move(game, black if number % 2 == 0 else white, seconds)
        assert game.status == Game.Status.STARTED
        assert game.flag_deadline == at(seconds) + timedelta(days=3)
        assert game.black_ms == game.white_ms == 3 * DAY * 1000
    assert game.side_to_move == "w"

    # Nobody is online: the sweep finds White's deadline passed and White loses on time.
    assert services.games_sweep_flags(now=at(7 * DAY + 3 * DAY - 1)) == 0
    assert services.games_sweep_flags(now=at(10 * DAY)) == 1
    assert services.games_sweep_flags(now=at(10 * DAY + 5)) == 0  # once
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "1-0", "time")
    # Rated once, in the correspondence category and nowhere else.
    changes = RatingChange.objects.filter(game=game)
    assert sorted(c.category for c in changes) == ["correspondence", "correspondence"]
    assert set(
        PlayerRating.objects.filter(user__in=players).values_list("category", flat=True)
    ) == {"correspondence"}


def test_a_correspondence_move_after_its_days_loses_on_time(players):
    black, white = players
    game = move(move(correspondence_game(players, days=1), black, 3600), white, 7200)
    with pytest.raises(Conflict) as refused:
        move(game, black, 7200 + DAY)
    assert refused.value.code == "time_out"
    game.refresh_from_db()
    assert (game.result, game.termination, game.ply) == ("0-1", "time", 2)


def test_a_first_move_missed_by_its_days_abandons_the_game_as_a_live_first_move_does(players):
    game = move(correspondence_game(players, days=2), players[0], DAY)
    assert services.games_sweep_flags(now=at(3 * DAY - 1)) == 0
    assert services.games_sweep_flags(now=at(3 * DAY)) == 1
    game.refresh_from_db()
    assert (game.result, game.termination) == ("1-0", "abandoned")


def correspondence_options(page: str) -> list[tuple[str, str]]:
    group = re.search(
        r'<optgroup label="([^"]+)">((?:(?!</optgroup>).)*)</optgroup>\s*<option value="custom"',
        page,
        re.S,
    )
    assert group, "no group of clocks before the custom one"
    return group.group(1), re.findall(r'<option value="([^"]+)">([^<]+)</option>', group.group(2))


def test_the_lobby_offers_the_correspondence_clocks_in_the_reader_s_language(client, players):
    client.force_login(players[0])
    label, options = correspondence_options(
        client.get("/play/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    assert label == "Correspondence"
    assert options[:3] == [
        ("correspondence-1d", "1 day a move"),
        ("correspondence-2d", "2 days a move"),
        ("correspondence-3d", "3 days a move"),
    ]
    assert [key for key, _text in options][3:] == [f"correspondence-{d}d" for d in (5, 7, 14)]
    created = client.post(
        "/play/",
        {"preset": "correspondence-7d", "colour": "random", "start": "standard", "rated": "on"},
    )
    assert created.status_code == 302
    assert Challenge.objects.get().base_seconds == 7 * DAY
    assert "7 days a move" in client.get("/play/").content.decode()

    client.cookies["django_language"] = "fr"
    french = client.get("/play/").content.decode()
    label, options = correspondence_options(french)
    assert (label, options[0][1], options[2][1]) == (
        "Correspondance",
        "1 jour par coup",
        "3 jours par coup",
    )
    assert "7 jours par coup" in french  # the challenge waiting in the list


def test_the_challenged_player_reads_the_days_in_their_language(players):
    correspondence_game(players, days=5)
    note = Notification.objects.get(user=players[1], kind="challenge_received")
    assert note.data["days_per_move"] == 5
    with translation.override("en"):
        assert notification_text(note.kind, note.data) == (
            "blackie challenges you to a rated game (5 days a move)."
        )
    with translation.override("de"):
        assert "5 Tage pro Zug" in notification_text(note.kind, note.data)
    # A live challenge's clock reads as before.
    live = dict(note.data, days_per_move=None, clock="3+2")
    with translation.override("en"):
        assert notification_text(note.kind, live).endswith("(3+2).")


def test_the_home_page_lists_the_games_where_it_is_your_move_the_most_urgent_first(
    make_player, client
):
    from django.utils import timezone

    ann = make_player("ann")
    now = timezone.now()

    def game_against(name: str, days: int, ann_black: bool = True) -> Game:
        other = make_player(name)
        black, white = (ann, other) if ann_black else (other, ann)
        return services.game_create(
            black=black,
            white=white,
            options=options_from_choices({"preset": f"correspondence-{days}d"}),
            now=now,
        )

    relaxed = game_against("carl", 14)  # ann to move, fourteen days
    urgent = game_against("dora", 1)  # ann to move, one day
    waiting = game_against("emil", 2, ann_black=False)  # emil to move
    middle = game_against("fay", 5)
    client.force_login(ann)
    page = client.get("/").content.decode()
    order = [page.index(f"/games/{game.pk}/") for game in (urgent, middle, relaxed, waiting)]
    assert order == sorted(order), "your moves first, the least time left first"
    assert re.search(r"you 13 days 23:\d\d · them 14 days 00:00", page)
    assert re.search(r"you 2 days 00:00 · them 1 day 23:\d\d", page)  # emil's day running


def notes(user, kind):
    return list(
        Notification.objects.filter(user=user, kind=kind)
        .order_by("pk")
        .values_list("key", flat=True)
    )


def test_each_turn_tells_its_player_once_and_reminds_them_once_before_the_deadline(players):
    black, white = players
    game = correspondence_game(players, days=2)  # reminded 12 hours before a deadline
    assert services.correspondence_notify(now=T0) == 1
    assert services.correspondence_notify(now=at(30)) == 1  # looked at again, written once
    assert notes(black, "your_move") == [f"your_move:{game.pk}:0"]
    with translation.override("en"):
        note = Notification.objects.get(user=black, kind="your_move")
        assert notification_text(note.kind, note.data) == (
            "Your move against whitey in your correspondence game (2 days a move)."
        )

    # A day and a half later, no reminder yet; twelve hours before the deadline, one.
    services.correspondence_notify(now=at(DAY + 11 * 3600))
    assert notes(black, "move_reminder") == []
    services.correspondence_notify(now=at(DAY + 12 * 3600))
    services.correspondence_notify(now=at(DAY + 13 * 3600))
    assert notes(black, "move_reminder") == [f"move_reminder:{game.pk}:0"]
    reminder = Notification.objects.get(user=black, kind="move_reminder")
    assert reminder.email_wanted  # e-mailed by default (still unread a minute later)
    with translation.override("fr"):
        assert "12 heures" in notification_text(reminder.kind, reminder.data)

    # Black moves: White's turn is told once (a sweep missed meanwhile still finds it), and a
    # later turn of Black's is a new notification.
    game = move(game, black, DAY + 14 * 3600)
    services.correspondence_notify(now=at(DAY + 14 * 3600 + 9 * 60))
    services.correspondence_notify(now=at(DAY + 14 * 3600 + 9 * 60 + 30))
    assert notes(white, "your_move") == [f"your_move:{game.pk}:1"]
    game = move(game, white, 2 * DAY)
    services.correspondence_notify(now=at(2 * DAY + 1))
    assert notes(black, "your_move") == [f"your_move:{game.pk}:0", f"your_move:{game.pk}:2"]
    assert not Notification.objects.filter(user=white, kind="move_reminder").exists()


def test_live_games_get_no_correspondence_notifications(new_game, players):
    new_game(base=180, increment=2)
    assert services.correspondence_notify(now=at(5)) == 0
    assert not Notification.objects.filter(kind__in=["your_move", "move_reminder"]).exists()


def test_a_reminder_is_e_mailed_by_default_and_the_choice_lists_both_kinds(players, client):
    black, white = players
    black.email = "black@example.org"
    black.save()
    correspondence_game(players, days=1)
    services.correspondence_notify(now=T0)
    services.correspondence_notify(now=at(18 * 3600))  # six hours left of the day
    reminder = Notification.objects.get(user=black, kind="move_reminder")
    assert reminder.email_wanted and reminder.data["hours"] == 6
    assert not Notification.objects.get(user=black, kind="your_move").email_wanted
    client.force_login(black)
    page = client.get("/notifications/settings/").content.decode()
    assert "Your move in a correspondence game" in page
    assert "Your correspondence move is due soon" in page


def test_a_vacation_stops_the_clocks_of_your_turns_and_they_go_on_from_what_was_left(
    players, settings
):
    settings.CORRESPONDENCE_VACATION_DAYS = 10
    black, white = players
    mine = correspondence_game(players, days=3)  # Black (me) to move
    assert selectors.vacation_left(black.pk, T0) == timedelta(days=10)

    # A day into the turn, Black goes away: the turn keeps its two days, with no deadline.
    vacation = services.vacation_start(user=black, now=at(DAY))
    assert vacation.ends_at == at(DAY) + timedelta(days=10)
    mine.refresh_from_db()
    assert mine.flag_deadline is None and mine.black_ms == 2 * DAY * 1000
    with pytest.raises(Conflict) as twice:
        services.vacation_start(user=black, now=at(DAY + 60))
    assert twice.value.code == "on_vacation"
    # Nothing falls while Black is away, even long after the turn's days.
    assert services.games_sweep_flags(now=at(6 * DAY)) == 0
    state = game_state(Game.objects.get(pk=mine.pk), now=at(6 * DAY))
    assert state["clock"]["black_ms"] == 2 * DAY * 1000 and not state["clock"]["running"]

    # Back after five days: the turn goes on from its two days.
    services.vacation_end(user=black, now=at(6 * DAY))
    mine.refresh_from_db()
    assert mine.flag_deadline == at(6 * DAY) + timedelta(days=2)
    assert selectors.vacation_left(black.pk, at(6 * DAY)) == timedelta(days=5)
    with pytest.raises(Conflict) as not_away:
        services.vacation_end(user=black, now=at(6 * DAY + 1))
    assert not_away.value.code == "not_on_vacation"
    game = move(mine, black, 7 * DAY)  # and the game goes on
    assert game.flag_deadline == at(7 * DAY) + timedelta(days=3)


def test_a_turn_that_becomes_yours_while_you_are_away_starts_stopped(players):
    black, white = players
    game = move(correspondence_game(players, days=1), black, 3600)  # White to move
    services.vacation_start(user=black, now=at(2 * 3600))  # nothing of Black's stops yet
    game.refresh_from_db()
    assert game.flag_deadline == at(3600) + timedelta(days=1)
    game = move(game, white, 3 * 3600)  # now Black's turn, while Black is away
    assert game.flag_deadline is None and game.black_ms == DAY * 1000
    assert services.games_sweep_flags(now=at(5 * DAY)) == 0
    services.vacation_end(user=black, now=at(5 * DAY))
    game.refresh_from_db()
    assert game.flag_deadline == at(5 * DAY) + timedelta(days=1)


def test_the_allowance_ends_a_vacation_by_itself_and_a_year_gives_it_again(players, settings):
    settings.CORRESPONDENCE_VACATION_DAYS = 3
    black, white = players
    game = correspondence_game(players, days=7)
    services.vacation_start(user=black, now=at(DAY))
    # The sweep starts the clocks again once the three days are over, and once only.
    assert services.vacations_resume(now=at(4 * DAY - 1)) == 0
    assert services.vacations_resume(now=at(4 * DAY)) == 1
    assert services.vacations_resume(now=at(4 * DAY + 30)) == 0
    game.refresh_from_db()
    assert game.flag_deadline == at(4 * DAY) + timedelta(days=6)
    with pytest.raises(Conflict) as used_up:
        services.vacation_start(user=black, now=at(5 * DAY))
    assert used_up.value.code == "no_vacation_left"
    # T0 is in November 2026: the new year brings three days again.
    new_year = datetime(2027, 1, 2, tzinfo=UTC)
    assert selectors.vacation_left(black.pk, new_year) == timedelta(days=3)
    # A vacation begun on 30 December ends with the year's allowance, not the next year's.
    assert selectors.vacation_left(white.pk, datetime(2026, 12, 31, 12, tzinfo=UTC)) == timedelta(
        hours=12
    )


def test_the_vacation_through_the_api_and_the_lobby_s_card(api, client, players, settings):
    settings.CORRESPONDENCE_VACATION_DAYS = 21
    black, white = players
    game = correspondence_game(players, days=3)
    summary = api(black).get("/api/v1/me/vacation/").json()
    assert summary["on_vacation"] is False and summary["days_left"] == 21.0
    assert api().get("/api/v1/me/vacation/").status_code in (401, 403)
    bad = api(black).post("/api/v1/me/vacation/", {"action": "sleep"}, format="json")
    assert bad.status_code == 400 and "action" in bad.json()["detail"]

    started = api(black).post("/api/v1/me/vacation/", {"action": "start"}, format="json")
    assert started.status_code == 200 and started.json()["on_vacation"] is True
    game.refresh_from_db()
    assert game.flag_deadline is None
    again = api(black).post("/api/v1/me/vacation/", {"action": "start"}, format="json")
    assert (again.status_code, again.json()["error"]) == (409, "on_vacation")

    client.force_login(black)
    page = client.get("/play/").content.decode()
    assert 'id="vacation-status"' in page and "You are on vacation" in page
    assert 'value="end"' in page
    ended = client.post("/play/vacation/", {"action": "end"})
    assert ended.status_code == 302 and ended["Location"].endswith("/play/#vacation")
    game.refresh_from_db()
    assert game.flag_deadline is not None
    page = client.get("/play/").content.decode()
    assert "Welcome back" in page and 'value="start"' in page
    assert "Left this year: 21 days." in page  # a few seconds away round to nothing
    refused = client.post("/play/vacation/", {"action": "end"}, follow=True).content.decode()
    assert "You are not on vacation." in refused


def test_a_move_that_raced_the_vacation_s_start_is_caught_by_the_sweep(players, monkeypatch):
    """The opponent's move read "not on vacation" just before the vacation committed: the turn
    it gave runs. The sweep stops it, long before it could fall, and once."""
    from games.services import moves as move_service

    black, white = players
    game = move(correspondence_game(players, days=2), black, 60)
    services.vacation_start(user=black, now=at(120))
    monkeypatch.setattr(move_service, "on_vacation", lambda user_id, now: False)
    game = move(game, white, 180)
    assert game.flag_deadline == at(180) + timedelta(days=2)  # the race: Black's turn runs
    monkeypatch.undo()
    assert services.vacations_hold(now=at(200)) == 1
    assert services.vacations_hold(now=at(230)) == 0
    game.refresh_from_db()
    assert game.flag_deadline is None and game.black_ms == 2 * DAY * 1000 - 20_000
    assert services.games_sweep_flags(now=at(3 * DAY)) == 0
    # A live game and a game whose player to move is not away are left alone.
    services.vacation_end(user=black, now=at(300))
    assert services.vacations_hold(now=at(330)) == 0

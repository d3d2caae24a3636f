"""Notifications: one per event, from each app that has events, read and marked through the
API, e-mailed once when wanted and still unread (real database; Django's mail outbox)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from clubs import services as club_services
from games import services as game_services
from games.options import GameOptions
from notifications.models import Notification
from notifications.selectors import unread_count
from notifications.services import (
    email_choice_update,
    email_send_due,
    notification_create,
    notifications_mark_read,
)
from notifications.texts import notification_text
from tournaments import notify as tournament_notify
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)
T0 = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)


def make(user, key="e1", kind="challenge_received", now=T0, **data):
    return notification_create(
        user=user, kind=kind, key=key, data=data or {"from": "x"}, url="/play/", now=now
    )


def kinds_of(user) -> list[str]:
    return list(Notification.objects.filter(user=user).values_list("kind", flat=True))


def test_the_same_event_delivered_twice_notifies_once(make_player, monkeypatch):
    from notifications import services

    pushes = []
    monkeypatch.setattr(services, "push_notification", pushes.append)
    alice = make_player("alice")
    with transaction.atomic():
        first = make(alice)
        second = make(alice, now=T0 + timedelta(seconds=5))
    with transaction.atomic():
        third = make(alice)
    assert first.pk == second.pk == third.pk
    assert Notification.objects.filter(user=alice).count() == 1
    assert pushes == [first.pk]  # one push to the player's tabs, after the commit
    other = make(alice, key="e2")
    assert other.pk != first.pk and unread_count(alice.pk) == 2


def test_an_unknown_kind_is_a_programming_error(make_player):
    with pytest.raises(ValueError, match="unknown notification kind"):
        make(make_player("bob"), kind="nonsense")


def test_challenges_notify_the_challenged_and_then_the_challenger(make_player):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    options = GameOptions(300, 3, 6, "belgian", True)
    now = timezone.now()
    challenge = game_services.challenge_create(
        challenger=alice, opponent=bob, colour="black", options=options, now=now
    )
    assert kinds_of(bob) == ["challenge_received"]
    received = Notification.objects.get(user=bob)
    assert notification_text(received.kind, received.data) == (
        "alice challenges you to a rated game (5+3)."
    )
    game = game_services.challenge_accept(challenge_id=challenge.pk, user=bob, now=now)
    accepted = Notification.objects.get(user=alice)
    assert (accepted.kind, accepted.url) == ("challenge_accepted", f"/games/{game.pk}/")
    declined = game_services.challenge_create(
        challenger=carol, opponent=bob, colour="random", options=options, now=now
    )
    game_services.challenge_decline(challenge_id=declined.pk, user=bob, now=now)
    assert kinds_of(carol) == ["challenge_declined"]
    # an open seek notifies nobody
    game_services.challenge_create(
        challenger=carol, opponent=None, colour="random", options=options, now=now
    )
    assert Notification.objects.count() == 4


def test_a_finished_rated_game_tells_both_players_the_result_and_rating_change(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    now = timezone.now()
    game = game_services.game_create(
        black=alice, white=bob, options=GameOptions(600, 0, 6, "belgian", True), now=now
    )
    from tests.games.test_game_sockets import play_first_legal_move

    play_first_legal_move(game.pk, alice, bob)
    play_first_legal_move(game.pk, alice, bob)
    game_services.game_resign(game_id=game.pk, player=bob, now=timezone.now())
    won = Notification.objects.get(user=alice, kind="game_finished")
    lost = Notification.objects.get(user=bob, kind="game_finished")
    assert won.data["outcome"] == "won" and lost.data["outcome"] == "lost"
    assert won.data["rating_after"] > won.data["rating_before"]
    assert lost.data["rating_after"] < lost.data["rating_before"]
    assert "You won against bob" in notification_text(won.kind, won.data)


def test_a_round_paired_and_started_on_the_server_tells_each_player(make_player):
    owner = make_player("td")
    club = club_services.club_create(owner=owner, name="Notify Club")
    players = [make_player(f"np{i}") for i in range(5)]
    tournament = tournament_services.tournament_create(
        club=club, actor=owner, name="Notify Open", play_mode="server", rounds=3,
        first_move_seconds=240, base_seconds=300,
    )  # fmt: skip
    for player in players:
        club_services.club_join(user=player, club=club)
        tournament_services.tournament_register(tournament=tournament, user=player, now=T0)
    round_ = tournament_services.tournament_start(tournament=tournament, actor=owner, now=T0)
    tournament_services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)
    tournament_services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=T0)

    paired = Notification.objects.filter(kind="round_paired")
    assert sorted(n.user.username for n in paired) == sorted(p.username for p in players)
    byes = [n for n in paired if n.data.get("bye")]
    assert len(byes) == 1 and "you have a bye" in notification_text("round_paired", byes[0].data)
    started = Notification.objects.filter(kind="game_started")
    assert started.count() == 4  # two boards, both players, once although started twice
    for note in started:
        board = round_.boards.get(game_id=note.data["game"])
        assert note.url == f"/games/{board.game_id}/"
        assert note.data["first_move_seconds"] == 240 == board.game.first_move_seconds
        assert note.data["clock"] == "5+0"
        assert note.created == board.game.created_at == T0  # the forfeit counts from here


def test_players_are_reminded_once_before_a_scheduled_start(make_player, settings):
    settings.TOURNAMENT_REMINDER_MINUTES = 30
    owner, player = make_player("td"), make_player("early")
    club = club_services.club_create(owner=owner, name="Reminder Club")
    club_services.club_join(user=player, club=club)
    starts = T0 + timedelta(minutes=20)
    tournament = tournament_services.tournament_create(
        club=club, actor=owner, name="Evening Open", round_start="scheduled", rounds=1,
        schedule=[starts.isoformat()],
    )  # fmt: skip
    tournament_services.tournament_register(tournament=tournament, user=player, now=T0)
    assert tournament_notify.remind_players(now=starts - timedelta(minutes=45)) == 0
    assert tournament_notify.remind_players(now=T0) == 1
    assert tournament_notify.remind_players(now=T0 + timedelta(minutes=1)) == 0
    note = Notification.objects.get(user=player)
    assert note.kind == "tournament_starting" and note.data["minutes"] == 20


def test_club_requests_notify_the_admins_and_then_the_requester(make_player):
    owner, asker = make_player("owner"), make_player("asker")
    club = club_services.club_create(owner=owner, name="Closed Club", admission="request")
    request = club_services.club_join(user=asker, club=club)
    assert kinds_of(owner) == ["club_join_request"]
    club_services.club_request_decline(actor=owner, club=club, request_id=request.pk)
    decided = Notification.objects.get(user=asker)
    assert decided.kind == "club_join_decided" and decided.data["approved"] is False
    assert notification_text(decided.kind, decided.data).endswith("was declined.")


# --- reading and marking through the API ----------------------------------------------------


def test_the_api_lists_only_your_notifications_newest_first(make_player, api):
    alice, bob = make_player("alice"), make_player("bob")
    for i in range(3):
        make(alice, key=f"a{i}", now=T0 + timedelta(minutes=i))
    make(bob, key="b0")
    body = api(alice).get("/api/v1/me/notifications/?limit=2").json()
    assert body["count"] == 3 and body["unread"] == 3
    assert [n["subjects"] for n in body["results"]] == [{"from": "x"}] * 2
    keys = list(
        Notification.objects.filter(user=alice).order_by("-created").values_list("pk", flat=True)
    )
    assert [n["id"] for n in body["results"]] == keys[:2]
    first = body["results"][0]
    assert set(first) == {"id", "kind", "created", "read", "text", "url", "subjects"}
    assert api().get("/api/v1/me/notifications/").status_code in (401, 403)


def test_marking_anothers_notification_is_refused_and_changes_nothing(make_player, api):
    alice, bob = make_player("alice"), make_player("bob")
    mine = make(alice, key="a")
    theirs = make(bob, key="b")
    response = api(alice).post(
        "/api/v1/me/notifications/read/", {"ids": [mine.pk, theirs.pk]}, format="json"
    )
    assert response.status_code == 404
    assert response.json()["error"] == "unknown_notification"
    assert str(theirs.pk) in response.json()["detail"]
    assert unread_count(alice.pk) == 1 and unread_count(bob.pk) == 1
    for bad in ({"ids": "all"}, {"ids": [0]}, {"ids": list(range(1, 600))}):
        answer = api(alice).post("/api/v1/me/notifications/read/", bad, format="json")
        assert answer.status_code == 400, bad
    assert unread_count(alice.pk) == 1


def test_marking_read_by_id_or_all(make_player, api):
    alice = make_player("alice")
    a, b, c = (make(alice, key=k) for k in "abc")
    client = api(alice)
    body = client.post("/api/v1/me/notifications/read/", {"ids": [a.pk]}, format="json").json()
    assert body == {"read": 1, "unread": 2}
    body = client.post("/api/v1/me/notifications/read/", {}, format="json").json()
    assert body == {"read": 2, "unread": 0}
    assert all(n.read for n in Notification.objects.filter(user=alice))


# --- e-mail -----------------------------------------------------------------------------------


def test_wanted_kinds_are_emailed_once_when_still_unread(make_player, settings):
    settings.NOTIFICATION_EMAIL_DELAY_SECONDS = 60
    alice = make_player("alice")
    paired = make(alice, key="r1", kind="round_paired", tournament="Open", round=1, bye="x")
    make(alice, key="c1")  # a challenge: not e-mailed by default
    read = make(alice, key="r2", kind="round_paired", tournament="Open", round=2, bye="x")
    notifications_mark_read(user=alice, ids=[read.pk], now=T0)
    assert email_send_due(now=T0 + timedelta(seconds=30)) == 0  # not due yet
    assert email_send_due(now=T0 + timedelta(seconds=61)) == 1
    assert email_send_due(now=T0 + timedelta(seconds=90)) == 0
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [alice.email] and "Open, round 1" in message.subject
    assert paired.url in message.body


def test_no_email_when_turned_off_or_without_an_address(make_player, settings):
    settings.NOTIFICATION_EMAIL_DELAY_SECONDS = 0
    alice, bob = make_player("alice"), make_player("bob", email="")
    email_choice_update(user=alice, enabled=False, kinds=["round_paired"])
    make(alice, key="r", kind="round_paired", tournament="Open", round=1, bye="x")
    make(bob, key="r", kind="round_paired", tournament="Open", round=1, bye="x")
    assert email_send_due(now=T0 + timedelta(seconds=1)) == 0 and mail.outbox == []
    email_choice_update(user=alice, enabled=True, kinds=["challenge_received"])
    make(alice, key="c", kind="challenge_received")
    assert email_send_due(now=T0 + timedelta(seconds=1)) == 1


def test_the_email_choice_page_saves_the_choice(make_player, client):
    alice = make_player("alice")
    client.force_login(alice)
    page = client.get("/notifications/settings/")
    assert page.status_code == 200 and b"Round paired" in page.content
    client.post("/notifications/settings/", {"enabled": "on", "kinds": ["game_started"]})
    make(alice, key="g", kind="game_started", tournament="Open", round=1, opponent="b")
    assert Notification.objects.get(user=alice, key="g").email_wanted
    assert client.get("/notifications/").status_code == 200

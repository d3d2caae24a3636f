"""A director's entries follow the event's rules, or set them aside on the record."""

import pytest

from core.errors import Conflict, NotAllowed
from tournaments import services
from tournaments.models import AuditEntry, Entrant

from .conftest import T0, at

pytestmark = pytest.mark.django_db


def test_a_non_member_needs_the_directors_override_which_is_recorded(
    make_tournament, club_with_members, make_player
):
    _, owner, _ = club_with_members
    tournament = make_tournament(register=2)  # members only by default
    guest = make_player("guest")
    with pytest.raises(Conflict) as refused:
        services.entrant_add(tournament=tournament, actor=owner, user=guest)
    assert refused.value.code == "entry_rules"
    assert "guest is not a member of Swiss Club" in refused.value.detail
    assert not Entrant.objects.filter(user=guest).exists()
    assert not AuditEntry.objects.exists()
    services.entrant_add(tournament=tournament, actor=owner, user=guest, override=True, now=at(1))
    assert Entrant.objects.filter(tournament=tournament, user=guest).exists()
    entry = AuditEntry.objects.get()
    assert (entry.actor, entry.what, entry.at) == (owner, "entry_override", at(1))
    assert entry.detail == "Added guest although guest is not a member of Swiss Club."


def test_a_full_event_needs_the_override_too(make_tournament, club_with_members):
    _, owner, players = club_with_members
    tournament = make_tournament(register=2, max_players=2)
    with pytest.raises(Conflict, match=r"Club Open is full \(2 players\)"):
        services.entrant_add(tournament=tournament, actor=owner, user=players[5])
    services.entrant_add(tournament=tournament, actor=owner, user=players[5], override=True)
    assert AuditEntry.objects.get().what == "entry_override"


def test_an_open_event_takes_anyone_without_a_record(
    make_tournament, club_with_members, make_player
):
    _, owner, _ = club_with_members
    tournament = make_tournament(register=2, entry="open")
    services.entrant_add(tournament=tournament, actor=owner, user=make_player("visitor"))
    assert not AuditEntry.objects.exists()


def test_the_audit_page_lists_byes_edits_withdrawals_and_overrides(
    client, round1, club_with_members, make_player
):
    tournament, owner, round_ = round1
    _, _, players = club_with_members
    services.bye_grant(
        tournament=tournament, actor=owner, user=players[0], round_number=2, kind="F", now=at(1)
    )
    one = round_.boards.get(number=1)
    two = round_.boards.get(number=2)
    services.board_pairing_edit(board=one, actor=owner, black=one.black, white=two.black)
    services.tournament_withdraw(tournament=tournament, user=players[1], actor=owner)
    client.force_login(owner)
    answer = client.post(
        f"/tournaments/{tournament.slug}/do/add-player/",
        {"username": make_player("outsider").username, "override": "on"},
    )
    assert answer.status_code == 302
    assert sorted(AuditEntry.objects.values_list("what", flat=True)) == [
        "board_edited",
        "bye_granted",
        "entry_override",
        "withdrawn",
    ]
    page = client.get(f"/tournaments/{tournament.slug}/audit/").content.decode()
    section = page.split('id="director-actions"', 1)[1]
    for what in ("Bye granted", "Board edited", "Player withdrawn by a director", "Entry against"):
        assert what in section
    assert f"{players[0].username} gets a full-point bye in round 2." in section


def test_entries_before_the_start_keep_their_rules_for_players(
    make_tournament, club_with_members, make_player
):
    tournament = make_tournament(register=0)
    with pytest.raises(NotAllowed):
        services.tournament_register(tournament=tournament, user=make_player("walkin"), now=T0)

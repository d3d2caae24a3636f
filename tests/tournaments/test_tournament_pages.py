"""Tournament pages: public views render, director actions are 403 for players."""

import csv
import io

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Board, Entrant, Round, Tournament

from .conftest import T0
from .test_tournament_services import play_round

pytestmark = pytest.mark.django_db


def action(client, tournament, name, **data):
    return client.post(reverse("tournament-action", args=[tournament.slug, name]), data)


@pytest.fixture
def running(make_tournament, club_with_members):
    _, owner, _ = club_with_members
    tournament = make_tournament(format="swiss", rounds=3)
    services.tournament_start(tournament=tournament, actor=owner, now=T0)
    play_round(tournament, owner, 1)
    return Tournament.objects.get(pk=tournament.pk)


def test_public_pages_render(client, running):
    slug = running.slug
    for name, args in [
        ("tournament-list", []),
        ("tournament-detail", [slug]),
        ("tournament-players", [slug]),
        ("tournament-round", [slug, 1]),
        ("tournament-standings", [slug]),
        ("tournament-crosstable", [slug]),
        ("tournament-card", [slug, "p1"]),
        ("tournament-audit", [slug]),
    ]:
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200, name
    standings = client.get(reverse("tournament-standings", args=[slug])).content.decode()
    assert "BH-C1" in standings and "p1" in standings


def test_exports(client, running):
    slug = running.slug
    csv_text = client.get(reverse("tournament-export", args=[slug, "standings.csv"])).content
    assert (
        csv_text.decode()
        .splitlines()[0]
        .startswith("rank,number,title,player,federation,rating,points")
    )
    assert len(csv_text.decode().splitlines()) == 9
    cross = client.get(reverse("tournament-export", args=[slug, "crosstable.csv"])).content
    rows = list(csv.reader(io.StringIO(cross.decode())))
    assert rows[0][:10] == [
        "rank",
        "number",
        "title",
        "player",
        "federation",
        "rating",
        "R1 opponent",
        "R1 colour",
        "R1 result",
        "R1 points",
    ]
    for row in rows[1:]:  # numbers a spreadsheet reads: decimal points, no ½ and no −
        float(row[-1])
        assert all(float(p) in (0, 0.5, 1) for p in row[9:-1:4] if p)
        assert not any("½" in cell or "−" in cell for cell in row)
    assert sum(float(row[-1]) for row in rows[1:]) == sum(
        float(p) for row in rows[1:] for p in row[9:-1:4] if p
    )
    trf_file = client.get(reverse("tournament-export", args=[slug, "trf"]))
    assert trf_file["Content-Disposition"] == f'attachment; filename="{slug}.trf"'
    trf = trf_file.content.decode()
    assert trf.startswith("012") and trf.count("\n001 ") + trf.startswith("001") == 8
    games = client.get(reverse("tournament-export", args=[slug, "games.txt"])).content.decode()
    assert games.startswith("No game records:") and "over the board" in games
    assert client.get(reverse("tournament-export", args=[slug, "nope"])).status_code == 404


def test_create_tournament_through_the_form(client, club_with_members):
    club, owner, players = club_with_members
    client.force_login(players[0])
    url = reverse("tournament-create", args=[club.slug])
    assert client.get(url).status_code == 403
    client.force_login(owner)
    response = client.post(
        url,
        {
            "name": "Winter Swiss",
            "format": "swiss",
            "rounds": 5,
            "base_minutes": 10,
            "increment_seconds": 5,
            "marbles_to_win": 6,
            "start_position": "belgian",
            "max_plies_result": "draw",
            "rated": "on",
            "play_mode": "server",
            "entry": "members",
            "round_start": "auto",
            "round_pause_seconds": 30,
            "bye_points": "1",
            "tiebreak_1": "sonneborn_berger",
            "tiebreak_2": "marbles",
            "tiebreak_4": "buchholz",  # a gap closes up
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Winter Swiss")
    # the director's order, not the form's
    assert tournament.base_seconds == 600 and tournament.tiebreaks == [
        "sonneborn_berger",
        "marbles",
        "buchholz",
    ]
    edit = client.get(reverse("tournament-edit", args=[tournament.slug])).content.decode()
    assert '<option value="marbles" selected>' in edit


TOURNAMENT_FORM = {
    "format": "swiss",
    "rounds": 5,
    "base_minutes": 10,
    "increment_seconds": 0,
    "marbles_to_win": 6,
    "start_position": "belgian",
    "max_plies_result": "draw",
    "play_mode": "otb",
    "entry": "members",
    "round_start": "manual",
    "round_pause_seconds": 30,
    "bye_points": "1",
}


@pytest.mark.parametrize(
    ("format", "expected"),
    [
        ("swiss", ["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins"]),
        ("round_robin", ["sonneborn_berger", "direct_encounter", "wins"]),
    ],
)
def test_no_tie_break_chosen_gives_the_systems_own(client, club_with_members, format, expected):
    club, owner, _ = club_with_members
    client.force_login(owner)
    url = reverse("tournament-create", args=[club.slug])
    name = f"Event {format}"
    response = client.post(url, {**TOURNAMENT_FORM, "name": name, "format": format})
    assert response.status_code == 302
    assert Tournament.objects.get(name=name).tiebreaks == expected


def test_a_tie_break_twice_is_a_form_error(client, club_with_members):
    club, owner, _ = club_with_members
    client.force_login(owner)
    url = reverse("tournament-create", args=[club.slug])
    form = {**TOURNAMENT_FORM, "name": "Twice", "tiebreak_1": "wins", "tiebreak_3": "wins"}
    response = client.post(url, form)
    assert response.status_code == 200
    assert "each tie-break once in the order" in response.content.decode()
    assert not Tournament.objects.filter(name="Twice").exists()


def test_register_and_withdraw_through_pages(client, make_tournament, club_with_members):
    _, _, players = club_with_members
    tournament = make_tournament(register=0)
    client.force_login(players[0])
    action(client, tournament, "register")
    assert Entrant.objects.filter(tournament=tournament, user=players[0]).exists()
    action(client, tournament, "withdraw")
    assert not Entrant.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("start", {}),
        ("pair-next", {}),
        ("start-round", {"round": "2"}),
        ("add-player", {"username": "td"}),
        ("withdraw", {"username": "p2"}),
        ("readmit", {"username": "p2"}),
        ("forbid", {"first": "p2", "second": "p3"}),
        ("result", {"board": "BOARD", "result": "0-1"}),
        ("edit-board", {"board": "BOARD", "black": "p1", "white": "p2"}),
    ],
)
def test_director_actions_are_403_for_players_and_change_nothing(
    client, running, club_with_members, name, data
):
    _, _, players = club_with_members
    board = Board.objects.filter(round__tournament=running, white__isnull=False).first()
    data = {k: (str(board.pk) if v == "BOARD" else v) for k, v in data.items()}
    before = (
        list(Board.objects.values_list("pk", "result", "black_id", "white_id")),
        list(Entrant.objects.values_list("pk", "status")),
        Round.objects.count(),
        Tournament.objects.values_list("status", "current_round").get(pk=running.pk),
    )
    client.force_login(players[3])
    response = action(client, running, name, **data)
    assert response.status_code == 403, name
    after = (
        list(Board.objects.values_list("pk", "result", "black_id", "white_id")),
        list(Entrant.objects.values_list("pk", "status")),
        Round.objects.count(),
        Tournament.objects.values_list("status", "current_round").get(pk=running.pk),
    )
    assert after == before


def test_director_enters_results_through_the_round_page(client, running, club_with_members):
    _, owner, _ = club_with_members
    client.force_login(owner)
    action(client, running, "pair-next")
    action(client, running, "start-round", round="2")
    board = Board.objects.get(round__number=2, number=1)
    response = action(
        client,
        running,
        "result",
        board=board.pk,
        result="1/2-1/2",
        black_marbles="3",
        white_marbles="3",
    )
    assert response.status_code == 302
    board.refresh_from_db()
    assert (board.result, board.black_marbles) == ("1/2-1/2", 3)
    page = client.get(reverse("tournament-round", args=[running.slug, 2])).content.decode()
    assert '<td class="result">½-½' in page  # as the forms write it (issue 25), not 1/2-1/2


def test_a_board_s_result_form_chooses_nothing_until_the_director_does(
    client, running, club_with_members
):
    """Issue 25: the per-board form defaulted to 1-0, so a tap on the wrong row's Save
    recorded a false win."""
    import re

    _, owner, _ = club_with_members
    client.force_login(owner)
    action(client, running, "pair-next")
    action(client, running, "start-round", round="2")
    page = client.get(reverse("tournament-round", args=[running.slug, 2])).content.decode()
    forms = re.findall(r'<form[^>]*class="row result-form".*?</form>', page, re.S)
    assert forms
    for form in forms:
        select = re.search(r'<select name="result"[^>]*>(.*?)</select>', form, re.S)
        assert "required" in select.group(0)
        assert re.findall(r'<option value="([^"]*)" selected', select.group(1)) == [""]
    board = Board.objects.get(round__number=2, number=1)
    response = action(client, running, "result", board=board.pk, result="")
    assert response.status_code == 302
    board.refresh_from_db()
    assert board.result == ""  # nothing recorded


def test_an_impossible_result_on_the_round_page_is_an_error_naming_the_rule(
    client, running, club_with_members
):
    _, owner, _ = club_with_members
    client.force_login(owner)
    action(client, running, "pair-next")
    action(client, running, "start-round", round="2")
    board = Board.objects.get(round__number=2, number=1)
    response = action(
        client,
        running,
        "result",
        board=board.pk,
        result="1-0",
        black_marbles="2",
        white_marbles="6",
    )
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "White reached 6 and would have won" in page
    board.refresh_from_db()
    assert board.result == ""


def test_result_for_a_finished_round_needs_a_reason(client, running, club_with_members):
    _, owner, _ = club_with_members
    client.force_login(owner)
    action(client, running, "pair-next")
    board = Board.objects.get(round__number=1, number=1)
    response = action(client, running, "result", board=board.pk, result="0-1")
    page = client.get(response["Location"]).content.decode()
    assert "needs a reason" in page
    board.refresh_from_db()
    assert board.result == "1-0"


def test_a_large_field_is_paired_in_the_background_with_progress_shown(
    client, make_tournament, club_with_members, settings, django_capture_on_commit_callbacks
):
    settings.TOURNAMENT_INLINE_PAIRING_LIMIT = 4
    _, owner, _ = club_with_members
    tournament = make_tournament(register=6, format="swiss", rounds=3)
    client.force_login(owner)
    with django_capture_on_commit_callbacks() as callbacks:
        response = action(client, tournament, "start")
    assert response.status_code == 302
    assert not Round.objects.exists()  # nothing paired inside the request
    tournament.refresh_from_db()
    assert tournament.pairing_requested_round == 1
    page = client.get(reverse("tournament-detail", args=[tournament.slug])).content.decode()
    assert "Pairing round 1" in page and 'class="spinner"' in page
    # what the background job does (a Celery worker, or the in-process runner)
    from tournaments.tasks import pair_round

    assert len(callbacks) == 1
    pair_round.apply(args=(tournament.pk, 1), throw=True)
    tournament.refresh_from_db()
    assert tournament.pairing_requested_round is None
    assert Round.objects.get(tournament=tournament, number=1).boards.count() == 3
    page = client.get(reverse("tournament-detail", args=[tournament.slug])).content.decode()
    assert "Pairing round" not in page


def test_a_refused_action_returns_to_the_page_it_came_from(client, running, club_with_members):
    _, owner, _ = club_with_members
    client.force_login(owner)
    round_page = reverse("tournament-round", args=[running.slug, 1])
    board = Board.objects.get(round__number=1, number=1)
    response = client.post(
        reverse("tournament-action", args=[running.slug, "result"]),
        {"board": board.pk, "result": "0-1"},
        HTTP_REFERER=f"http://testserver{round_page}",
    )
    assert response["Location"].endswith(round_page)
    response = client.post(
        reverse("tournament-action", args=[running.slug, "result"]),
        {"board": board.pk, "result": "0-1"},
        HTTP_REFERER="https://evil.example/x",
    )
    assert "evil" not in response["Location"]


def test_a_background_pairing_that_fails_is_shown_to_the_director_and_can_be_retried(
    client, make_tournament, club_with_members, settings
):
    """2 players who must not meet, paired by the background job: no legal pairing. The job
    records why and clears the request, so the page stops saying "Pairing round 1..." and the
    director can change something (here: a third player) and pair the round again."""
    from tournaments.tasks import pair_round

    settings.TOURNAMENT_INLINE_PAIRING_LIMIT = 1
    _, owner, players = club_with_members
    tournament = make_tournament(register=2, format="swiss", rounds=3)
    services.forbid_pair(tournament=tournament, actor=owner, first=players[0], second=players[1])
    client.force_login(owner)
    action(client, tournament, "start")
    tournament.refresh_from_db()
    assert tournament.pairing_requested_round == 1

    pair_round.apply(args=(tournament.pk, 1), throw=True)  # what the worker does
    tournament.refresh_from_db()
    assert tournament.pairing_requested_round is None
    assert tournament.pairing_error.startswith("Round 1: No legal pairing for round 1")
    page = client.get(reverse("tournament-detail", args=[tournament.slug])).content.decode()
    assert "Pairing round 1" not in page
    assert "The last pairing failed: Round 1: No legal pairing" in page
    assert 'id="pair-next"' in page
    # players do not see the director's error
    client.force_login(players[0])
    page = client.get(reverse("tournament-detail", args=[tournament.slug])).content.decode()
    assert "The last pairing failed" not in page

    client.force_login(owner)
    action(client, tournament, "add-player", username=players[2].username)
    response = action(client, tournament, "pair-next")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.pairing_requested_round == 1  # not refused as "already being paired"
    pair_round.apply(args=(tournament.pk, 1), throw=True)
    tournament.refresh_from_db()
    assert (tournament.pairing_requested_round, tournament.pairing_error) == (None, "")
    boards = Board.objects.filter(round__tournament=tournament, round__number=1)
    assert boards.count() == 2 and boards.filter(white__isnull=True).count() == 1
    paired = {
        boards.get(white__isnull=False).black.user,
        boards.get(white__isnull=False).white.user,
    }
    assert paired != {players[0], players[1]}


def test_a_forbidden_pair_can_be_allowed_again(client, make_tournament, club_with_members):
    _, owner, players = club_with_members
    tournament = make_tournament(register=4, format="swiss", rounds=3)
    client.force_login(owner)
    action(client, tournament, "forbid", first="p1", second="P2", reason="siblings")
    assert tournament.forbidden_pairs.count() == 1
    page = client.get(reverse("tournament-players", args=[tournament.slug])).content.decode()
    assert "Allow again" in page
    action(client, tournament, "unforbid", first="p2", second="p1")
    assert tournament.forbidden_pairs.count() == 0
    response = action(client, tournament, "unforbid", first="p2", second="p1")
    page = client.get(response["Location"]).content.decode()
    assert "are not a forbidden pair" in page
    client.force_login(players[3])
    action(client, tournament, "forbid", first="p1", second="p2")
    assert tournament.forbidden_pairs.count() == 0


def test_pairings_standings_and_crosstable_print_with_the_event_round_and_date(client, running):
    slug = running.slug
    for name, args, says in [
        ("tournament-round", [slug, 1], "pairings and results of round 1 of 3"),
        ("tournament-standings", [slug], "standings after round 1 of 3"),
        ("tournament-crosstable", [slug], "crosstable after round 1 of 3"),
    ]:
        page = client.get(reverse(name, args=args)).content.decode()
        header = page.split('<p class="print-only">', 1)[1].split("</p>", 1)[0]
        assert running.name in header and says in header, name
        assert 'class="card print-sheet"' in page and "js/print.js" in page


def test_a_started_event_s_settings_page_saves_and_shows_the_fixed_settings_fixed(
    client, running, club_with_members
):
    """Issue 25: once the event had started, the settings page could never be saved."""
    _, owner, _ = club_with_members
    client.force_login(owner)
    url = reverse("tournament-edit", args=[running.slug])
    page = client.get(url).content.decode()
    assert 'name="rounds"' in page and "fixed once the event has started" in page
    rounds_input = page[page.index('name="rounds"') - 200 : page.index('name="rounds"') + 200]
    assert "disabled" in rounds_input
    # what a browser sends: every field but the disabled ones (one tampered with is ignored)
    editable = {
        key: value
        for key, value in TOURNAMENT_FORM.items()
        if key not in ("format", "rounds", "base_minutes", "increment_seconds")
        and key not in ("marbles_to_win", "start_position", "play_mode", "bye_points")
    }
    saved = client.post(
        url,
        {
            **editable,
            "name": running.name,
            "description": "Round 2 at 14:00",
            "entry": running.entry,
            "rounds": 9,
            "tiebreak_1": "sonneborn_berger",
        },
    )
    assert saved.status_code == 302, saved.content.decode()[:2000]
    tournament = Tournament.objects.get(pk=running.pk)
    assert tournament.description == "Round 2 at 14:00"
    assert tournament.tiebreaks == ["sonneborn_berger"]
    assert tournament.rounds == 3  # fixed


def test_the_header_writes_the_time_control_as_the_games_do(client, make_tournament):
    """Issue 25: the header said "300 s + 0 s" where the notifications say "5+0"."""
    tournament = make_tournament(play_mode="server", base_seconds=300, increment_seconds=3)
    page = client.get(reverse("tournament-detail", args=[tournament.slug])).content.decode()
    assert " · 5+3 · " in page and "300 s" not in page


def test_a_club_admin_appoints_an_arbiter_on_the_event_s_page_who_then_directs_it_only(
    client, make_tournament, club_with_members, make_player, api
):
    """Issue 25: arbiters could be appointed only in Django's admin."""
    club, owner, players = club_with_members
    tournament = make_tournament(register=4, format="swiss", rounds=3)
    other = make_tournament(register=0, name="Other Open")
    arbiter = make_player("arbi")
    client.force_login(owner)
    page = client.get(reverse("tournament-players", args=[tournament.slug])).content.decode()
    assert 'id="arbiters"' in page and "Arbiter to appoint" in page
    response = action(client, tournament, "appoint-arbiter", username="arbi")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "arbi is an arbiter of Club Open" in page
    # the arbiter directs this event, not the club's others
    assert services.tournament_start(tournament=tournament, actor=arbiter, now=T0) is not None
    from core.errors import NotAllowed

    with pytest.raises(NotAllowed):
        services.tournament_start(tournament=other, actor=arbiter, now=T0)
    # nor appoints arbiters: that is the club's admins'
    refused = api(arbiter).post(
        f"/api/v1/tournaments/{tournament.slug}/appoint-arbiter/",
        {"username": players[0].username},
        format="json",
    )
    assert refused.status_code == 403
    removed = api(owner).post(
        f"/api/v1/tournaments/{tournament.slug}/remove-arbiter/",
        {"username": "arbi"},
        format="json",
    )
    assert removed.status_code == 200 and removed.json() == {"removed": "arbi"}
    appointed = api(owner).post(
        f"/api/v1/tournaments/{tournament.slug}/appoint-arbiter/",
        {"username": "arbi"},
        format="json",
    )
    assert appointed.status_code == 201 and appointed.json() == {
        "arbiter": "arbi",
        "role": "deputy",
    }


def test_the_settings_page_offers_every_tie_break_explained_and_a_rating_for_unrated_players(
    client, running, club_with_members
):
    """Issue 26: every FIDE tie-break (and the Abalone ones) in the order's choices, each
    explained with its article under them; the rating for unrated players is saved with the
    order and cleared again."""
    from tournaments.tiebreak_texts import TIEBREAK_TEXTS
    from tournaments.tiebreaks import TIEBREAKS

    assert TIEBREAK_TEXTS.keys() == TIEBREAKS.keys()
    _, owner, _ = club_with_members
    client.force_login(owner)
    url = reverse("tournament-edit", args=[running.slug])
    page = client.get(url).content.decode()
    guide = page[page.index('id="tiebreak-guide"') :]
    for tiebreak in TIEBREAKS.values():
        assert f'<option value="{tiebreak.code}"' in page, tiebreak.code
        assert f"<abbr>{tiebreak.short}</abbr>" in guide, tiebreak.short
    assert "C.07 10.3" in guide and 'name="unrated_rating"' in page
    editable = {
        key: value
        for key, value in TOURNAMENT_FORM.items()
        if key not in ("format", "rounds", "base_minutes", "increment_seconds")
        and key not in ("marbles_to_win", "start_position", "play_mode", "bye_points")
    }
    form = {**editable, "name": running.name, "entry": running.entry}
    saved = client.post(
        url,
        {
            **form,
            "tiebreak_1": "performance",
            "tiebreak_2": "fore_buchholz",
            "unrated_rating": 1100,
        },
    )
    assert saved.status_code == 302, saved.content.decode()[:2000]
    tournament = Tournament.objects.get(pk=running.pk)
    assert tournament.tiebreaks == ["performance", "fore_buchholz"]
    assert tournament.unrated_rating == 1100
    refused = client.post(url, {**form, "unrated_rating": -5})
    assert (
        refused.status_code == 200 and Tournament.objects.get(pk=running.pk).unrated_rating == 1100
    )
    client.post(url, {**form, "unrated_rating": ""})
    assert Tournament.objects.get(pk=running.pk).unrated_rating is None

"""Importing an event from a TRF file: the tournament, its players (matched by name or guests),
its played rounds with results, byes and forfeits; the next round pairs; the export gives the
file back; a bad file or a player without the right creates nothing."""

from datetime import date
from pathlib import Path

import pytest
from django.db.models import F
from django.urls import reverse

from accounts.models import User
from clubs import services as club_services
from core.errors import NotAllowed, Unprocessable
from tournaments import exports, selectors, services
from tournaments.models import Board, ByeRequest, Entrant, ForbiddenPair, Round, Tournament
from tournaments.pairing import read_trf
from tournaments.services import trf_import, trf_plan
from tournaments.services.trf_import import tournament_import_trf

from .conftest import T0, at

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"

# A TRF-26 file as another program writes it mid-event: CRLF line ends, a comment line,
# 2 of 4 rounds played. Round 1: 1-4 won by 1 (TRF w = Black), 5 forfeits to 2, 3-7 drawn,
# 8 has the pairing-allocated bye, 6 is not there yet. Round 2: 1 takes a half-point bye,
# 2 beats 3, 8 beats 4, 5-7 is a double forfeit, 6 has the pairing-allocated bye. Player 3
# asked for a half-point bye in round 3 (their 001 line), player 7 for a zero-point bye in
# round 4 (240); 1 and 2 may not meet (260, XXP).
EVENT = """\
012 Leuven Rapid
### written by hand for the test
022 Leuven
032 BEL
042 2026/02/07
052
062 8
072 7
082 0
092 Swiss
102 Kade, Karl
122 15 min + 10 s
132                                                                                        26/02/07  26/02/07
142 4
152 W
192 FIDE_DUTCH_2025
222 900+10
001    1      Alpha, Anna                       2100                             1.5    3     4 w 1  0000 - H
001    2      bert                              2000                             2.0    1     5 b +     3 w 1
001    3      Charlie, Cleo                     1900                             1.0    4     7 w =     2 b 0  0000 - H
001    4      Delta, Dirk                       1800                             0.0    7     1 b 0     8 w 0
001    5      Echo, Eva                                                          0.0    8     2 w -     7 w -
001    6      Foxtrot, Finn                     1700                             1.0    5  0000 - Z  0000 - U
001    7      Golf, Gina                        1600                             0.5    6     3 b =     5 b -
001    8      Hotel, Hugo                       1500                             2.0    2  0000 - U     4 b 1
240 Z 004    7
260 001 004    1    2
XXR 4
XXC white1
XXP 1 2
""".replace("\n", "\r\n")


@pytest.fixture
def club(club_with_members, make_player):
    club, owner, players = club_with_members
    anna = make_player("anna", display_name="Anna Alpha")  # matched by display name
    bert = make_player("Bert")  # matched by username, any case
    return club, owner, players, anna, bert


def import_event(club, owner, text=EVENT):
    return tournament_import_trf(club=club, actor=owner, text=text, now=T0)


def entrant(tournament, number) -> Entrant:
    return Entrant.objects.select_related("user").get(tournament=tournament, pairing_number=number)


def board_of(tournament, round_number, number) -> Board:
    return Board.objects.get(
        round__tournament=tournament,
        round__number=round_number,
        black__pairing_number=number,
    )


def test_import_creates_a_running_swiss_with_its_players(club):
    club_, owner, _, anna, bert = club
    imported = import_event(club_, owner)
    tournament = imported.tournament
    assert (tournament.name, tournament.club, tournament.format) == ("Leuven Rapid", club_, "swiss")
    assert (tournament.status, tournament.current_round, tournament.rounds) == ("running", 2, 4)
    assert tournament.play_mode == "otb" and not tournament.rated
    assert (tournament.base_seconds, tournament.increment_seconds) == (900, 10)
    assert tournament.started_at.date() == date(2026, 2, 7)
    assert "Chief arbiter: Kade, Karl" in tournament.description
    assert "City: Leuven" in tournament.description
    # TRF pairing numbers and ratings; unrated is 0
    numbers = {e.pairing_number: e for e in Entrant.objects.filter(tournament=tournament)}
    assert sorted(numbers) == list(range(1, 9))
    assert [numbers[n].rating for n in range(1, 9)] == [2100, 2000, 1900, 1800, 0, 1700, 1600, 1500]
    # matched by display name ("Lastname, Firstname" turned round) and by username
    assert numbers[1].user == anna and numbers[2].user == bert
    assert imported.matched == ["Alpha, Anna → anna", "bert → Bert"]
    # the others are guests: inactive, no usable password, the TRF name shown
    guest = numbers[3].user
    assert guest.username == "cleo-charlie" and guest.display_name == "Charlie, Cleo"
    assert not guest.is_active and not guest.has_usable_password()
    assert len(imported.guests) == 6
    # a late entry: no board in round 1, first round 2
    assert numbers[6].first_round == 2
    assert "Round 3 is ready to be paired." in imported.message


def test_played_rounds_have_their_boards_results_forfeits_and_byes(club):
    club_, owner, *_ = club
    tournament = import_event(club_, owner).tournament
    rounds = Round.objects.filter(tournament=tournament).order_by("number")
    assert [(r.number, r.status) for r in rounds] == [(1, "finished"), (2, "finished")]
    assert all(r.started_at.date() == date(2026, 2, 7) for r in rounds)
    # round 1: TRF w is Black
    won = board_of(tournament, 1, 1)
    assert (won.white.pairing_number, won.result) == (4, Board.Result.BLACK_WINS)
    forfeit = board_of(tournament, 1, 5)  # 5 had TRF w: Black, forfeited
    assert (forfeit.white.pairing_number, forfeit.result) == (2, Board.Result.WHITE_FORFEIT_WIN)
    assert forfeit.termination == "forfeit"
    drawn = board_of(tournament, 1, 3)
    assert (drawn.white.pairing_number, drawn.result) == (7, Board.Result.DRAW)
    assert (board_of(tournament, 1, 8).white, board_of(tournament, 1, 8).bye) == (None, "U")
    assert not Board.objects.filter(round__number=1, black__pairing_number=6).exists()
    assert Board.objects.filter(round__tournament=tournament, round__number=1).count() == 4
    # round 2
    assert board_of(tournament, 2, 1).bye == Board.Bye.HALF
    assert board_of(tournament, 2, 6).bye == Board.Bye.PAIRING
    assert board_of(tournament, 2, 2).result == Board.Result.BLACK_WINS
    assert board_of(tournament, 2, 4).result == Board.Result.WHITE_WINS
    double = board_of(tournament, 2, 5)
    assert (double.white.pairing_number, double.result) == (7, Board.Result.DOUBLE_FORFEIT)
    # board order: games by their better player's score, byes last
    second = Board.objects.filter(round__tournament=tournament, round__number=2).order_by("number")
    assert [b.black.pairing_number for b in second] == [2, 4, 5, 6, 1]
    # the rounds to come: the byes asked for and the forbidden pair
    requests = {
        (r.entrant.pairing_number, r.round_number, r.kind)
        for r in ByeRequest.objects.filter(entrant__tournament=tournament)
    }
    assert requests == {(3, 3, "H"), (7, 4, "Z")}
    pair = ForbiddenPair.objects.get(tournament=tournament)
    assert {pair.first.pairing_number, pair.second.pairing_number} == {1, 2}


def test_the_standings_count_what_the_file_says(club):
    club_, owner, *_ = club
    tournament = import_event(club_, owner).tournament
    points = {row["number"]: row["points_value"] for row in selectors.standings(tournament)}
    assert points == {1: 1.5, 2: 2, 3: 0.5, 4: 0, 5: 0, 6: 1, 7: 0.5, 8: 2}


def test_the_next_round_pairs(club):
    club_, owner, *_ = club
    tournament = import_event(club_, owner).tournament
    round3 = services.round_pair_by(tournament=tournament, actor=owner, now=at(10))
    boards = list(round3.boards.select_related("black", "white"))
    seated = [e.pairing_number for b in boards for e in (b.black, b.white) if e is not None]
    assert sorted(seated) == list(range(1, 9))  # everybody once
    assert board_of(tournament, 3, 3).bye == Board.Bye.HALF  # the bye asked for
    games = {frozenset((b.black.pairing_number, b.white.pairing_number)) for b in boards if b.white}
    assert frozenset((1, 2)) not in games  # the forbidden pair
    previous = {frozenset((1, 4)), frozenset((3, 7)), frozenset((2, 3)), frozenset((4, 8))}
    assert not games & previous  # no rematch of a game played over the board
    assert not any(b.bye == "U" and b.black.pairing_number in (6, 8) for b in boards)


def test_round_trip_export_gives_the_file_back(club):
    """The export of the imported event against the file, line by line.

    Normalised on the way: the names of matched players are their accounts' (display name,
    else username); the 122 time control is Sumito's wording ("per move"); 022, 032 and 102
    are Sumito's (the club's place, no federation, the director: the file's arbiter has no
    account); ranks are recomputed (here the same). Everything the pairing reads (player
    lines, results, rounds, colours, the next round's byes, 240, 260/XXP, 142/152) is equal.
    """
    club_, owner, *_ = club
    tournament = import_event(club_, owner).tournament
    exported = exports.trf(tournament)
    original = EVENT.replace("\r\n", "\n").splitlines()
    back = exported.splitlines()

    def players(lines):
        return [line for line in lines if line.startswith("001")]

    renamed = {1: "Anna Alpha", 2: "Bert"}
    for before, after in zip(players(original), players(back), strict=True):
        number = int(before[4:8])
        if number in renamed:
            before = before[:14] + renamed[number].ljust(33) + before[47:]
        assert after == before
    same = [line for line in original if line[:3] in ("012", "042", "132", "142", "152", "192")]
    same += [line for line in original if line[:3] in ("222", "240", "260", "XXR", "XXC", "XXP")]
    for line in same:
        assert line in back, line
    assert "122 15 min 10 s per move" not in back and "122 15 min + 10 s per move" in back
    # and the two files read the same
    event, again = read_trf(EVENT), read_trf(exported)
    assert again.players[2:] == event.players[2:]
    assert [p.history for p in again.players] == [p.history for p in event.players]
    assert (again.total_rounds, again.first_colour, again.scoring) == (
        event.total_rounds,
        event.first_colour,
        event.scoring,
    )
    assert again.forbidden_pairs == event.forbidden_pairs
    assert again.requested_byes == event.requested_byes


def boards_as_played(tournament):
    return [
        (
            b.round.number,
            b.number,
            b.black.pairing_number,
            b.white.pairing_number if b.white else None,
            b.result,
            b.bye,
            b.black_marbles,
            b.white_marbles,
            b.termination,
        )
        for b in Board.objects.filter(round__tournament=tournament)
        .select_related("round", "black", "white")
        .order_by("round__number", "number")
    ]


def test_an_exported_event_imported_again_is_the_same_event(club):
    """Issue 25, defect 12: a Sumito TRF imported again lost the marble tie-break, the entry
    rule and the board order. Now the tie-break order, the entry rule, the pairing rules, the
    marbles to win, every round's board order and every game's marbles and ending come back,
    and with them the same standings and tie-break values."""
    club_, owner, *_ = club
    first = import_event(club_, owner).tournament
    Tournament.objects.filter(pk=first.pk).update(
        tiebreaks=["marbles", "sonneborn_berger", "buchholz", "average_rating_opponents"],
        unrated_rating=1300,
        entry=Tournament.Entry.OPEN,
        pairing_rules=Tournament.PairingRules.DUTCH_UNTIL_2026,
        tiebreak_rules=Tournament.TiebreakRules.FIDE_2023,
        marbles_to_win=5,
    )
    first.refresh_from_db()
    # round 1's boards in another order (as a director's hand edit leaves them) ...
    boards = list(Board.objects.filter(round__tournament=first, round__number=1).order_by("number"))
    Board.objects.filter(pk__in=[b.pk for b in boards]).update(number=F("number") + 100)
    for number, board in enumerate(reversed(boards), start=1):
        Board.objects.filter(pk=board.pk).update(number=number)
    # ... and games with their marbles and endings: 1 beat 4 by marbles, 2 beat 3 on time
    Board.objects.filter(pk=board_of(first, 1, 1).pk).update(
        black_marbles=5, white_marbles=2, termination="marbles"
    )
    Board.objects.filter(pk=board_of(first, 2, 2).pk).update(
        black_marbles=1, white_marbles=3, termination="time"
    )
    Board.objects.filter(pk=board_of(first, 1, 3).pk).update(black_marbles=3, white_marbles=4)

    second = import_event(club_, owner, exports.trf(first)).tournament

    assert second.pk != first.pk
    for setting in (
        "tiebreaks",
        "tiebreak_rules",
        "unrated_rating",
        "entry",
        "pairing_rules",
        "marbles_to_win",
        "rounds",
    ):
        assert getattr(second, setting) == getattr(first, setting), setting
    assert boards_as_played(second) == boards_as_played(first)
    before, after = selectors.standings(first), selectors.standings(second)
    assert [(r["number"], r["rank"], r["tiebreak_values"]) for r in after] == [
        (r["number"], r["rank"], r["tiebreak_values"]) for r in before
    ]
    assert any(r["tiebreak_values"]["marbles"] for r in after)


def test_a_file_s_own_virtual_points_make_an_accelerated_event_and_a_note(club):
    """A file with 250 records is an accelerated Swiss (C.04.5.1): Sumito pairs the rounds
    to come by the Baku method and says so when the file's virtual points are not the
    method's."""
    club_, owner, *_ = club
    result = import_event(club_, owner, EVENT + "250      1.0 001 002    1    2\r\n")
    assert result.tournament.acceleration == "baku"
    assert any("not the Baku method's" in note for note in result.notes)


def test_a_foreign_files_202_tiebreaks_are_kept_where_sumito_computes_them(club):
    club_, owner, *_ = club
    text = EVENT.replace("222 900+10", "202 SB, BH/C1, BH/C3, ARO\r\n222 900+10")
    result = import_event(club_, owner, text)
    assert result.tournament.tiebreaks == [
        "sonneborn_berger",
        "buchholz_cut1",
        "average_rating_opponents",
    ]
    assert any("BH/C3" in note for note in result.notes)


@pytest.mark.parametrize(
    "extra, message",
    [
        ("SMM 001    1  7  2 marbles", "more than the 6 that win"),
        ("SMM 001    1  5  2 on-time", "is not a word"),
        ("SMB 001    1    x", "not a number"),
    ],
)
def test_bad_sumito_records_are_refused_and_nothing_is_created(club, extra, message):
    club_, owner, *_ = club
    with pytest.raises(Unprocessable) as error:
        import_event(club_, owner, EVENT + extra + "\r\n")
    assert message in str(error.value)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("name", ["bbp_model_37p.trf", "bbp_24p_6r_half_pab.trf"])
def test_bbppairings_files_import_pair_and_come_back(club, name):
    """A file bbpPairings generated (CR line ends, its ``###`` lines): imported, exported the
    same player lines (bbpPairings ranks ties its own way: the rank column is left out), and,
    when rounds remain, the next round pairs."""
    club_, owner, *_ = club
    text = (DATA / name).read_bytes().decode()
    tournament = import_event(club_, owner, text).tournament
    event = read_trf(text)
    assert tournament.current_round == event.rounds_played
    assert Entrant.objects.filter(tournament=tournament).count() == len(event.players)
    exported = exports.trf(tournament)
    lines = [line for line in text.replace("\r", "\n").splitlines() if line.startswith("001")]
    back = [line for line in exported.splitlines() if line.startswith("001")]
    for before, after in zip(lines, back, strict=True):
        assert after[:85] + after[89:] == before[:85] + before[89:]
    again = read_trf(exported)
    assert again.players == event.players
    assert again.scoring == event.scoring
    if tournament.status == Tournament.Status.RUNNING:
        round_ = services.round_pair_by(tournament=tournament, actor=owner, now=at(10))
        assert round_.number == event.next_round
    else:
        assert event.rounds_played == (event.total_rounds or event.rounds_played)


def test_a_second_import_finds_the_guests_of_the_first(club):
    club_, owner, *_ = club
    first = import_event(club_, owner)
    users = User.objects.count()
    second = import_event(club_, owner)
    assert User.objects.count() == users  # the guests are matched by their display names
    assert len(second.matched) == 8 and second.guests == []
    assert first.tournament.slug != second.tournament.slug


def test_an_import_never_takes_another_club_s_guests_or_a_closed_account(club, make_player):
    """The TRF import matched any account by display name, guests of other clubs and closed
    accounts too: club B's import seated club A's guests (and their history) in B's event.
    It now matches as entry lists do: active accounts, else the importing club's own guests."""
    club_a, owner_a, *_ = club
    first = import_event(club_a, owner_a)
    owner_b = make_player("td-b")
    club_b = club_services.club_create(owner=owner_b, name="Other Club")
    closed = make_player("golf", display_name="Gina Golf")
    closed.is_active = False
    closed.save()
    second = import_event(club_b, owner_b)
    seated = {
        e.pairing_number: e.user for e in Entrant.objects.filter(tournament=second.tournament)
    }
    theirs = {e.pairing_number: e.user for e in Entrant.objects.filter(tournament=first.tournament)}
    guests = {n for n, user in theirs.items() if user.is_guest or not user.is_active}
    assert guests and all(seated[n] != theirs[n] for n in guests)
    assert seated[7] != closed
    assert {seated[1].username, seated[2].username} == {"anna", "Bert"}  # accounts still match
    assert len(second.guests) == 6


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello\nworld\n", "fewer than 2 players"),
        (EVENT.replace("     1 b 0", "     1 w 0"), "both recorded"),
        (EVENT.replace("    2 w -", "    3 w -"), "history does not say so"),
        (EVENT.replace("152 W", "152 X"), "initial colour"),
        (EVENT.replace("192 FIDE_DUTCH_2025", "192 FIDE_BURSTEIN"), "Dutch"),
        (EVENT + "162  W 3.0    D 1.0\r\n", "Sumito's events score 1, ½ and 0"),
        (EVENT + "250      1.0 003 002    1    4\r\n", "from low to high"),
        (EVENT.replace("142 4", "142 40").replace("XXR 4", "XXR 40"), "1 to 30 rounds"),
    ],
)
def test_a_bad_file_is_refused_and_nothing_is_created(club, text, message):
    club_, owner, *_ = club
    users, tournaments = User.objects.count(), Tournament.objects.count()
    with pytest.raises(Unprocessable, match=message) as refused:
        import_event(club_, owner, text)
    assert refused.value.status == 422
    assert (User.objects.count(), Tournament.objects.count()) == (users, tournaments)


def test_a_failure_half_way_leaves_nothing(club, monkeypatch):
    club_, owner, *_ = club
    counts = User.objects.count(), Tournament.objects.count(), Board.objects.count()

    def broken(*args, **kwargs):
        raise Unprocessable("broken on purpose")

    monkeypatch.setattr(trf_import, "_create_future", broken)
    with pytest.raises(Unprocessable):
        import_event(club_, owner)
    assert (User.objects.count(), Tournament.objects.count(), Board.objects.count()) == counts


def test_only_club_admins_import(club):
    club_, _, players, *_ = club
    with pytest.raises(NotAllowed):
        import_event(club_, players[0])
    assert not Tournament.objects.exists()


def test_the_import_page(client, club, make_player):
    club_, owner, players, *_ = club
    url = reverse("tournament-import", args=[club_.slug])
    client.force_login(players[0])  # a member, not an admin
    assert client.get(url).status_code == 403
    assert client.post(url, {"file": _upload(EVENT)}).status_code == 403
    assert not Tournament.objects.exists()
    client.force_login(owner)
    page = client.get(url)
    assert page.status_code == 200 and b'enctype="multipart/form-data"' in page.content
    club_page = client.get(club_.get_absolute_url()).content.decode()
    assert url in club_page  # the link beside "New tournament"
    bad = client.post(url, {"file": _upload("012 Nothing\n")})
    assert bad.status_code == 422 and "fewer than 2 players" in bad.content.decode()
    done = client.post(url, {"file": _upload(EVENT, "cp1252")}, follow=True)
    tournament = Tournament.objects.get()
    assert done.redirect_chain[-1][0] == tournament.get_absolute_url()
    assert "Leuven Rapid imported: 8 players" in done.content.decode()


def test_a_cp1252_file_keeps_its_accents(club):
    club_, owner, *_ = club
    text = EVENT.replace("Echo, Eva", "Éçhø, Eva")
    data = text.encode("cp1252")
    imported = import_event(club_, owner, trf_plan.decode_trf(data))
    guest = entrant(imported.tournament, 5).user
    assert guest.display_name == "Éçhø, Eva" and guest.username.startswith("eva-ech")


def _upload(text: str, encoding: str = "utf-8"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("event.trf", text.encode(encoding), content_type="text/plain")


def test_club_admins_of_another_club_cannot_import(club, make_player):
    club_, *_ = club
    other_owner = make_player("other")
    club_services.club_create(owner=other_owner, name="Other Club")
    with pytest.raises(NotAllowed):
        import_event(club_, other_owner)


@pytest.mark.parametrize(
    "start, rules", [("2026/02/07", "fide-2023"), ("2026/03/01", "fide-2026"), ("", "fide-2026")]
)
def test_a_foreign_file_ranks_by_the_tiebreak_text_in_force_when_it_started(club, start, rules):
    club_, owner, *_ = club
    text = EVENT.replace("042 2026/02/07", f"042 {start}".rstrip())
    assert import_event(club_, owner, text).tournament.tiebreak_rules == rules

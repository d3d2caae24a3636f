"""Why these pairings, in the reader's language: the pairing engine explains each player with
English templates (core.messages.Text), the board keeps them as data, and the round page
and the API show them in the language of the request."""

from __future__ import annotations

import html
import json

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from core.errors import engine_text
from core.messages import Number, Term, Text
from tournaments import services
from tournaments.models import Board
from tournaments.pairing import PairingPlayer, RoundEntry, pair_swiss

from .conftest import T0, at

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def fresh(count: int) -> list[PairingPlayer]:
    return [PairingPlayer(n, f"Player {n}", 2400 - 10 * n) for n in range(1, count + 1)]


def test_every_note_of_a_round_survives_being_stored_as_data():
    players = fresh(7)
    first = pair_swiss(players, round_number=1, total_rounds=5)
    results = {0: ("1", "0"), 1: ("0", "1"), 2: ("=", "=")}
    played = {p.number: list(p.history) for p in players}
    for index, (black, white) in enumerate(first.pairs):
        black_result, white_result = results[index % 3]
        played[black].append(RoundEntry(1, white, "b", black_result))
        played[white].append(RoundEntry(1, black, "w", white_result))
    played[first.bye].append(RoundEntry(1, None, None, "U"))
    players = [PairingPlayer(p.number, p.name, p.rating, tuple(played[p.number])) for p in players]
    second = pair_swiss(players, round_number=2, total_rounds=5)
    notes = {**first.notes, **{-n: note for n, note in second.notes.items()}}
    assert len(notes) == 14
    for note in notes.values():
        stored = json.loads(json.dumps(note.to_data()))
        assert Text.from_data(stored) == note
        assert str(Text.from_data(stored)) == str(note)


def test_a_stored_text_keeps_its_terms_and_nested_texts():
    text = Text(
        "%(where)s. Plays %(colour)s.",
        where=Text("Paired within %(group)s", group=Text("the %(points)s-point group", points="1")),
        colour=Term("Black (moves first)"),
    )
    back = Text.from_data(json.loads(json.dumps(text.to_data())))
    assert isinstance(back.params["colour"], Term)
    assert str(back) == "Paired within the 1-point group. Plays Black (moves first)."
    for bad in ({"values": {}}, {"text": 3}, {"text": "x", "values": []}, "text"):
        with pytest.raises(ValueError):
            Text.from_data(bad)


@pytest.mark.parametrize(
    ("language", "written"), [("en", "0.5"), ("de", "0,5"), ("fr", "0,5"), ("uk", "0,5")]
)
def test_a_score_in_a_note_is_written_the_readers_way(language, written):
    stored = Text("%(points)s points", points=Number("0.5")).to_data()
    assert stored["values"]["points"] == {"number": "0.5"}
    with translation.override(language):
        assert written in engine_text(Text.from_data(stored))
    assert str(Text.from_data(stored)) == "0.5 points"


@pytest.fixture
def second_round(make_tournament, club_with_members):
    """Round 2 of a five-player Swiss: floats, colours and a bye to explain."""
    _, owner, _ = club_with_members
    tournament = make_tournament(register=5, format="swiss", rounds=3)
    first = services.tournament_start(tournament=tournament, actor=owner, now=T0)
    services.round_start(tournament_id=tournament.pk, number=1, actor=owner, now=at(1))
    for board in Board.objects.filter(round=first, white__isnull=False):
        services.board_result_set(board=board, actor=owner, result="1-0", now=at(30))
    second = services.round_pair(tournament_id=tournament.pk, number=2, now=at(60))
    return tournament, owner, second


def shown(board: Board, language: str) -> str:
    with translation.override(language):
        return " / ".join(engine_text(Text.from_data(d)) for d in board.note_data)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_round_page_explains_the_pairings_in_the_readers_language(
    client, second_round, language
):
    tournament, _, round_ = second_round
    boards = list(Board.objects.filter(round=round_).order_by("number"))
    assert boards and all(b.note_data for b in boards)
    page = html.unescape(
        client.get(
            reverse("tournament-round", args=[tournament.slug, round_.number]),
            HTTP_ACCEPT_LANGUAGE=language,
        ).content.decode()
    )
    for board in boards:
        translated = shown(board, language)
        assert translated != board.note  # every part of it has a translation
        assert translated in page
        assert board.note not in page
    assert "Paired within" not in page and "pairing-allocated bye" not in page
    assert '<ul class="list notes">' in page  # no longer marked as English


@pytest.mark.django_db
def test_the_api_gives_the_notes_in_the_clients_language_and_english_without_one(
    client, second_round
):
    tournament, _, round_ = second_round
    url = reverse("api-tournament-round", args=[tournament.slug, round_.number])
    english = {b["board"]: b["note"] for b in client.get(url).json()["boards"]}
    french = {
        b["board"]: b["note"] for b in client.get(url, HTTP_ACCEPT_LANGUAGE="fr").json()["boards"]
    }
    for board in Board.objects.filter(round=round_):
        assert english[board.number] == board.note == shown(board, "en")
        assert french[board.number] == shown(board, "fr") != board.note


@pytest.mark.django_db
def test_a_directors_edit_replaces_the_engines_note_in_every_language(second_round):
    tournament, owner, round_ = second_round
    board = Board.objects.filter(round=round_, white__isnull=False).order_by("number").first()
    services.board_pairing_edit(board=board, actor=owner, black=board.white, white=board.black)
    board.refresh_from_db()
    assert board.note == "edited by a director"
    with translation.override("de"):
        assert board.shown_note == gettext("edited by a director") != board.note


@pytest.mark.django_db
def test_a_note_kept_before_notes_were_data_is_shown_as_it_is(second_round):
    _, _, round_ = second_round
    board = Board.objects.filter(round=round_).first()
    Board.objects.filter(pk=board.pk).update(note="an old note", note_data=[])
    board.refresh_from_db()
    with translation.override("hu"):
        assert board.shown_note == "an old note"

"""The archive's search: one form for the page, the API and downloads (GET data), and the
validated filters it gives the selectors. Also the forms of the record import pages (a
director's, to a tournament board; a player's, into their own archive)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import User
from accounts.selectors import find_player
from clubs.models import Club
from games import engine
from games.models import START_CHOICES, Game
from tournaments.models import Tournament

RESULT_CHOICES = [
    ("1-0", _("1-0 (Black won)")),
    ("0-1", _("0-1 (White won)")),
    ("1/2-1/2", _("½-½ (draw)")),
]
#: How a finished game may have ended (an aborted game has no result to search for).
TERMINATION_CHOICES = [
    (value, label)
    for value, label in Game._meta.get_field("termination").choices
    if value != Game.Termination.ABORTED
]
TERMINATIONS = [value for value, _label in TERMINATION_CHOICES]
YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")
#: The code of an error that names something that does not exist.
NOT_FOUND = "not_found"
#: The largest record file the import page takes.
MAX_RECORD_BYTES = 200_000
#: The longest record text the import takes (page and API).
MAX_RECORD_CHARS = 200_000
#: The starts a personal import offers when the record has no Start header.
START_LABELS = {
    "standard": _("Standard"),
    "belgian": _("Belgian Daisy"),
    "german": _("German Daisy"),
    "placement": _("Alternate placement (empty board)"),
}


@dataclass(frozen=True)
class ArchiveFilters:
    """A validated archive search; every field optional."""

    player: User | None = None
    opponent: User | None = None
    club: Club | None = None
    tournament: Tournament | None = None
    start: str = ""
    result: str = ""
    termination: str = ""
    rated: bool | None = None
    ended_from: date | None = None
    ended_to: date | None = None
    include_aborted: bool = False


class _YesNoField(forms.CharField):
    """Empty: either; yes/true/1/on or no/false/0/off (query strings and checkboxes alike)."""

    def to_python(self, value):
        text = (super().to_python(value) or "").strip().lower()
        if not text:
            return None
        if text in YES:
            return True
        if text in NO:
            return False
        raise forms.ValidationError(
            _("'%(text)s' is not yes or no.") % {"text": text}, code="invalid"
        )


class _YesNoCheckbox(forms.CheckboxInput):
    """A checkbox whose value reaches the field as sent (Django's makes any text True), so
    that ``include_aborted=maybe`` is an error, as ``rated=maybe`` is."""

    def value_from_datadict(self, data, files, name):
        return data.get(name)


_DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class ArchiveSearchForm(forms.Form):
    """The archive's filters, the same on the page, in the API and for downloads (GET data)."""

    player = forms.CharField(
        required=False,
        max_length=150,
        label=_("Player"),
        help_text=_("username, either colour"),
        widget=forms.TextInput(attrs={"data-player-suggest": ""}),
    )
    opponent = forms.CharField(
        required=False,
        max_length=150,
        label=_("Opponent"),
        help_text=_("with player: head to head"),
        widget=forms.TextInput(attrs={"data-player-suggest": ""}),
    )
    club = forms.CharField(
        required=False, max_length=100, label=_("Club"), help_text=_("club slug")
    )
    tournament = forms.CharField(
        required=False, max_length=100, label=_("Tournament"), help_text=_("tournament slug")
    )
    start = forms.ChoiceField(
        required=False,
        label=pgettext_lazy("start position", "Start"),
        choices=[("", _("any"))] + START_CHOICES,
    )
    result = forms.ChoiceField(
        required=False, label=_("Result"), choices=[("", _("any"))] + RESULT_CHOICES
    )
    termination = forms.ChoiceField(
        required=False,
        label=_("Termination"),
        choices=[("", _("any"))] + TERMINATION_CHOICES,
    )
    rated = _YesNoField(
        required=False,
        label=_("Rated"),
        widget=forms.Select(choices=[("", _("any")), ("yes", _("rated")), ("no", _("casual"))]),
    )
    # "from" is a Python keyword: the fields are read from the data under these names.
    date_from = forms.DateField(
        required=False, label=_("Ended from"), help_text=_("YYYY-MM-DD"), widget=_DATE_INPUT
    )
    date_to = forms.DateField(
        required=False,
        label=_("Ended to"),
        help_text=_("YYYY-MM-DD, included"),
        widget=_DATE_INPUT,
    )
    include_aborted = _YesNoField(
        required=False, label=_("Include aborted games"), widget=_YesNoCheckbox
    )

    #: Query-string names of the fields whose form name differs.
    ALIASES = {"from": "date_from", "to": "date_to"}

    def __init__(self, data=None, *, strict_dates: bool = True, **kwargs):
        """``strict_dates``: an end date before the start date is an error (the page says so);
        without it, it is a range with no games (the API's answer)."""
        self.strict_dates = strict_dates
        if data is not None:
            data = data.copy()
            for alias, name in self.ALIASES.items():
                if alias in data and name not in data:
                    data[name] = data[alias]
        super().__init__(data, **kwargs)

    def _user(self, field: str) -> User | None:
        username = (self.cleaned_data.get(field) or "").strip()
        if not username:
            return None
        user = find_player(username)
        if user is None:
            self._missing(
                field, _("There is no player called '%(username)s'.") % {"username": username}
            )
        return user

    def _missing(self, field: str, message: str) -> None:
        """An error naming something that does not exist (the API's 404, not 400)."""
        self.add_error(field, forms.ValidationError(message, code=NOT_FOUND))

    def names_only_missing_things(self) -> bool:
        """True when every error says a player, club or tournament does not exist."""
        return all(
            error.code == NOT_FOUND for errors in self.errors.as_data().values() for error in errors
        )

    def clean(self):
        data = super().clean()
        data["player_user"] = self._user("player")
        data["opponent_user"] = self._user("opponent")
        if data["opponent_user"] and not data["player_user"]:
            # The games against someone, with nobody else named: that player's games.
            data["player_user"], data["opponent_user"] = data["opponent_user"], None
        data["club_obj"] = None
        if data.get("club"):
            data["club_obj"] = Club.objects.filter(slug=data["club"]).first()
            if data["club_obj"] is None:
                self._missing("club", _("There is no club '%(club)s'.") % {"club": data["club"]})
        data["tournament_obj"] = None
        if data.get("tournament"):
            data["tournament_obj"] = Tournament.objects.filter(slug=data["tournament"]).first()
            if data["tournament_obj"] is None:
                self._missing(
                    "tournament",
                    _("There is no tournament '%(tournament)s'.")
                    % {"tournament": data["tournament"]},
                )
        if (
            self.strict_dates
            and data.get("date_from")
            and data.get("date_to")
            and data["date_from"] > data["date_to"]
        ):
            self.add_error("date_to", _("The end date is before the start date."))
        return data

    def filters(self) -> ArchiveFilters:
        """The validated filters; call after ``is_valid()`` returned True."""
        data = self.cleaned_data
        return ArchiveFilters(
            player=data["player_user"],
            opponent=data["opponent_user"],
            club=data["club_obj"],
            tournament=data["tournament_obj"],
            start=data.get("start") or "",
            result=data.get("result") or "",
            termination=data.get("termination") or "",
            rated=data.get("rated"),
            ended_from=data.get("date_from"),
            ended_to=data.get("date_to"),
            include_aborted=bool(data.get("include_aborted")),
        )

    def error_detail(self) -> str:
        """All errors as one sentence naming the query parameters, for the API's 400."""
        names = {name: alias for alias, name in self.ALIASES.items()}
        parts = []
        for field, errors in self.errors.items():
            text = " ".join(str(error) for error in errors)
            parts.append(text if field == "__all__" else f"{names.get(field, field)}: {text}")
        return "; ".join(parts)


class RecordImportForm(forms.Form):
    record = forms.CharField(
        required=False,
        max_length=MAX_RECORD_CHARS,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false", "class": "record-text"}),
        label=_("Record"),
        help_text=_("Paste the record (headers, a blank line, the moves), or upload it below."),
    )
    upload = forms.FileField(required=False, label=_("Or upload a record file"))

    def clean(self):
        data = super().clean()
        upload = data.get("upload")
        if upload:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("The file is too large for one game record."))
            try:
                data["record"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        if not (data.get("record") or "").strip():
            raise forms.ValidationError(_("Paste a record or upload a file."))
        return data


class PersonalImportForm(RecordImportForm):
    """A player's import into their own archive: a record in any published form, and the start
    to use when it has no Start header."""

    start = forms.ChoiceField(
        required=False,
        label=pgettext_lazy("start position", "Start"),
        choices=[("", _("As the record says (Standard if it does not)"))]
        + [(name, START_LABELS.get(name, name.title())) for name in engine.START_NAMES],
        help_text=_("Used only when the record has no Start header."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["record"].help_text = _(
            "Paste the record as it was published: headers optional, move numbers optional "
            "(1.a1b2 i5h5 2. a2b3 ...), any case, comments between { and } ignored. Or upload it."
        )
        self.order_fields(["record", "start", "upload"])

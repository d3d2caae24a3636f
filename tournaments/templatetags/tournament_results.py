"""How a board's result reads on the event's pages: as the result forms write it (½-½, +/-),
not as it is stored (``1/2-1/2``, ``+-``); and how a player is named there (title, name,
federation)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournaments.identity import federation_name

register = template.Library()

SHOWN = {"1/2-1/2": "½-½", "+-": "+/-", "-+": "-/+", "--": "-/-"}


@register.filter
def shown_result(stored: str) -> str:
    return SHOWN.get(stored, stored)


@register.filter
def shown_points(value: float) -> str:
    """Points as the event's pages write them: 1, ½, 2½."""
    whole, half = int(value), value - int(value) >= 0.5
    return f"{whole}½" if half and whole else ("½" if half else str(whole))


@register.filter
def tiebreak_value(value: float | None) -> str:
    """A tie-break's value: in halves as points are (2½), else to two decimals (76.25); none
    is a dash."""
    if value is None:
        return "–"
    if float(value * 2).is_integer():
        return shown_points(value) if value >= 0 else str(value)
    return f"{value:.2f}"


@register.filter
def player(entrant) -> str:
    """An entrant as the event's tables name them: title, name, federation (``FM Ann Smith
    BEL``), the title and federation marked for the eye and for screen readers; a team entry
    (a team cup's prize winner) by its name."""
    if entrant is None:
        return ""
    return _named(getattr(entrant, "title", ""), entrant.name, getattr(entrant, "federation", ""))


@register.filter
def row_player(row: dict) -> str:
    """The same for a standings or crosstable row (its ``title``, ``name``, ``federation``)."""
    return _named(
        row.get("title", ""), row.get("name") or row.get("username", ""), row.get("federation", "")
    )


def _named(title: str, name: str, federation: str) -> str:
    parts = []
    if title:
        parts.append(format_html('<abbr class="title" title="{}">{}</abbr> ', _("title"), title))
    parts.append(format_html("{}", name))
    if federation:
        parts.append(
            format_html(
                ' <abbr class="fed" title="{}">{}</abbr>', federation_name(federation), federation
            )
        )
    return mark_safe("".join(parts))  # noqa: S308 - every part escaped by format_html

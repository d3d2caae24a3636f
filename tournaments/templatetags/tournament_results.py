"""How a board's result reads on the event's pages: as the result forms write it (½-½, +/-),
not as it is stored (``1/2-1/2``, ``+-``)."""

from django import template

register = template.Library()

SHOWN = {"1/2-1/2": "½-½", "+-": "+/-", "-+": "-/+", "--": "-/-"}


@register.filter
def shown_result(stored: str) -> str:
    return SHOWN.get(stored, stored)

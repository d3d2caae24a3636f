"""A player's name as the pages show it: the computer's accounts keep their English name in the
database (``accounts.computer_names``), and are named on a page in the reader's language."""

from django import template

from accounts.computer_names import level_named
from games.computer_players import computer_name

register = template.Library()


@register.filter
def player_name(user) -> str:
    """``{{ user|player_name }}``: the display name (else the username); the computer's, in the
    page's language."""
    level = level_named(user.username)  # told by the name: no query
    if level is not None:
        return computer_name(level)
    return user.shown_name


@register.filter
def player_display_name(user) -> str:
    """``{{ user|player_display_name }}``: the display name only (empty when none), the
    computer's in the page's language."""
    level = level_named(user.username)  # told by the name: no query
    if level is not None:
        return computer_name(level)
    return user.display_name

"""The colour theme of a page: light, dark, or the device's choice ("system").

The player's choice is kept in the ``theme`` cookie (a year) by ``static/js/theme.js``, which also
keeps it in the browser's localStorage; the server reads the cookie so that the first paint is
already in the right theme, with no flash of the other one. ``base.html`` puts the choice on
``<html data-theme>`` and loads ``css/dark.css`` with the media query of that choice.
"""

from django.http import HttpRequest

COOKIE_NAME = "theme"
THEMES = ("system", "light", "dark")
DEFAULT_THEME = "system"

# The media attribute of the dark stylesheet for each choice. Printing is always light: the
# dark sheet applies to screens only.
DARK_STYLESHEET_MEDIA = {
    "system": "screen and (prefers-color-scheme: dark)",
    "light": "not all",
    "dark": "screen",
}


def theme_of(request: HttpRequest) -> str:
    """The theme the request's cookie names, or the default for a missing or unknown one."""
    value = request.COOKIES.get(COOKIE_NAME, DEFAULT_THEME)
    return value if value in THEMES else DEFAULT_THEME


def theme(request: HttpRequest) -> dict:
    """Context processor: ``theme`` and ``theme_dark_media`` for base.html."""
    chosen = theme_of(request)
    return {"theme": chosen, "theme_dark_media": DARK_STYLESHEET_MEDIA[chosen]}

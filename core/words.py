"""Words the pages translate as they show them.

Some data keep an English code that the pages show as a word: a rating category (``blitz``), a
game's outcome for a player (``win``), a colour (``black``). Templates show them with
``{% translate code context "..." %}``; the declarations below put those words in the
catalogue, where ``makemessages`` finds them (docs/languages.md).
"""

from django.utils.translation import pgettext_lazy

RATING_CATEGORIES = {
    "blitz": pgettext_lazy("rating category", "blitz"),
    "rapid": pgettext_lazy("rating category", "rapid"),
    "classical": pgettext_lazy("rating category", "classical"),
    "correspondence": pgettext_lazy("rating category", "correspondence"),
    "multi": pgettext_lazy("rating category", "multi"),
    "bot": pgettext_lazy("rating category", "bot"),
}
OUTCOMES = {
    "win": pgettext_lazy("outcome", "win"),
    "draw": pgettext_lazy("outcome", "draw"),
    "loss": pgettext_lazy("outcome", "loss"),
    "aborted": pgettext_lazy("outcome", "aborted"),
}
COLOURS = {
    "black": pgettext_lazy("colour", "black"),
    "white": pgettext_lazy("colour", "white"),
}

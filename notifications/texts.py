"""The text of a notification, made from its kind and data when it is shown: stored data rather
than stored sentences, so a player reads it in their language (the request's, or for an e-mail
the recipient's: ``notifications.services`` sets it). Only the words are Django's (gettext);
the data are the same in every language (names, clocks, round numbers)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

Data = Mapping[str, object]

#: The colours and byes as the data name them (English words, or a bye's TRF code).
_COLOURS = {"Black": gettext_lazy("Black"), "White": gettext_lazy("White")}
_BYES = {
    "U": gettext_lazy("Pairing-allocated bye"),
    "H": gettext_lazy("Half-point bye"),
    "Z": gettext_lazy("Zero-point bye / absent"),
    "F": gettext_lazy("Full-point bye"),
    "bye": gettext_lazy("bye"),
}


def _colour(value: object) -> str:
    return str(_COLOURS.get(str(value), value))


def _where(d: Data) -> str:
    return _("%(tournament)s, round %(round)s") % {
        "tournament": d.get("tournament"),
        "round": d.get("round"),
    }


def _clock(d: Data) -> object:
    """The clock of the data: a correspondence clock's days a move in the reader's language,
    else its label ("3+2")."""
    days = d.get("days_per_move")
    if isinstance(days, int) and days > 0:
        return ngettext("%(days)d day a move", "%(days)d days a move", days) % {"days": days}
    return d.get("clock")


def _challenge_received(d: Data) -> str:
    names = {"from": d.get("from"), "clock": _clock(d)}
    if d.get("rematch_of"):
        if d.get("rated"):
            return _("%(from)s offers a rematch (rated, %(clock)s).") % names
        return _("%(from)s offers a rematch (casual, %(clock)s).") % names
    if d.get("rated"):
        return _("%(from)s challenges you to a rated game (%(clock)s).") % names
    return _("%(from)s challenges you to a casual game (%(clock)s).") % names


def _challenge_accepted(d: Data) -> str:
    return _("%(by)s accepted your challenge: the game has started.") % {"by": d.get("by")}


def _challenge_declined(d: Data) -> str:
    return _("%(by)s declined your challenge.") % {"by": d.get("by")}


def _game_started(d: Data) -> str:
    minutes, seconds = divmod(int(d.get("first_move_seconds") or 0), 60)
    days, rest = divmod(minutes, 24 * 60)
    if days and not rest and not seconds:  # a correspondence game's days
        wait = ngettext("%(days)d day", "%(days)d days", days) % {"days": days}
    elif minutes and seconds:
        wait = _("%(minutes)s min %(seconds)s s") % {"minutes": minutes, "seconds": seconds}
    elif minutes:
        wait = _("%(minutes)s min") % {"minutes": minutes}
    else:
        wait = _("%(seconds)s s") % {"seconds": seconds}
    return _(
        "%(where)s: your game against %(opponent)s is ready. You play %(colour)s, clock "
        "%(clock)s; the first move is due within %(wait)s."
    ) % {
        "where": _where(d),
        "opponent": d.get("opponent"),
        "colour": _colour(d.get("colour")),
        "clock": _clock(d),
        "wait": wait,
    }


def _round_paired(d: Data) -> str:
    if d.get("bye"):
        bye = d.get("bye")
        return _("%(where)s: you have a bye (%(bye)s).") % {
            "where": _where(d),
            "bye": str(_BYES.get(str(bye), bye)),
        }
    return _("%(where)s: board %(board)s, %(colour)s against %(opponent)s.") % {
        "where": _where(d),
        "board": d.get("board"),
        "colour": _colour(d.get("colour")),
        "opponent": d.get("opponent"),
    }


_OUTCOME = {
    "won": gettext_lazy("You won against %(opponent)s"),
    "lost": gettext_lazy("You lost against %(opponent)s"),
    "drew": gettext_lazy("You drew against %(opponent)s"),
}


def _game_finished(d: Data) -> str:
    if d.get("outcome") == "aborted":  # over before any move: no result to tell
        return _("The game against %(opponent)s was aborted.") % {"opponent": d.get("opponent")}
    sentence = _OUTCOME.get(str(d.get("outcome")), gettext_lazy("Game over against %(opponent)s"))
    text = str(sentence) % {"opponent": d.get("opponent")}
    text += f" ({d.get('result') or d.get('termination')})."
    before, after = d.get("rating_before"), d.get("rating_after")
    if isinstance(before, int) and isinstance(after, int):
        text += " " + _("Rating %(before)s → %(after)s (%(change)s).") % {
            "before": before,
            "after": after,
            "change": f"{after - before:+d}",
        }
    return text


def _tournament_starting(d: Data) -> str:
    minutes = d.get("minutes")
    count = minutes if isinstance(minutes, int) else 0
    return ngettext(
        "%(tournament)s starts in %(minutes)s minute.",
        "%(tournament)s starts in %(minutes)s minutes.",
        count,
    ) % {"tournament": d.get("tournament"), "minutes": minutes}


def _club_join_request(d: Data) -> str:
    return _("%(from)s asks to join %(club)s.") % {"from": d.get("from"), "club": d.get("club")}


def _club_join_decided(d: Data) -> str:
    if d.get("approved"):
        return _("Your request to join %(club)s was accepted.") % {"club": d.get("club")}
    return _("Your request to join %(club)s was declined.") % {"club": d.get("club")}


def _guest_claim_request(d: Data) -> str:
    return _("%(from)s says the guest player %(guest)s of %(club)s is them.") % {
        "from": d.get("from"),
        "guest": d.get("guest"),
        "club": d.get("club"),
    }


def _guest_claim_decided(d: Data) -> str:
    if d.get("accepted"):
        return _("The results of %(guest)s (%(club)s) are now yours.") % {
            "guest": d.get("guest"),
            "club": d.get("club"),
        }
    return _("%(club)s declined your claim of the guest player %(guest)s.") % {
        "guest": d.get("guest"),
        "club": d.get("club"),
    }


def _lineup_due(d: Data) -> str:
    if not d.get("opponent"):
        return _("%(where)s: %(team)s has the pairing-allocated bye.") % {
            "where": _where(d),
            "team": d.get("team"),
        }
    return _(
        "%(where)s: %(team)s meets %(opponent)s (board 1: %(colour)s); send its line-up before "
        "the round begins."
    ) % {
        "where": _where(d),
        "team": d.get("team"),
        "opponent": d.get("opponent"),
        "colour": _colour(d.get("colour")),
    }


def _lineup_reminder(d: Data) -> str:
    minutes = d.get("minutes")
    count = minutes if isinstance(minutes, int) else 0
    return ngettext(
        "%(where)s: %(team)s's line-up against %(opponent)s is not in yet; the round begins in "
        "%(minutes)s minute.",
        "%(where)s: %(team)s's line-up against %(opponent)s is not in yet; the round begins in "
        "%(minutes)s minutes.",
        count,
    ) % {
        "where": _where(d),
        "team": d.get("team"),
        "opponent": d.get("opponent"),
        "minutes": minutes,
    }


def _armageddon_due(d: Data) -> str:
    return _(
        "%(where)s: %(team)s – %(opponent)s is still level after board-by-board elimination; "
        "nominate your player for the Armageddon game."
    ) % {"where": _where(d), "team": d.get("team"), "opponent": d.get("opponent")}


def _match_reported(d: Data) -> str:
    return _(
        "%(where)s: %(team)s reported %(score)s against %(opponent)s; confirm or dispute it."
    ) % {
        "where": _where(d),
        "team": d.get("team"),
        "score": d.get("score"),
        "opponent": d.get("opponent"),
    }


def _fixture_reminder(d: Data) -> str:
    when = _moment(d.get("starts"))
    return _("%(where)s: %(team)s meets %(opponent)s on %(day)s at %(time)s.") % {
        "where": _where(d),
        "team": d.get("team"),
        "opponent": d.get("opponent"),
        "day": date_format(when, "DATE_FORMAT") if when else "?",
        "time": time_format(when, "TIME_FORMAT") if when else "?",
    }


def _fixture_moved(d: Data) -> str:
    when = _moment(d.get("starts"))
    return _(
        "%(where)s: the match of %(team)s against %(opponent)s is moved to %(day)s at %(time)s."
    ) % {
        "where": _where(d),
        "team": d.get("team"),
        "opponent": d.get("opponent"),
        "day": date_format(when, "DATE_FORMAT") if when else "?",
        "time": time_format(when, "TIME_FORMAT") if when else "?",
    }


def _your_move(d: Data) -> str:
    return _("Your move against %(opponent)s in your correspondence game (%(clock)s).") % {
        "opponent": d.get("opponent"),
        "clock": _clock(d),
    }


def _move_reminder(d: Data) -> str:
    hours = d.get("hours") if isinstance(d.get("hours"), int) else 0
    return ngettext(
        "Your move against %(opponent)s: less than %(hours)s hour left in your correspondence game.",
        "Your move against %(opponent)s: less than %(hours)s hours left in your correspondence game.",
        hours,
    ) % {"opponent": d.get("opponent"), "hours": hours}


def _moment(text) -> datetime | None:
    """A wall-clock time kept as ISO text (with its offset: the event's time zone)."""
    try:
        return datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


_TEXTS: dict[str, Callable[[Data], str]] = {
    "challenge_received": _challenge_received,
    "challenge_accepted": _challenge_accepted,
    "challenge_declined": _challenge_declined,
    "game_started": _game_started,
    "round_paired": _round_paired,
    "game_finished": _game_finished,
    "tournament_starting": _tournament_starting,
    "club_join_request": _club_join_request,
    "club_join_decided": _club_join_decided,
    "guest_claim_request": _guest_claim_request,
    "guest_claim_decided": _guest_claim_decided,
    "lineup_due": _lineup_due,
    "lineup_reminder": _lineup_reminder,
    "match_reported": _match_reported,
    "armageddon_due": _armageddon_due,
    "fixture_reminder": _fixture_reminder,
    "fixture_moved": _fixture_moved,
    "your_move": _your_move,
    "move_reminder": _move_reminder,
}


def notification_text(kind: str, data: Data) -> str:
    """The sentence shown for a notification of ``kind`` with ``data``, in the active
    language."""
    render = _TEXTS.get(kind)
    return render(data) if render else str(kind).replace("_", " ").capitalize() + "."

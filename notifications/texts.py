"""The text of a notification, made from its kind and data when it is shown (pure, no Django):
stored data rather than stored sentences, so a player reads it in their language."""

from __future__ import annotations

from collections.abc import Callable, Mapping

Data = Mapping[str, object]


def _challenge_received(d: Data) -> str:
    rated = "rated" if d.get("rated") else "casual"
    if d.get("rematch_of"):
        return f"{d.get('from')} offers a rematch ({rated}, {d.get('clock')})."
    return f"{d.get('from')} challenges you to a {rated} game ({d.get('clock')})."


def _challenge_accepted(d: Data) -> str:
    return f"{d.get('by')} accepted your challenge: the game has started."


def _challenge_declined(d: Data) -> str:
    return f"{d.get('by')} declined your challenge."


def _game_started(d: Data) -> str:
    minutes, seconds = divmod(int(d.get("first_move_seconds") or 0), 60)
    wait = f"{minutes} min" + (f" {seconds} s" if seconds else "") if minutes else f"{seconds} s"
    return (
        f"{d.get('tournament')}, round {d.get('round')}: your game against {d.get('opponent')} "
        f"is ready. You play {d.get('colour')}, clock {d.get('clock')}; "
        f"the first move is due within {wait}."
    )


def _round_paired(d: Data) -> str:
    where = f"{d.get('tournament')}, round {d.get('round')}"
    if d.get("bye"):
        return f"{where}: you have a bye ({d.get('bye')})."
    return f"{where}: board {d.get('board')}, {d.get('colour')} against {d.get('opponent')}."


_OUTCOME = {"won": "You won", "lost": "You lost", "drew": "You drew", "aborted": "Aborted"}


def _game_finished(d: Data) -> str:
    text = f"{_OUTCOME.get(str(d.get('outcome')), 'Game over')} against {d.get('opponent')}"
    text += f" ({d.get('result') or d.get('termination')})."
    before, after = d.get("rating_before"), d.get("rating_after")
    if isinstance(before, int) and isinstance(after, int):
        text += f" Rating {before} → {after} ({after - before:+d})."
    return text


def _tournament_starting(d: Data) -> str:
    return f"{d.get('tournament')} starts in {d.get('minutes')} minutes."


def _club_join_request(d: Data) -> str:
    return f"{d.get('from')} asks to join {d.get('club')}."


def _club_join_decided(d: Data) -> str:
    verdict = "accepted" if d.get("approved") else "declined"
    return f"Your request to join {d.get('club')} was {verdict}."


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
}


def notification_text(kind: str, data: Data) -> str:
    """The sentence shown for a notification of ``kind`` with ``data``."""
    render = _TEXTS.get(kind)
    return render(data) if render else str(kind).replace("_", " ").capitalize() + "."

"""The unread count for the header's bell, on every page of a logged-in player."""

from notifications.selectors import unread_count


def unread(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # A callable: the template calls it only where the bell is drawn.
    return {"notifications_unread": lambda: unread_count(user.pk)}

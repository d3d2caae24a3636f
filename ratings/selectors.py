from django.conf import settings

from accounts.models import User
from ratings.elo import speed_category
from ratings.models import PlayerRating


def current_rating(user: User, category: str) -> int:
    rating = (
        PlayerRating.objects.filter(user=user, category=category)
        .values_list("rating", flat=True)
        .first()
    )
    return rating if rating is not None else settings.RATING_DEFAULT


def rating_for_tournament(user: User, tournament) -> int:
    return current_rating(
        user, speed_category(tournament.base_seconds, tournament.increment_seconds)
    )

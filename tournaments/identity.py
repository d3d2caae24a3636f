"""Who a player is on an entry list: title, federation, the C.04.2 initial order.

Federations are FIDE's three-letter codes (``BEL``, ``GER``, ``NED``), which are the IOC's; a
profile's country (ISO 3166 alpha-2) gives its code, and a code read back gives the country.
"""

from __future__ import annotations

from django_countries import countries
from django_countries.fields import Country

#: FIDE titles in the order of FIDE C.04.2 (General handling rules for Swiss tournaments, C:
#: the initial ranking list is sorted by rating, then title in this order, then name). Abalone
#: has no FIDE titles; directors write them as their federation awards them, and a title not
#: in this list ranks after these and before no title.
TITLE_ORDER = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")


def title_rank(title: str) -> int:
    title = (title or "").strip().upper()
    if not title:
        return len(TITLE_ORDER) + 1
    return TITLE_ORDER.index(title) if title in TITLE_ORDER else len(TITLE_ORDER)


def initial_order_key(rating: int, title: str, name: str) -> tuple:
    """C.04.2's initial ranking: rating (highest first), title, then the name alphabetically."""
    return (-(rating or 0), title_rank(title), (name or "").casefold())


def federation_of_country(code: str) -> str:
    """The three-letter federation of an ISO country code ('' when unknown)."""
    if not code:
        return ""
    return countries.ioc_code(str(code)) or ""


def country_of_federation(federation: str) -> str:
    """The ISO alpha-2 country of a federation code (IOC's, else ISO alpha-3), or ''."""
    federation = (federation or "").strip().upper()
    if not federation:
        return ""
    for alpha2, ioc in countries.ioc_codes.items():
        if ioc == federation:
            return alpha2
    return countries.alpha2(federation) or ""


def profile_identity(user) -> dict:
    """What an entry copies from a player's profile (a ``User``): the federation of their
    country."""
    return {"federation": federation_of_country(user.country)}


def federation_name(federation: str) -> str:
    country = country_of_federation(federation)
    return str(Country(country).name) if country else federation

"""The API's limit/offset pagination: both numbers checked, both bounded."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.pagination import LimitOffsetPagination

from .errors import InvalidInput


def _whole_number(request, name: str, *, smallest: int) -> int | None:
    """The query parameter ``name`` as an integer of at least ``smallest``; None if absent."""
    text = request.query_params.get(name)
    if text is None:
        return None
    try:
        value = int(text) if text.isascii() and text.strip().lstrip("+-").isdigit() else None
    except ValueError:  # more digits than Python converts
        value = None
    if value is None or value < smallest:
        raise InvalidInput(
            _("%(name)s must be a whole number of at least %(smallest)s, not '%(value)s'.")
            % {"name": name, "smallest": smallest, "value": text[:40]},
            code="bad_page",
        )
    return value


class Pagination(LimitOffsetPagination):
    """DRF's ``?limit=&offset=``, with a largest page and a largest offset, and a 400 for a
    value that is not a number.

    DRF ignores a bad value (``?offset=null`` gave the first page) and caps neither number;
    one past what the database's 64-bit LIMIT and OFFSET take was a 500 (``?limit=10**22``).
    A larger limit gives the largest page; an offset past every row gives an empty page.
    """

    max_limit = 200
    max_offset = 10**15

    def get_limit(self, request) -> int:
        limit = _whole_number(request, self.limit_query_param, smallest=1)
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request) -> int:
        offset = _whole_number(request, self.offset_query_param, smallest=0)
        return 0 if offset is None else min(offset, self.max_offset)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"]["minimum"] = 1
                parameter["description"] = (
                    f"Results per page (at most {self.max_limit}; a larger number gives "
                    f"{self.max_limit}; default {self.default_limit})."
                )
            elif parameter["name"] == self.offset_query_param:
                parameter["schema"]["minimum"] = 0
        return parameters


def page_parameters(pagination: type[Pagination] = Pagination) -> list[OpenApiParameter]:
    """``limit`` and ``offset`` for a view that pages by hand (not a generic list view)."""
    return [
        OpenApiParameter(
            pagination.limit_query_param,
            {"type": "integer", "minimum": 1},
            description=f"results per page (at most {pagination.max_limit}; a larger number "
            f"gives {pagination.max_limit}; default {pagination.default_limit})",
        ),
        OpenApiParameter(
            pagination.offset_query_param,
            {"type": "integer", "minimum": 0},
            description="how many results to skip",
        ),
    ]

"""The API's limit/offset pagination, with both numbers bounded."""

from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    """DRF's ``?limit=&offset=`` with a largest page and a largest offset.

    DRF caps neither by default, and a number past what the database's 64-bit LIMIT and OFFSET
    take was a 500 (``?limit=10**22``). A larger limit gives the largest page; an offset past
    every row gives an empty page, as it always did.
    """

    max_limit = 200
    max_offset = 10**15

    def get_offset(self, request) -> int:
        return min(super().get_offset(request), self.max_offset)

"""The API's error answers for what is not the client's fault (core/api_errors.py)."""

import pytest
from django import db

from core.api_errors import exception_handler


@pytest.mark.parametrize("error", [db.OperationalError, db.InterfaceError])
def test_a_lost_database_connection_is_a_503_that_says_to_look_again(error):
    """The connection died under the request (the fault suite terminates every connection
    while moves are written): a clear 503, never a 500."""
    response = exception_handler(
        error("terminating connection due to administrator command"), {"request": None}
    )
    assert response.status_code == 503
    assert response.data["error"] == "database_unavailable"
    assert "fetch the current state" in response.data["detail"]
    assert response["Retry-After"] == "1"

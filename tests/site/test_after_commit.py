"""core.live.after_commit: what runs after a commit never fails the request that committed."""

import logging

import pytest
from django.db import transaction

from core.live import after_commit

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_failure_after_the_commit_is_logged_not_raised(caplog):
    ran = []

    def fails():
        ran.append("tried")
        raise ConnectionError("Redis is down")

    with caplog.at_level(logging.WARNING, logger="core.live"), transaction.atomic():
        after_commit(fails, "the test's event")
        after_commit(lambda: ran.append("next"), "the next event")
        assert ran == []  # not before the commit
    assert ran == ["tried", "next"]  # the next one still ran
    assert "the test's event not sent after the commit" in caplog.text


def test_nothing_is_sent_when_the_transaction_rolls_back():
    ran = []
    with pytest.raises(RuntimeError), transaction.atomic():
        after_commit(lambda: ran.append("sent"), "an event")
        raise RuntimeError("rolled back")
    assert ran == []


def test_outside_a_transaction_it_runs_at_once():
    ran = []
    after_commit(lambda: ran.append("sent"), "an event")
    assert ran == ["sent"]

import pytest


@pytest.fixture
def trio(make_player):
    return [make_player(name) for name in ("ann", "bob", "cid")]

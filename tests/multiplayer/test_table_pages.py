"""The table pages render from the one document (multiplayer.views; templates/multiplayer/)."""

import pytest

from tests.multiplayer.test_tables import full_table


@pytest.mark.django_db
def test_the_pages_and_the_list(trio, client):
    table = full_table(trio)
    listed = client.get("/api/v1/tables/").json()["tables"]
    assert [t["id"] for t in listed] == [table.pk] and listed[0]["status"] == "started"
    assert client.get("/tables/").status_code == 200
    page = client.get(f"/tables/{table.pk}/")
    assert page.status_code == 200 and b"table-data" in page.content
    assert client.get("/tables/999999/").status_code == 404


@pytest.mark.django_db
def test_the_lobby_lists_finished_tables_with_their_places(trio, client):
    from multiplayer import services
    from tests.multiplayer.test_tables import at

    table = full_table(trio)
    services.table_resign(table_id=table.pk, user=trio[1], now=at(3))
    page = client.get("/tables/").content.decode()
    section = page[page.index('id="finished-tables"') :]
    assert f"/tables/{table.pk}/" in section and "Resignation" in section
    assert section.index("ann") < section.index("bob")  # bob resigned: last

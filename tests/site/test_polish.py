"""Polish people notice: the lobby's form, downloads that download, the rating chart by time,
the way back from the API docs, and demo games still in progress for a newcomer."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from players import charts
from ratings.selectors import HistoryPoint
from tournaments.models import Tournament

# --- the lobby's form ---------------------------------------------------------------------------


def _custom_clock(html: str) -> str:
    """The opening tag of the block holding the custom clock's minutes and increment."""
    return re.search(r'<div id="custom-clock"[^>]*>', html).group(0)


@pytest.mark.django_db
def test_the_custom_clock_fields_show_only_for_a_custom_clock(client, make_player):
    client.force_login(make_player("lobby_ann"))
    html = client.get(reverse("lobby")).content.decode()
    block = html[html.index('<div id="custom-clock"') :]
    assert " hidden" in _custom_clock(html)  # a preset is chosen at first
    assert block.index('name="base_minutes"') < block.index('name="marbles_to_win"')
    assert block.index('name="increment_seconds"') < block.index('name="marbles_to_win"')
    # sent as "custom" without the minutes: shown again, with the error under the field
    html = client.post(reverse("lobby"), {"preset": "custom", "start": "standard"}).content.decode()
    assert " hidden" not in _custom_clock(html)
    assert 'class="field has-error"' in html[html.index('<div id="custom-clock"') :]
    # a preset, and a bad minutes value left behind in the hidden fields: shown, with the error
    html = client.post(
        reverse("lobby"), {"preset": "blitz-3+2", "start": "standard", "base_minutes": "0"}
    ).content.decode()
    assert " hidden" not in _custom_clock(html)


@pytest.mark.django_db
def test_the_rated_box_sits_beside_the_colour_with_its_label(client, make_player):
    client.force_login(make_player("lobby_bob"))
    html = client.get(reverse("lobby")).content.decode()
    form = html[
        html.index('id="challenge-form"') : html.index("</form>", html.index("challenge-form"))
    ]
    row = re.search(r'<div class="row">(.*?name="rated".*?)</div>\s*</div>', form, re.S)
    assert row is not None and 'name="colour"' in row.group(1)
    # the box inside its label, so the word "Rated" is beside it and clicking it ticks the box
    assert re.search(r'<label for="id_rated"><input type="checkbox" name="rated"[^>]*> ', form)


# --- downloads ----------------------------------------------------------------------------------


@pytest.fixture
def demo(db):
    call_command("seed_demo", verbosity=0)


def test_record_and_export_downloads_are_attachments(client, demo):
    game = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk").first()
    record = client.get(reverse("archive-record", args=[game.pk]))
    assert record.status_code == 200
    assert record["Content-Disposition"] == f'attachment; filename="sumito-{game.pk}.txt"'
    everything = client.get(reverse("archive-download"))
    assert everything.status_code == 200
    assert everything["Content-Disposition"].startswith("attachment; filename=")
    slug = Tournament.objects.get().slug
    for kind in ("standings.csv", "crosstable.csv", "trf", "games.txt"):
        export = client.get(reverse("tournament-export", args=[slug, kind]))
        assert export.status_code == 200, kind
        assert export["Content-Disposition"].startswith("attachment; filename="), kind
        assert slug in export["Content-Disposition"], kind


# --- demo games in progress ---------------------------------------------------------------------


def test_the_demo_games_in_progress_have_hours_on_their_clocks(demo):
    now = timezone.now()
    live = list(Game.objects.filter(status=Game.Status.STARTED))
    assert len(live) == 3
    clocks = sorted(game.base_seconds for game in live)
    # the longest live clock games.clock allows, twice, and a correspondence game of 3 days
    assert clocks == [6 * 3600, 6 * 3600, 3 * 86_400]
    for game in live:
        assert game.flag_deadline - now > timedelta(hours=5)
    call_command("seed_demo", verbosity=0)  # again: the same games, still in progress
    assert set(Game.objects.filter(status=Game.Status.STARTED)) == set(live)


def test_a_demo_game_whose_time_ran_out_is_adjudicated_and_made_again(demo, monkeypatch):
    live = set(Game.objects.filter(status=Game.Status.STARTED).values_list("pk", flat=True))
    games_before = Game.objects.count()
    later = timezone.now() + timedelta(days=4)  # the site was stopped for four days
    monkeypatch.setattr(timezone, "now", lambda: later)
    call_command("seed_demo", verbosity=0)
    for game in Game.objects.filter(pk__in=live):
        assert (game.status, game.termination) == (Game.Status.FINISHED, "time")
    fresh = Game.objects.filter(status=Game.Status.STARTED)
    assert fresh.count() == 3 and not live & {game.pk for game in fresh}
    assert all(game.flag_deadline - later > timedelta(hours=5) for game in fresh)
    assert Game.objects.count() == games_before + 3


# --- the rating chart ---------------------------------------------------------------------------


def test_games_are_placed_by_the_time_between_them():
    day = 86400.0
    x = charts.chart_x_fractions([0.0, day, 3 * day, 10 * day])
    step = charts.CHART_MIN_STEP
    gaps = [right - left - step for left, right in zip(x, x[1:], strict=False)]
    # beyond the fixed step, the gaps are as the times between the games: 1, 2 and 7 days
    assert gaps[1] == pytest.approx(2 * gaps[0]) and gaps[2] == pytest.approx(7 * gaps[0])
    assert x[0] == 0 and x[-1] == pytest.approx(1)


def test_games_played_at_one_moment_do_not_stack():
    """A round's results entered together: the games used to share one x, one above another."""
    day = 86400.0
    x = charts.chart_x_fractions([0.0, 30 * day, 30 * day, 30 * day])
    assert x[1] < x[2] < x[3]
    plot = charts.CHART_WIDTH - charts.CHART_LEFT - charts.CHART_RIGHT
    assert (x[2] - x[1]) * plot >= 5  # apart by more than a point's width (r=2.5)
    assert charts.chart_x_fractions([5.0, 5.0, 5.0]) == pytest.approx([0, 0.5, 1])


def test_many_games_still_fit_in_order():
    times = [float(minute * 60) for minute in range(5000)]
    x = charts.chart_x_fractions(times)
    assert x[0] == 0 and x[-1] == pytest.approx(1)
    assert all(left < right for left, right in zip(x, x[1:], strict=False))


def test_the_chart_marks_dates_along_a_long_history():
    start = datetime(2026, 1, 1, 12, tzinfo=UTC)

    def history(*days):
        return [HistoryPoint(start + timedelta(days=d), 1500 + d, d, None, None) for d in days]

    chart = charts.rating_chart("rapid", history(0, 7, 23, 40))
    cx = [float(v) for v in re.findall(r'cx="([\d.]+)"', chart.points_svg)]
    assert cx[1] - cx[0] < cx[2] - cx[1]  # 7 days, then 16
    # marks a quarter, a half and three quarters of the way through the forty days
    assert [label for _x, label in chart.ticks] == ["2026-01-11", "2026-01-21", "2026-01-31"]
    ticks = [x for x, _label in chart.ticks]
    assert cx[1] < ticks[0] < ticks[1] < cx[2] < ticks[2] < cx[3]
    assert charts.rating_chart("rapid", history(0, 1, 2)).ticks == []  # two days: none


# --- the API docs -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_docs_lead_back_to_the_site(client):
    schema = client.get(reverse("api-schema"), HTTP_ACCEPT="application/json").json()
    assert "](/)" in schema["info"]["description"]
    docs = client.get(reverse("api-docs"))
    assert docs.status_code == 200 and 'href="/favicon.ico"' in docs.content.decode()


@pytest.mark.django_db
def test_the_api_record_and_export_downloads_are_attachments(api, make_player):
    from games import services as game_services
    from games.options import GameOptions

    black, white = make_player("dl_b"), make_player("dl_w")
    game = game_services.game_create(
        black=black,
        white=white,
        options=GameOptions(None, 0, 6, "belgian", False),
        now=timezone.now(),
    )
    answer = api().get(reverse("api-archive-record", kwargs={"game_id": game.pk}))
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == f'attachment; filename="sumito-{game.pk}.txt"'

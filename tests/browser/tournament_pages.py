"""What the tournament browser tests share: the marbles and points of each result a director
enters, and the few page helpers both drive the pages with."""

from playwright.sync_api import expect

from clubs.services import club_create
from tests.browser.pages import in_the_window
from tournaments import services
from tournaments.models import Board, Tournament

# Marbles pushed off (Black, White) for the played results; forfeits leave them empty.
MARBLES = {"1-0": (6, 2), "0-1": (3, 6), "1/2-1/2": (4, 4), "+-": None, "-+": None}
# Points for (Black, White).
POINTS = {
    "1-0": (1.0, 0.0),
    "0-1": (0.0, 1.0),
    "1/2-1/2": (0.5, 0.5),
    "+-": (1.0, 0.0),
    "-+": (0.0, 1.0),
}


def messages(page):
    return page.locator(".messages .message")


def form_field(page, label: str):
    """The field of the page's form labelled ``label`` (without its colon)."""
    return page.get_by_label(f"{label}:", exact=True)


def new_event_form(page, club_slug: str | None, settings: dict[str, str | bool]) -> None:
    """Fill the new-tournament form: open ``club_slug``'s (None: the form is open already) and
    set each of ``settings`` by its field's label (without its colon): a select's option value,
    a text box's text, or a tick box ticked (True) or not (False). The event is not created
    yet (:func:`event_created`), so a test can read the form first."""
    if club_slug is not None:
        page.goto(f"/tournaments/new/{club_slug}/")
    for label, value in settings.items():
        field = form_field(page, label)
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("element => element.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def event_created(page, name: str) -> str:
    """Create the event the new-tournament form describes; once the page says ``name`` is
    open for registration, the new event's slug (from the event page's address)."""
    page.get_by_role("button", name="Create tournament").click()
    expect(messages(page)).to_contain_text(f"{name} is open for registration")
    return page.url.rstrip("/").split("/")[-1]


def shown_points(value: float) -> str:
    """Points as the pages show them: 2½, ½, 3."""
    whole, half = int(value), value - int(value) >= 0.5
    return f"{whole}½" if half and whole else ("½" if half else str(whole))


def enter_result(page, board: Board, result: str, *, reason: str | None = None):
    """The per-board form of the round page's Results section."""
    form = page.locator(f"form.result-form[data-board='{board.number}']")
    form.get_by_label(f"Result of board {board.number}", exact=True).select_option(result)
    marbles = MARBLES[result]
    form.get_by_label("Marbles pushed off by Black").fill(
        "" if marbles is None else str(marbles[0])
    )
    form.get_by_label("Marbles pushed off by White").fill(
        "" if marbles is None else str(marbles[1])
    )
    if reason is not None:
        form.get_by_label("Reason").fill(reason)
    form.get_by_role("button").click()


def club_of_players(make_player, club_name: str, names: tuple[str, ...]):
    """A club owned by Dora Director (``dora``), with a player for each of ``names``."""
    director = make_player("dora", display_name="Dora Director")
    for name in names:
        make_player(name, display_name=name.capitalize())
    return club_create(owner=director, name=club_name)


def entrants_rated(slug: str, names: tuple[str, ...]) -> Tournament:
    """``names`` entered in the event, rated from 2000 down by 50 in the order of their names
    (so the first name is seeded 1)."""
    tournament = Tournament.objects.get(slug=slug)
    services.entries_import(
        tournament=tournament, actor=tournament.created_by, text="\n".join(names)
    )
    for number, entrant in enumerate(tournament.entrants.order_by("user__username")):
        entrant.rating = 2000 - 50 * number
        entrant.save(update_fields=["rating"])
    return tournament


def enter_game(page, board: int, game: int, result: str, marbles=("", ""), reason=None):
    """The director enters game ``game`` of board ``board``'s match over the board on the round
    page (its result and marbles from that game's own first mover's side)."""
    form = page.locator(f"form.game-result-form[data-board='{board}'][data-game='{game}']")
    form.get_by_label(f"Result of board {board}, game {game}", exact=True).select_option(result)
    form.get_by_label(f"Marbles pushed off by the first mover, board {board}, game {game}").fill(
        marbles[0]
    )
    form.get_by_label(f"Marbles pushed off by the second mover, board {board}, game {game}").fill(
        marbles[1]
    )
    if reason is not None:
        form.get_by_label("Reason").fill(reason)
    in_the_window(page, form.get_by_role("button"))
    form.get_by_role("button").click()

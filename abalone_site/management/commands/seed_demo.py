"""Demo data for the embedded default: clubs, a few dozen players, finished games, games in
progress and a Swiss in progress. Idempotent: nothing is duplicated, and the games in progress
are made again only once they have ended (see ``Command._games_in_progress``)."""

import random
from datetime import timedelta

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from clubs.models import Club, JoinRequest, Membership
from games import services as game_services
from games.demo import play_demo_game
from games.models import Game
from games.options import GameOptions

DEMO_PASSWORD = "sumito-demo"  # noqa: S105 - documented demo credential

PLAYERS = [
    ("alice", "Alice Marchand", "FR"),
    ("bruno", "Bruno Keller", "DE"),
    ("chloe", "Chloé Dubois", "BE"),
    ("dmitri", "Dmitri Orlov", "UA"),
    ("elena", "Elena Rossi", "IT"),
    ("femke", "Femke de Vries", "NL"),
    ("gabor", "Gábor Nagy", "HU"),
    ("hana", "Hana Sato", "JP"),
    ("ivan", "Ivan Petrenko", "UA"),
    ("julia", "Julia Fernández", "ES"),
    ("karl", "Karl Svensson", "SE"),
    ("lea", "Léa Martin", "FR"),
    ("marek", "Marek Novak", "CZ"),
    ("nina", "Nina Hoffmann", "DE"),
    ("oscar", "Oscar Lindqvist", "SE"),
    ("paula", "Paula Costa", "PT"),
    ("quentin", "Quentin Lefèvre", "FR"),
    ("rosa", "Rosa Jansen", "NL"),
    ("sven", "Sven Olsen", "NO"),
    ("tamara", "Tamara Kovač", "HR"),
    ("ugo", "Ugo Bianchi", "IT"),
    ("vera", "Vera Szabó", "HU"),
    ("wim", "Wim Peeters", "BE"),
    ("xenia", "Xenia Volkova", "UA"),
    ("yusuf", "Yusuf Demir", "TR"),
    ("zoe", "Zoé Girard", "FR"),
    ("anton", "Anton Weber", "AT"),
    ("bea", "Beatriz Silva", "PT"),
    ("cyril", "Cyril Moreau", "FR"),
    ("dora", "Dóra Kiss", "HU"),
    ("emil", "Emil Berg", "DK"),
    ("freya", "Freya Nilsen", "NO"),
]

CLUBS = [
    (
        "Brussels Abalone Circle",
        "Brussels",
        Club.Admission.OPEN,
        "alice",
        "Weekly club nights and the Belgian Daisy open.",
    ),
    (
        "Paris Sumito",
        "Paris",
        Club.Admission.REQUEST,
        "lea",
        "Competitive club: rapid and classical, Swiss events every month.",
    ),
    (
        "Online Blitz Club",
        "",
        Club.Admission.OPEN,
        "dmitri",
        "Blitz 3+2, four marbles to win, every evening.",
    ),
]


# Finished on the first run: (black, white, options).
FINISHED_GAMES = [
    ("alice", "bruno", GameOptions(600, 0, 6, "belgian", True)),
    ("chloe", "dmitri", GameOptions(180, 2, 4, "belgian", True)),
    ("elena", "femke", GameOptions(900, 0, 6, "standard", True)),
    ("gabor", "hana", GameOptions(300, 0, 4, "german", True)),
    ("lea", "alice", GameOptions(600, 0, 6, "belgian", False)),
    ("ivan", "julia", GameOptions(1800, 0, 6, "belgian", True)),
]
# Always one game in progress between each of these pairs (black, white), twelve moves in.
# The longest clock the server allows (games.clock.TimeControl: six hours), plus 30 s a move.
LIVE_OPTIONS = GameOptions(6 * 3600, 30, 6, "belgian", True)
# A correspondence game: three days a move (docs/correspondence.md).
CORRESPONDENCE_OPTIONS = GameOptions(3 * 24 * 3600, 0, 6, "standard", True)
LIVE_PAIRS = [
    ("karl", "nina", LIVE_OPTIONS),
    ("oscar", "paula", LIVE_OPTIONS),
    ("nina", "oscar", CORRESPONDENCE_OPTIONS),
]


class Command(BaseCommand):
    help = "Load demo clubs and players (safe to run again: nothing is duplicated)."

    @transaction.atomic
    def handle(self, *args, **options):
        rng = random.Random(2026)
        created = 0
        users = {}
        password_hash = make_password(DEMO_PASSWORD)
        for username, display_name, country in PLAYERS:
            user = User.objects.filter(username__iexact=username).first()
            if user is None:
                user = User.objects.create(
                    username=username,
                    password=password_hash,  # one hash for all: hashing is slow on purpose
                    email=f"{username}@example.org",
                    display_name=display_name,
                    country=country,
                )
                created += 1
            users[username] = user
        if not User.objects.filter(username="admin").exists():
            User.objects.create_superuser("admin", "admin@example.org", DEMO_PASSWORD)
        for name, location, admission, owner, description in CLUBS:
            club, new = Club.objects.get_or_create(
                name=name,
                defaults={
                    "slug": name.lower().replace(" ", "-"),
                    "location": location,
                    "admission": admission,
                    "description": description,
                },
            )
            if not new:
                continue
            Membership.objects.create(club=club, user=users[owner], role=Membership.Role.OWNER)
            others = [u for name_, u in users.items() if name_ != owner]
            for user in rng.sample(others, 12):
                Membership.objects.create(club=club, user=user, role=Membership.Role.MEMBER)
            admin = Membership.objects.filter(club=club, role=Membership.Role.MEMBER).first()
            admin.role = Membership.Role.ADMIN
            admin.save(update_fields=["role"])
            if admission == Club.Admission.REQUEST:
                outsider = next(
                    u for u in others if not Membership.objects.filter(club=club, user=u).exists()
                )
                JoinRequest.objects.create(club=club, user=outsider, message="I play on Thursdays.")
        self._games(users, rng)
        self._tournament(users, rng)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {created} new players ({User.objects.count()} in all), "
                f"{Club.objects.count()} clubs, {Game.objects.count()} games. "
                f"Log in as any demo player "
                f"(e.g. alice) or 'admin' with password '{DEMO_PASSWORD}'."
            )
        )

    def _games(self, users, rng):
        """Finished games with full records (only on the first run), then the games in progress
        (``_games_in_progress``, on every run)."""
        if not Game.objects.filter(black__in=users.values()).exists():
            now = timezone.now()
            total = len(FINISHED_GAMES)
            for number, (black, white, options) in enumerate(FINISHED_GAMES, start=1):
                self.stdout.write(f"\r  demo games {number}/{total}", ending="")
                play_demo_game(
                    black=users[black],
                    white=users[white],
                    options=options,
                    start_at=now - timedelta(days=number, hours=rng.randint(0, 12)),
                    plies=None,
                    rng=rng,
                )
            self.stdout.write("")
        self._games_in_progress(users, rng)

    def _games_in_progress(self, users, rng):
        """A game in progress for each pair of ``LIVE_PAIRS``, on the longest live clock the
        server allows (``LIVE_OPTIONS``) or a correspondence clock of three days a move
        (``CORRESPONDENCE_OPTIONS``), so a newcomer finds them still being played hours after
        ``make run``; nobody moves in them, so in the end a flag falls. Each run (``make run``
        runs this command every time) makes a new one for a pair whose game has ended, after
        adjudicating one whose time ran out while the site was stopped; a pair whose game is
        still in progress is left alone."""
        now = timezone.now()
        for black, white, options in LIVE_PAIRS:
            live = Game.objects.filter(
                black=users[black], white=users[white], status=Game.Status.STARTED
            ).first()
            if live is not None and (live.flag_deadline is None or live.flag_deadline > now):
                continue
            if live is not None:
                game_services.game_adjudicate(game_id=live.pk, now=now)
            play_demo_game(
                black=users[black],
                white=users[white],
                options=options,
                start_at=now - timedelta(minutes=3),
                plies=12,
                rng=rng,
            )

    def _tournament(self, users, rng):
        """A 10-player over-the-board Swiss of the first club, in round 4 of 5."""
        from tournaments import services as tournament_services
        from tournaments.models import Round, Tournament

        club = Club.objects.get(name=CLUBS[0][0])
        if Tournament.objects.filter(club=club).exists():
            return
        owner = Membership.objects.get(club=club, role=Membership.Role.OWNER).user
        now = timezone.now()
        tournament = tournament_services.tournament_create(
            club=club,
            actor=owner,
            name="Brussels Winter Swiss",
            format="swiss",
            rounds=5,
            play_mode="otb",
            base_seconds=900,
            increment_seconds=0,
            round_start="manual",
            entry="open",
            tiebreaks=["buchholz_cut1", "buchholz", "sonneborn_berger", "marbles"],
            description="Five rounds over the board, Belgian Daisy, 15 minutes each.",
        )
        for user in list(users.values())[:10]:
            tournament_services.tournament_register(tournament=tournament, user=user, now=now)
        tournament_services.tournament_start(tournament=tournament, actor=owner, now=now)
        results = ["1-0", "0-1", "1/2-1/2", "1-0", "0-1"]
        for number in range(1, 5):
            self.stdout.write(f"\r  demo tournament round {number}/4", ending="")
            if number > 1:
                tournament_services.round_pair(tournament_id=tournament.pk, number=number, now=now)
            tournament_services.round_start(
                tournament_id=tournament.pk, number=number, actor=owner, now=now
            )
            round_ = Round.objects.get(tournament=tournament, number=number)
            boards = list(round_.boards.filter(white__isnull=False))
            if number == 4:
                boards = boards[:2]  # round 4 is still being played
            for board in boards:
                result = rng.choice(results)
                marbles = {
                    "1-0": (6, rng.randint(0, 5)),
                    "0-1": (rng.randint(0, 5), 6),
                    "1/2-1/2": (3, 3),
                }[result]
                tournament_services.board_result_set(
                    board=board,
                    actor=owner,
                    result=result,
                    black_marbles=marbles[0],
                    white_marbles=marbles[1],
                    now=now,
                )
        self.stdout.write("")

"""``python -m tournaments.pairing [--rules RULES] FILE.trf``: the next round's FIDE Dutch
pairing, by C.04.3 as in force from 1 February 2026 unless ``--rules dutch-until-2026``.

Reads a TRF-2026 or TRF-16 file as Swiss-Manager or bbpPairings write it (LF, CRLF or CR line
ends, blank rank fields, the 142/152/162/240/260 codes and the ``XXR``/``XXC``/``XXP``/``XXS``/
``XXZ``/``BBW``.. extensions) and prints, like bbpPairings,
the number of pairs, then one ``first second`` line per pair (TRF "white", i.e. the first
mover, first), with ``id 0`` for the pairing-allocated bye.  Errors go to stderr, exit code 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tournaments.pairing import fast
from tournaments.pairing.dutch import DUTCH_2026, RULESETS, pair_swiss
from tournaments.pairing.model import PairingError
from tournaments.pairing.trf import read_trf

USAGE = (
    "usage: python -m tournaments.pairing [--rules dutch-2026|dutch-until-2026] FILE.trf\n"
    "  --rules: the text of C.04.3 to follow (default dutch-2026, in force since 1 February 2026)"
)


def _bar(placed: int, total: int) -> None:
    """A progress bar on the terminal's stderr (stdout keeps bbpPairings' format)."""
    width = 30
    done = width * placed // max(total, 1)
    bar = "#" * done + "-" * (width - done)
    print(f"\rpairing [{bar}] {placed}/{total} players placed", end="", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    # No Django here, so no app start-up to install the speed-up: do it as the app does (and
    # fail as loudly if py4swiss is not the version it was checked against).
    fast.install()
    args = list(sys.argv[1:] if argv is None else argv)
    rules = DUTCH_2026
    if len(args) == 3 and args[0] == "--rules":
        rules = args[1]
        args = args[2:]
    elif len(args) == 2 and args[0].startswith("--rules="):
        rules = args[0].split("=", 1)[1]
        args = args[1:]
    if len(args) != 1 or args[0] in ("-h", "--help") or rules not in RULESETS:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        text = Path(args[0]).read_bytes().decode("utf-8", errors="replace")
        tournament = read_trf(text)
        if tournament.total_rounds is None:
            raise PairingError("the TRF gives no total number of rounds (a 142 or XXR line)")
        if tournament.next_round > tournament.total_rounds:
            raise PairingError(
                f"all {tournament.total_rounds} rounds are already paired; nothing to pair"
            )
        pairing = pair_swiss(
            tournament.players,
            round_number=tournament.next_round,
            total_rounds=tournament.total_rounds,
            scoring=tournament.scoring,
            first_colour=tournament.first_colour,
            forbidden_pairs=tournament.forbidden_pairs,
            rules=rules,
            progress=_bar if sys.stderr.isatty() else None,
        )
        if sys.stderr.isatty():
            print(file=sys.stderr)
    except (OSError, PairingError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    lines = [f"{first} {second}" for first, second in pairing.pairs]
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    print(len(lines))
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

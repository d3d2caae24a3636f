"""``python -m tournaments.pairing FILE.trf``: the next round's FIDE Dutch pairing.

Reads a TRF-16 file as Swiss-Manager or bbpPairings write it (LF, CRLF or CR line ends, blank
rank fields, ``XXR``/``XXC``/``XXP``/``XXS``/``XXZ`` extensions) and prints, like bbpPairings,
the number of pairs, then one ``first second`` line per pair (TRF "white", i.e. the first
mover, first), with ``id 0`` for the pairing-allocated bye.  Errors go to stderr, exit code 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tournaments.pairing.dutch import pair_swiss
from tournaments.pairing.model import PairingError
from tournaments.pairing.trf import read_trf

USAGE = "usage: python -m tournaments.pairing FILE.trf"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        text = Path(args[0]).read_bytes().decode("utf-8", errors="replace")
        tournament = read_trf(text)
        if tournament.total_rounds is None:
            raise PairingError("the TRF has no XXR line (total number of rounds)")
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
        )
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

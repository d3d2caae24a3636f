"""FIDE Tournament Report Files: TRF-2026 (TRF-26) and TRF-16, with the JaVaFo/bbpPairings
extensions.  Pure Python, no Django.

Public API:

- :func:`write_trf` ``(tournament_name, players, *, total_rounds, scoring=Scoring(),
  first_colour="b", rounds_played=None, forbidden_pairs=(), header=None, requested_byes=(),
  identities=None) -> str``: TRF text, LF line ends;
- :func:`read_trf` ``(text) -> TrfTournament``: accepts LF, CRLF or CR line ends and a blank
  rank field (as Swiss-Manager and bbpPairings write them);
- the value types :class:`TrfTournament`, :class:`TrfHeader` (the tournament section),
  :class:`TrfIdentity` (a player's sex, title, federation, FIDE id and birth date columns),
  :class:`TrfBye` (a ``240`` record) and :class:`ForbiddenGroup` (a ``260`` record).

Columns of a ``001`` player line (1-based, inclusive): pairing number 5-8, sex 10, title 11-13,
name 15-47, rating 49-52, federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84,
rank 86-89, then one 10-column block per round from column 92: opponent 92-95 (``0000`` for
none), colour 97 (``w``/``b``/``-``), result 99.  TRF colours are FIDE colours: TRF ``w`` is the
side that moves first, which in Abalone is Black, so our ``"b"`` is written ``w`` and read back.

Tournament section (TRF-26), read and written: ``012`` name, ``022`` city, ``032`` federation,
``042``/``052`` start and end dates (``YYYY/MM/DD``), ``062`` players, ``072`` rated players,
``082`` teams (always 0), ``092`` type of tournament, ``102`` chief arbiter, ``112`` deputy
arbiters (one line each), ``122`` time control as text, ``132`` round dates (``YY/MM/DD`` in the
columns of the round blocks), ``142`` number of rounds, ``152 W|B`` the colour the top seed gets
in the first round (``W`` = moves first), ``162`` the point system (``W D L A P X`` codes;
written only when not 1 / 0.5 / 0 with 1 for the bye), ``192`` the encoded type of tournament
(``FIDE_DUTCH_2025``, ``FIDE_DUTCH``, ...), ``202`` the FIDE tie-breaks (codes separated by
commas), ``222`` the encoded time control (``S+I``).
``062``/``072``/``082`` are not read back: they are counted from the ``001`` lines.

In-tournament records: ``240 K RRR PPPP ...`` byes of kind ``K`` (F, H or Z) asked for in round
``RRR``; ``260 R1 R2 PPPP PPPP ...`` no two of the players meet in rounds R1..R2; ``250 MMMM
GGGG RRF RRL PPPF PPPL`` virtual points (an accelerated Swiss, read also from JaVaFo's ``XXA``
lines or, with neither, from ``192 FIDE_DUTCH_BAKU``: :mod:`tournaments.pairing.acceleration`)
into :attr:`PairingPlayer.accelerations`, written back as ``250`` records.  Abnormal points
(``299``), points for an absence other than 0 and team tournaments (``013``, ``310``) are
refused with a :class:`PairingError` naming the line.  ``###`` lines are comments.  Lines of
other alphabetic codes (a program's own: Sumito's ``SM?`` records, Tornelo's ``DAT``) are kept
in :attr:`TrfTournament.extensions` and written back from ``write_trf(extensions=...)``.

Older extensions, read and written beside the 2026 codes (JaVaFo and older programs know only
these; bbpPairings reads both): ``XXR n`` = ``142``, ``XXC white1|black1`` = ``152 W|B``,
``XXP a b`` a forbidden pair (more numbers: no two of them meet), ``XXS`` the JaVaFo point
system.  Read only: ``XXZ`` players not to be paired next round, bbpPairings' ``BBW BBD BBL
BBZ BBF BBU`` point lines.

Without ``152`` or ``XXC white1|black1`` the initial colour is inferred as TRF-26 (and
bbpPairings) do: the colour of the highest-ranked player paired in the first round in which
anyone had a colour, inverted when an odd number of higher players were paired then.

A player who is not available for the next round is written, as bbpPairings expects, with an
entry for that round: their requested bye from the history, or ``0000 - Z``.

The code: ``trf_model`` (layout, codes, value types), ``trf_read`` and ``trf_write``; this
module is their public face.
"""

from tournaments.pairing.trf_model import (
    BLOCK,
    DUTCH_CODES,
    ROUNDS_COLUMN,
    ForbiddenGroup,
    TrfBye,
    TrfHeader,
    TrfIdentity,
    TrfTournament,
    last_paired_round,
)
from tournaments.pairing.trf_read import read_trf
from tournaments.pairing.trf_write import _xxs_line, player_line, write_trf

__all__ = [
    "BLOCK",
    "DUTCH_CODES",
    "ROUNDS_COLUMN",
    "ForbiddenGroup",
    "TrfBye",
    "TrfHeader",
    "TrfIdentity",
    "TrfTournament",
    "_xxs_line",
    "last_paired_round",
    "player_line",
    "read_trf",
    "write_trf",
]

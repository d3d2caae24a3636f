"""A computer opponent for two-player Abalone: principal variation search. Pure, no Django.

The search is negamax alpha-beta with a principal-variation (null) window after the first move,
iterative deepening, a transposition table keyed by an incremental Zobrist hash (won and lost
scores stored as plies from the node, so a win found through a transposition keeps its true
distance), move ordering (the table's move, push-offs, pushes, the two killer moves of the ply,
then the history heuristic), a null move and late move reductions away from the principal
variation, and a quiescence search over push-offs and pushes. It answers within a time budget
(checked every 256 nodes, and before each new depth) and can be stopped from outside (:meth:`Searcher.stop`); the
answer is then the best move of the last finished depth. A depth that finds a won (or lost)
game ends the search, so a push-off that wins now is played at once; when several do, one after
which the other side could not have pushed off either comes first. The game's earlier
positions, when given, count as draws if reached again, and so does the move cap when given; a
side ahead scores such a draw below 0 (contempt), so it avoids the repetitions it can avoid.

Positions are the two bitboards of the side to move and of the other side (``games.engine.board``);
a move is applied by xor-ing the masks every :class:`~games.engine.movegen.Move` carries, so a
node allocates nothing but its move list.

The evaluation, the hash and the move order are in ``games.engine.evaluation``.

Threats are searched rather than scored: quiescence keeps playing push-offs and pushes until
none is left, so a position where a marble is about to go off is judged after it went.

The levels 1 to 8 that play with it, from a random mover to the full search, are in
``games.engine.levels``.
"""

from __future__ import annotations

import contextlib
import gc
import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from games.engine.evaluation import (
    INFINITY,
    URGENCY,
    WIN,
    ZOBRIST_SIDE,
    evaluate,
    ordered_moves,
    pushes,
    zobrist,
    zobrist_delta,
)
from games.engine.movegen import Move
from games.engine.position import BLACK, MARBLES_PER_SIDE, Position

# --- the search -----------------------------------------------------------------------------------

EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 1_500_000
CHECK_EVERY = 256
#: Scores beyond this are won or lost games (WIN less the plies to the end).
MATE_BOUND = WIN - 1000
QUIESCENCE_PLIES = 6
NULL_MOVE_DEPTH = 3
#: Contempt for draws: while the side to move at the root is ahead by CONTEMPT_THRESHOLD or more
#: (its quiescence score: the evaluation once the pushes in the air are played out; more than
#: the positional terms ever gave at equal marbles, at most 354 over some 5,000 positions of
#: random games, so in practice a marble up or one about to go), a repetition, or the cap, scores
#: CONTEMPT below a draw for it (a third of a marble: it gives up some position to avoid the
#: draw, never a marble). Behind or level, a draw scores 0 and stays welcome.
CONTEMPT = 300
CONTEMPT_THRESHOLD = 400
#: The progress terms' urgency (evaluation.evaluate, in quarters) rises from 1 to 3 over the
#: last URGENT_PLIES plies before the move cap.
URGENT_PLIES = 100
LMR_DEPTH = 3
LMR_AFTER = 3  # quiet moves searched in full before the reductions start


def _to_table(score: int, ply: int) -> int:
    """A won or lost score counted from this node rather than from the root, for the table."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


_gc_lock = threading.Lock()
_gc_pausers = 0  # searches running now
_gc_was_enabled = True


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a search runs (in any thread), on again after
    the last one, so that a full pass over a large transposition table (every entry is a tuple
    holding a move, so tracked) cannot land between two deadline checks. A search makes no
    reference cycles; reference counting frees the rest."""
    global _gc_pausers, _gc_was_enabled
    with _gc_lock:
        if _gc_pausers == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pausers += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pausers -= 1
            if _gc_pausers == 0 and _gc_was_enabled:
                gc.enable()


class _Timeout(Exception):
    """The budget ran out, or :meth:`Searcher.stop` was called."""


@dataclass
class Iteration:
    """What one finished depth found."""

    depth: int
    score: int
    pv: list[str]
    nodes: int
    seconds: float


@dataclass
class SearchResult:
    move: Move | None
    score: int
    depth: int
    pv: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    iterations: list[Iteration] = field(default_factory=list)


class Searcher:
    """One search at a time; keep the object between moves to keep its tables warm."""

    def __init__(self, *, marbles_to_win: int = 6, seed: int | None = None) -> None:
        self.marbles_to_win = marbles_to_win
        self.table: dict[int, tuple[int, int, int, Move | None]] = {}
        self.history: dict[int, int] = {}  # by id(move): each move is one shared value
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(128)]
        self.random = random.Random(seed)
        self._stop = threading.Event()
        self.nodes = 0
        self._deadline = 0.0
        self._path: set[int] = set()
        self._draws = (0, 0)  # what a draw scores for the side to move, Black and White
        self._cap_ply = 1 << 30  # the ply from the root at which the move cap ends the game
        self._urgency = URGENCY
        self._quiescence_plies = QUIESCENCE_PLIES

    def stop(self) -> None:
        """Ask a running search to stop now (from another thread)."""
        self._stop.set()

    # -- public -------------------------------------------------------------------------------------

    def search(
        self,
        position: Position,
        *,
        seconds: float = 3.0,
        max_depth: int = 64,
        on_iteration: Callable[[Iteration], None] | None = None,
        history: Iterable[Position] = (),
        quiescence: int = QUIESCENCE_PLIES,
        plies_left: int | None = None,
    ) -> SearchResult:
        """The best move of ``position`` found within ``seconds`` (or at ``max_depth``).

        ``history``: the game's earlier positions; reaching one again counts as a draw, which
        a side ahead scores below 0 (:data:`CONTEMPT`) and so steers clear of, and a side
        behind seeks. ``plies_left``: the plies to the move cap when it ends the game as a
        draw (None: no such cap); the cap then scores as a draw, and the progress terms weigh
        more as it comes near. ``quiescence``: how
        many plies of pushes are played out after the full-width depth (the first three of
        them with every push, the rest push-offs only; 3 or less: push-offs only).

        The budget is a deadline: the running depth is abandoned when it passes (checked every
        :data:`CHECK_EVERY` nodes), and no new depth starts once 55 % of it is spent."""
        with _collector_paused():
            return self._search_within(
                position,
                seconds=seconds,
                max_depth=max_depth,
                on_iteration=on_iteration,
                history=history,
                quiescence=quiescence,
                plies_left=plies_left,
            )

    def _search_within(
        self, position, *, seconds, max_depth, on_iteration, history, quiescence, plies_left
    ) -> SearchResult:
        self._stop.clear()
        started = time.perf_counter()
        self._deadline = started + max(0.01, seconds)
        self.nodes = 0
        self._path = {zobrist(earlier) for earlier in history}
        self._quiescence_plies = quiescence
        self._set_draws_and_urgency(position, plies_left)
        self.killers = [[None, None] for _ in range(128)]
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        own, opp = position.own_and_opponent_bits()
        colour = 0 if position.side_to_move == BLACK else 1
        key = zobrist(position)
        root_moves = self._sorted_root(own, opp)
        if not root_moves:
            return SearchResult(None, -WIN, 0)
        result = SearchResult(root_moves[0], 0, 0)
        for depth in range(1, max_depth + 1):
            try:
                score, best = self._root(own, opp, colour, key, depth, root_moves)
            except _Timeout:
                break
            root_moves.remove(best)
            root_moves.insert(0, best)
            pv = self._principal_variation(position, depth)
            elapsed = time.perf_counter() - started
            iteration = Iteration(depth, score, pv, self.nodes, elapsed)
            result = SearchResult(best, score, depth, pv, self.nodes, elapsed, result.iterations)
            result.iterations.append(iteration)
            if on_iteration is not None:
                on_iteration(iteration)
            if abs(score) >= MATE_BOUND or self._stop.is_set():
                break  # a forced win or loss is found (deeper changes nothing), or stopped
            if elapsed > (self._deadline - started) * 0.55:
                break  # the next depth would not finish in time
        result.nodes = self.nodes
        result.seconds = time.perf_counter() - started
        return result

    # -- internals ----------------------------------------------------------------------------------

    def _set_draws_and_urgency(self, position: Position, plies_left: int | None) -> None:
        """The contempt for draws of this search, the move cap's ply and the progress terms'
        urgency (see :data:`CONTEMPT` and :data:`URGENT_PLIES`)."""
        own, opp = position.own_and_opponent_bits()
        colour = 0 if position.side_to_move == BLACK else 1
        self._urgency = URGENCY
        self._cap_ply = 1 << 30
        if plies_left is not None:
            self._cap_ply = max(1, plies_left)
            closeness = max(0, URGENT_PLIES - plies_left)
            self._urgency = URGENCY + 2 * URGENCY * closeness // URGENT_PLIES
        self._draws = (0, 0)
        try:  # the root's standing once the pushes in the air are played out
            standing = self._quiescence(own, opp, -INFINITY, INFINITY, 0, self._quiescence_plies)
        except _Timeout:
            standing = evaluate(own, opp, self._urgency)
        if standing >= CONTEMPT_THRESHOLD:
            draws = [0, 0]
            draws[colour], draws[1 - colour] = -CONTEMPT, CONTEMPT
            self._draws = (draws[0], draws[1])
        else:
            self._draws = (0, 0)

    def _sorted_root(self, own: int, opp: int) -> list[Move]:
        offs, others, quiet = ordered_moves(own, opp)
        if offs and self._lost(opp ^ offs[0].opp_xor):
            # every push-off wins; the first is played, so put first those after which the
            # other side could not have pushed off either (the win also stops any threat)
            offs.sort(key=lambda m: bool(pushes(opp ^ m.opp_xor, own ^ m.own_xor)[0]))
        return offs + others + quiet

    def _check_time(self) -> None:
        if self._stop.is_set() or time.perf_counter() > self._deadline:
            raise _Timeout

    def _lost(self, own: int) -> bool:
        return MARBLES_PER_SIDE - own.bit_count() >= self.marbles_to_win

    def _root(self, own, opp, colour, key, depth, moves) -> tuple[int, Move]:
        alpha, beta = -INFINITY, INFINITY
        best_move = moves[0]
        repeated = key in self._path  # the position itself was seen before: keep it there
        self._path.add(key)
        try:
            for index, move in enumerate(moves):
                child = (
                    key
                    ^ zobrist_delta(colour, move.own_xor)
                    ^ zobrist_delta(1 - colour, move.opp_xor)
                )
                child ^= ZOBRIST_SIDE
                new_own, new_opp = own ^ move.own_xor, opp ^ move.opp_xor
                if index == 0:
                    score = -self._search(
                        new_opp, new_own, 1 - colour, child, depth - 1, -beta, -alpha, 1
                    )
                else:
                    score = -self._search(
                        new_opp, new_own, 1 - colour, child, depth - 1, -alpha - 1, -alpha, 1
                    )
                    if alpha < score < beta:
                        score = -self._search(
                            new_opp, new_own, 1 - colour, child, depth - 1, -beta, -alpha, 1
                        )
                if score > alpha:
                    alpha, best_move = score, move
        finally:
            if not repeated:
                self._path.discard(key)
        self.table[key] = (depth, EXACT, alpha, best_move)
        return alpha, best_move

    def _search(self, own, opp, colour, key, depth, alpha, beta, ply, null=True) -> int:
        """Negamax with a principal-variation window; ``null``: a null move may be tried."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self._check_time()
        if self._lost(own):
            return -WIN + ply
        if key in self._path:
            return self._draws[colour]  # a repetition: a draw (the server's rule), less contempt
        if ply >= self._cap_ply:
            return self._draws[colour]  # the move cap: a draw
        if depth <= 0:
            return self._quiescence(own, opp, alpha, beta, ply, self._quiescence_plies)
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            entry_depth, flag, value, table_move = entry
            if entry_depth >= depth:
                value = _from_table(value, ply)
                if flag == EXACT:
                    return value
                if flag == LOWER and value >= beta:
                    return value
                if flag == UPPER and value <= alpha:
                    return value
        them = 1 - colour
        scout = beta - alpha == 1
        if (
            null
            and scout
            and depth >= NULL_MOVE_DEPTH
            and beta < MATE_BOUND
            and evaluate(own, opp, self._urgency) >= beta
        ):
            # Null move: if passing still holds beta, a real move will (no zugzwang in Abalone);
            # an opponent's push-off threat makes the pass fail, so threats are never pruned.
            reduced = depth - 1 - (3 if depth >= 6 else 2)
            score = -self._search(
                opp,
                own,
                them,
                key ^ ZOBRIST_SIDE,
                reduced,
                -beta,
                -beta + 1,
                ply + 1,
                False,
            )
            if score >= beta:
                return beta
        offs, others, quiet = ordered_moves(own, opp)
        if not offs and not others and not quiet:
            return -WIN + ply  # no legal move loses (the server's rule)
        killers = self.killers[ply] if ply < 128 else [None, None]
        history = self.history
        if len(quiet) > 1:
            quiet.sort(key=lambda m: history.get(id(m), 0), reverse=True)
        front = [m for m in killers if m is not None and any(m is q for q in quiet)]
        if front:
            quiet = front + [m for m in quiet if m is not front[0] and m is not front[-1]]
        tactical = len(offs) + len(others)
        moves = offs + others + quiet
        if table_move is not None:
            for index, move in enumerate(moves):
                if move is table_move:
                    del moves[index]
                    moves.insert(0, table_move)
                    tactical += index >= tactical  # a quiet table move is searched in full
                    break
        late = tactical + len(front) + LMR_AFTER
        original_alpha = alpha
        best, best_move = -INFINITY, None
        deeper, below = self._search, ply + 1
        self._path.add(key)
        try:
            for index, move in enumerate(moves):
                child = (
                    key ^ zobrist_delta(colour, move.own_xor) ^ zobrist_delta(them, move.opp_xor)
                )
                child ^= ZOBRIST_SIDE
                mine, theirs = own ^ move.own_xor, opp ^ move.opp_xor
                if index == 0:
                    score = -deeper(theirs, mine, them, child, depth - 1, -beta, -alpha, below)
                else:
                    # late quiet moves are searched shallower first (late move reduction)
                    reduced = depth - 1
                    if depth >= LMR_DEPTH and index >= late:
                        reduced -= 1 if index < late + 8 or depth < 5 else 2
                    score = -deeper(theirs, mine, them, child, reduced, -alpha - 1, -alpha, below)
                    if reduced < depth - 1 and score > alpha:
                        score = -deeper(
                            theirs, mine, them, child, depth - 1, -alpha - 1, -alpha, below
                        )
                    if alpha < score < beta:
                        score = -deeper(theirs, mine, them, child, depth - 1, -beta, -alpha, below)
                if score > best:
                    best, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not move.pushed and ply < 128:
                                if killers[0] is not move:
                                    killers[1] = killers[0]
                                    killers[0] = move
                                history[id(move)] = history.get(id(move), 0) + depth * depth
                            break
        finally:
            self._path.discard(key)
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, flag, _to_table(best, ply), best_move)
        return best

    def _quiescence(self, own, opp, alpha, beta, ply, budget) -> int:
        """Stand pat on the evaluation, or play push-offs (and, while ``budget`` lasts, other
        pushes) until the position is quiet."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self._check_time()
        if self._lost(own):
            return -WIN + ply
        stand = evaluate(own, opp, self._urgency)
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        if budget <= 0:
            return alpha
        offs, others = pushes(own, opp)
        moves = offs if budget < 4 else offs + others
        for move in moves:
            score = -self._quiescence(
                opp ^ move.opp_xor, own ^ move.own_xor, -beta, -alpha, ply + 1, budget - 1
            )
            if score >= beta:
                return score
            if score > alpha:
                alpha = score
        return alpha

    def _principal_variation(self, position: Position, depth: int) -> list[str]:
        line: list[str] = []
        own, opp = position.own_and_opponent_bits()
        colour = 0 if position.side_to_move == BLACK else 1
        key = zobrist(position)
        seen = set()
        for _ in range(depth):
            entry = self.table.get(key)
            if entry is None or entry[3] is None or key in seen:
                break
            seen.add(key)
            move = entry[3]
            if not move.is_legal_in(own, opp):
                break
            line.append(move.notation)
            key ^= (
                zobrist_delta(colour, move.own_xor)
                ^ zobrist_delta(1 - colour, move.opp_xor)
                ^ ZOBRIST_SIDE
            )
            own, opp = opp ^ move.opp_xor, own ^ move.own_xor
            colour = 1 - colour
        return line

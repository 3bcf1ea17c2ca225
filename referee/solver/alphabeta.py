"""The two pieces of fail-soft alpha-beta every search here shares: the move loop and the
bounds a transposition table keeps."""
from __future__ import annotations

INF = 1 << 60


def fail_soft(maxing: bool, alpha: int, beta: int, children, search) -> int:
    """The value of a node from its `children`, (gain, position) pairs tried in order, each
    worth its gain plus `search(position, alpha, beta)`; stops at a cut-off."""
    best = -INF if maxing else INF
    for gain, child in children:
        v = gain + search(child, alpha - gain, beta - gain)
        if maxing and v > best:
            best, alpha = v, max(alpha, v)
        elif not maxing and v < best:
            best, beta = v, min(beta, v)
        if alpha >= beta:
            break
    return best


def tightened(lo: int, hi: int, best: int, alpha: int, beta: int) -> tuple[int, int]:
    """A table entry's bounds (lo, hi) after a search in (alpha, beta) returned `best`."""
    if best <= alpha:
        return lo, min(hi, best)
    if best >= beta:
        return max(lo, best), hi
    return best, best

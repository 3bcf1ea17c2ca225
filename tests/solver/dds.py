"""The bridge double-dummy solver (DDS, through the `endplay` package) on a seven-courts
position: with a called trump all 13 tricks are played, so it is bridge play with a trump.
Seats in order of play are North, East, South, West."""
from __future__ import annotations

RANKS = "23456789TJQKA"


def to_endplay(deal):
    """The position as an endplay Deal: the remaining hands, the current trick played."""
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    hands = [set(h) for h in deal.hands]
    table = deal.slots[:deal.position]
    for p in table:
        hands[p[0]].add(p[1])

    def pbn(hand):
        return ".".join("".join(c.rank for c in sorted((c for c in hand if c.suit == s), key=lambda c: -c.strength))
                        for s in "SHDC")
    board = EDeal("N:" + " ".join(pbn(h) for h in hands))
    board.first = Player(deal.leader)
    board.trump = Denom("SHDC".index(deal.trump.suit))
    for p in table:
        board.play(p[1].suit + p[1].rank)
    return board


def dds_values(deal) -> dict[str, int]:
    """DDS's solve_board: the tricks the side to play takes with each legal card, by card text."""
    from endplay.dds import solve_board

    return {RANKS[c.rank.value.bit_length() - 3] + "SHDC"[c.suit.value]: v for c, v in solve_board(to_endplay(deal))}

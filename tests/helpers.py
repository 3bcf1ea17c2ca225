"""Compact ways to write concrete deals in tests."""
from __future__ import annotations

from referee.engine import adjudicate_dict

RANK_GROUPS = ("AKQJ", "T987", "6543")
ORDER = "SHDC"


def searching(**limits):
    """A settler that searches (perfect play for claims and the bell), within its own budget
    (`limits`: referee.budget.Limits fields, e.g. claim_nodes=5). Imported here: old code that
    test_revision_migration runs imports this module too."""
    from referee.budget import Budget, Limits

    return Budget(Limits(**limits)).settler()


def ev(text: str) -> list[dict]:
    """'1:KH 2:AH 3:3S 0:5H' -> play events; '2:?' reveal, '2:<' take back, '0:3H_' face down."""
    out = []
    for token in text.split():
        seat, what = token.split(":")
        if what == "?":
            out.append({"seat": int(seat), "reveal": True})
        elif what == "<":
            out.append({"seat": int(seat), "take_back": True})
        elif what.endswith("_"):
            out.append({"seat": int(seat), "play": what[:-1], "face_down": True})
        else:
            out.append({"seat": int(seat), "play": what})
    return out


def script(leader: int, winners: list[int], suits: str = ORDER, by_rank: bool = False,
           last: int | None = None) -> list[dict]:
    """A full 13-trick deal where trick k is won by winners[k] (12 given; the 13th
    goes to the winner of the 12th, or to `last`, who trumps with the 2 of suits[0]).
    Tricks are single-suit, three per suit in the order `suits`; the last trick is the
    four 2s, led by the 12th trick's winner."""
    assert len(winners) == 12
    events = []
    for k, winner in enumerate(winners):
        suit = suits[k % 4] if by_rank else suits[k // 3]
        ranks = list(RANK_GROUPS[k // 4 if by_rank else k % 3])
        seats = [(leader + j) % 4 for j in range(4)]
        others = [r for r in ranks[1:]]
        for seat in seats:
            rank = ranks[0] if seat == winner else others.pop()
            events.append({"seat": seat, "play": rank + suit})
        leader = winner
    twos = [s for s in suits]
    if last is not None and last != leader:  # the leader leads another 2; `last` trumps it
        twos.remove(suits[0])
        twos.insert((last - leader) % 4, suits[0])
    for j in range(4):
        events.append({"seat": (leader + j) % 4, "play": "2" + twos[j]})
    return events


def hands_for(events: list[dict]) -> list[list[str]]:
    """The hands that a full 13-trick event list was played from."""
    hands = [[], [], [], []]
    for e in events:
        if "play" in e:
            hands[e["seat"]].append(e["play"])
    return hands


def deal(dealer: int, events: list[dict], trump=None, hands=None) -> dict:
    d = {"dealer": dealer, "events": events}
    if trump is not None:
        d["trump"] = trump
    if hands is not None:
        d["hands"] = hands
    return d


def won_by(dealer: int, winners: list[int], trump="S", n: int | None = None, hands: bool = False,
           suits: str | None = None, by_rank: bool = False) -> dict:
    """A deal whose tricks go to `winners` in turn (padded with the last winner), cut after n
    tricks; 13 winners given: the 13th trick's winner too."""
    full = (winners + [winners[-1]] * 12)[:12]
    last = winners[12] if len(winners) == 13 else None
    events = script((dealer + 1) % 4, full, suits=suits or _suits(trump), by_rank=by_rank, last=last)
    cut = events[: 4 * (n if n is not None else len(winners))]
    return deal(dealer, cut, {"suit": trump}, hands_for(events) if hands else None)


def _suits(trump: str) -> str:
    return trump + "".join(s for s in ORDER if s != trump)


def verdict(preset: str, deals: list[dict], **options) -> dict:
    return adjudicate_dict({"preset": preset, "options": options, "deals": deals})


def team_tricks(seats_by_team: tuple[int, int], pattern: str) -> list[int]:
    """'0011' -> winners alternate per pattern: '0' a seat of team 0, '1' of team 1."""
    return [seats_by_team[int(ch)] for ch in pattern]


def round_robin_hands() -> list[list[str]]:
    """Seat s gets every fourth card of the ordered pack (2S 3S ... AS 2H ... AC).
    seat 0: 2S 6S TS AS 5H 9H KH 4D 8D QD 3C 7C JC
    seat 1: 3S 7S JS 2H 6H TH AH 5D 9D KD 4C 8C QC
    seat 2: 4S 8S QS 3H 7H JH 2D 6D TD AD 5C 9C KC
    seat 3: 5S 9S KS 4H 8H QH 3D 7D JD 2C 6C TC AC"""
    pack = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    return [pack[s::4] for s in range(4)]


def auth(key: str, etag: str | None = None) -> dict:
    """Headers of a request with a tournament key (and an ETag for If-Match)."""
    headers = {"Authorization": f"Bearer {key}"}
    if etag:
        headers["If-Match"] = etag
    return headers


def untricked(events: list[dict]) -> list[dict]:
    """The feed's events without its trick ledger (trick.finished, trick.revised), for tests
    about the deal, violation and match events."""
    return [e for e in events if not e["type"].startswith("trick.")]


def done_while_held(held, release, other) -> bool:
    """Run `other` (a callable) in a thread while the thread `held`, started, waits for the
    event `release`: True when `other` finished while `held` was still waiting. Both are
    joined before it returns."""
    import threading

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(20)
    meanwhile = not thread.is_alive() and held.is_alive()
    release.set()
    held.join(60)
    thread.join(60)
    return meanwhile

"""Any well-formed record, however impossible, gets a verdict: never an exception."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import DECK, PRESETS, adjudicate_dict
from referee.engine.simulate import deal_hands

cards = st.sampled_from([str(c) for c in DECK])
seats = st.integers(0, 3)
events = st.one_of(
    st.builds(lambda s, c: {"seat": s, "play": c}, seats, cards),
    st.builds(lambda s, c: {"seat": s, "play": c, "face_down": True}, seats, cards),
    st.builds(lambda s: {"seat": s, "reveal": True}, seats),
    st.builds(lambda s: {"seat": s, "take_back": True}, seats),
)
trumps = st.one_of(
    st.none(),
    st.builds(lambda c: {"suit": c[1]}, cards),
    st.builds(lambda c, s: {"suit": c[1], "by": s}, cards, seats),
    st.builds(lambda c: {"hidden": c}, cards),
    st.builds(lambda c: {"blind": c}, cards),
    st.just({"redeal": True}),
)
option_sets = st.fixed_dictionaries({}, optional={
    "illegal_play": st.sampled_from(["penalty", "reject"]),
    "trump": st.sampled_from(["called", "blind", "hidden", "first_void", "random", "band"]),
    "collection": st.sampled_from(["immediate", "pile"]),
    "scoring": st.sampled_from(["courts", "rr-courts", "points", "deal-courts", "tens"]),
    "play_on": st.booleans(),
    "hidden_caller_face_down": st.booleans(),
    "band_reveal": st.sampled_from(["auto_must_trump", "auto", "ask"]),
    "pass_once": st.booleans(),
    "weak_hand_redeal": st.booleans(),
    "target": st.one_of(st.none(), st.integers(1, 3)),
})


def deal_strategy():
    return st.builds(
        lambda dealer, trump, evs, seed, with_hands: {
            "dealer": dealer, "trump": trump, "events": evs,
            **({"hands": [[str(c) for c in h] for h in deal_hands(random.Random(seed))]} if with_hands else {}),
        },
        seats, trumps, st.lists(events, max_size=60), st.integers(0, 10**6), st.booleans(),
    )


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), option_sets, st.lists(deal_strategy(), max_size=3))
def test_random_records_always_get_a_verdict(preset, options, deals):
    verdict = adjudicate_dict({"preset": preset, "options": options, "deals": deals})
    assert isinstance(verdict["valid"], bool)
    assert len(verdict["deals"]) == len(deals)
    for e in verdict["errors"]:
        assert 0 <= e["deal"] < len(deals) and e["message"]


def _as_json(deal_record):
    out = []
    for e in deal_record.events:
        if e.kind == "play":
            out.append({"seat": e.seat, "play": str(e.card), **({"face_down": True} if e.face_down else {})})
        else:
            out.append({"seat": e.seat, e.kind: True})
    trump = deal_record.trump
    spec = {k: str(v) if hasattr(v, "rank") else v for k, v in
            (("suit", trump.suit), ("hidden", trump.hidden), ("blind", trump.blind)) if v is not None}
    return out, spec or None


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10**6), st.lists(
    st.tuples(st.sampled_from(["insert", "delete", "swap"]), st.integers(0, 80), events), max_size=6),
    st.booleans())
def test_mutated_legal_games_always_get_a_verdict(preset, seed, mutations, with_hands):
    from referee.engine import resolve
    from referee.engine.simulate import random_deal

    rng = random.Random(seed)
    record = random_deal(resolve(preset), rng.randrange(4), rng, illegal_rate=0.05)
    evs, trump = _as_json(record)
    for op, at, event in mutations:
        at = at % (len(evs) + 1)
        if op == "insert":
            evs.insert(at, event)
        elif op == "delete" and evs:
            evs.pop(at % len(evs))
        elif op == "swap" and len(evs) > 1:
            j = (at + 1) % len(evs)
            evs[at % len(evs)], evs[j] = evs[j], evs[at % len(evs)]
    deal = {"dealer": record.dealer, "trump": trump, "events": evs}
    if with_hands:
        deal["hands"] = [[str(c) for c in h] for h in record.hands]
    verdict = adjudicate_dict({"preset": preset, "deals": [deal]})
    assert len(verdict["deals"]) == 1

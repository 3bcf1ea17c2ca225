"""The feed's diff of a card makes no shown verdict of its live deal (issue 39, many tables):
its trick facts are read from the full verdict and its violations made alone, each exactly what
R-31's shown verdict says of them. Checked after every event of random deals: a hidden trump
laid face down, revealed or not, cards face down and taken back (tests/api/test_hiding_property's
play), and open trumps with illegal plays."""
import random

import pytest

from referee.engine import adjudicate_dict, resolve
from referee.engine.simulate import random_deal
from referee.store import feed
from referee.visibility import PublicView
from tests.api.test_hiding_property import extend, new_deal, stored


def same_as_shown(preset: str, deal: dict) -> tuple[bool, bool]:
    """Asserts the light facts of a one-deal record are the shown verdict's: (hidden, any violation)."""
    record = {"preset": preset, "players": list("ABCD"), "deals": [deal]}
    verdict = adjudicate_dict(record)
    light, shown = PublicView(record, verdict), PublicView(record, verdict)
    deal_shown = shown.verdict()["deals"][0]  # made first: shown.violations() then reads it
    assert light.violations() == shown.violations() == [(0, v) for v in deal_shown["violations"]]
    assert feed.trick_facts(light, {0}) == {
        (0, t["number"]): {"deal": 0, "trick": t["number"], **{k: t[k] for k in feed.TRICK_FIELDS},
                           "pile": t["pile_after"]} for t in deal_shown["tricks"]}
    assert light._verdict is None  # not made for them
    return light.hidden(0), bool(verdict["deals"][0]["violations"])


@pytest.mark.parametrize("preset", ["rr-hidden-rung", "hidden-rung"])
def test_a_hidden_trumps_deal_card_by_card(preset):
    seen = set()
    for seed in range(4):
        rng = random.Random(seed)
        deals = [new_deal(seed % 4, rng)]
        while extend(preset, deals, rng, 1):
            seen.add(same_as_shown(preset, stored(deals[0])))
    assert (True, True) in seen and (True, False) in seen  # live deals, with violations and without


@pytest.mark.parametrize("preset", ["court-piece", "rr-single-sir"])
def test_an_open_trumps_deal_with_illegal_plays_card_by_card(preset):
    options, seen = resolve(preset, {}), set()
    for seed in range(4):
        d = random_deal(options, seed % 4, random.Random(seed), illegal_rate=0.2)
        deal = {"dealer": d.dealer, "trump": {"suit": d.trump.suit}, "hands": [[str(c) for c in h] for h in d.hands]}
        events = [{"seat": e.seat, "play": str(e.card)} for e in d.events]
        for n in range(len(events) + 1):
            seen.add(same_as_shown(preset, {**deal, "events": events[:n]}))
    assert (True, True) in seen

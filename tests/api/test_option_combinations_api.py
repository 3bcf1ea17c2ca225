"""POST /v1/analysis and a disputed claim in POST /v1/verdicts under any combination of options
the API accepts (tests/solver/combos.py): never a 500. A perfect-play answer, or a problem a
client can read (a 4xx, a claim_unsettled verdict), whatever the house rules; a few examples a
run (REFEREE_COMBOS_EXAMPLES for more, drawn at random)."""
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import Deal, resolve
from referee.engine.playrecord import PLAY, REVEAL, Bid, Event
from referee.engine.simulate import choose_trump, deal_hands
from tests.api.spec import validate_response
from tests.solver.combos import option_sets

LONG = os.environ.get("REFEREE_COMBOS_EXAMPLES")
SETTINGS = settings(max_examples=int(LONG or 8), deadline=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def endgame(options, rng, plays):
    """A deal's record played at random (legal plays, reveals now and then) for `plays` cards
    or to its end, and the deal where it stops."""
    hands = deal_hands(rng)
    dealer = rng.randrange(4)
    bid = Bid(rng.randrange(4), rng.randint(7, 13)) if options.bidding else None
    trump = choose_trump(options, dealer, hands, rng, bid)
    deal = Deal(options, dealer, hands, trump, bid)
    events = []
    while len([e for e in events if "play" in e]) < plays:
        deal.finish()
        if deal.is_over:
            break
        seat = deal.to_play
        if deal.can_reveal() and rng.random() < 0.3:
            deal.push(Event(seat, REVEAL))
            events.append({"seat": seat, "reveal": True})
            continue
        card = rng.choice(deal.legal_plays())
        deal.push(Event(seat, PLAY, card))
        events.append({"seat": seat, "play": card.text})
    deal.finish()
    spec = {name: (value.text if hasattr(value, "text") else value) for name, value in trump._asdict().items()
            if value not in (None, False)}
    shown = {"dealer": dealer, "hands": [[c.text for c in h] for h in hands], "trump": spec or None, "events": events}
    if bid is not None:
        shown["bid"] = {"seat": bid.seat, "tricks": bid.tricks}
    return shown, deal


@SETTINGS
@given(combo=option_sets(), seed=st.integers(0, 2**32 - 1), plays=st.integers(36, 51),
       objective=st.sampled_from(["score", "tricks"]), n=st.integers(0, 13))
def test_analysis_and_a_disputed_claim_under_any_accepted_options_are_never_a_500(client, combo, seed, plays,
                                                                                  objective, n):
    preset, overrides, _ = combo
    analysis, verdict = post_both(client, preset, overrides, seed, plays, objective, n)
    assert analysis.status_code == 200, (analysis.status_code, analysis.get_json(), preset, overrides)
    validate_response(analysis, "/v1/analysis", "post")
    if verdict is None:
        return
    assert verdict.status_code == 200, (verdict.status_code, verdict.get_json(), preset, overrides)
    validate_response(verdict, "/v1/verdicts", "post")
    answer = verdict.get_json()
    assert answer["deals"][0].get("claim") is not None or "claim_unsettled" in str(answer), answer


def post_both(client, preset, overrides, seed, plays, objective="score", n=0):
    """The analysis of a random endgame and its verdict with a disputed claim of n there:
    both answers (the verdict's None when the deal ended first)."""
    shown, deal = endgame(resolve(preset, overrides), random.Random(seed), plays)
    record = {"preset": preset, "options": overrides, "deals": [shown]}
    analysis = client.post("/v1/analysis", json={"record": record, "deal": 0, "objective": objective})
    if deal.is_over:
        return analysis, None
    seat = deal.to_play
    shown["events"] += [{"seat": seat, "claim": min(n, deal.remaining())}, {"seat": (seat + 1) % 4, "dispute": True}]
    return analysis, client.post("/v1/verdicts", json=record)


@pytest.mark.parametrize("seed,plays", [(3, 47), (13, 45)])
def test_a_goon_court_of_any_courts_is_analysed_and_settled(client, seed, plays):
    """Double Sir with goon_court_courts 2**53 - 1 (accepted: any whole JSON number): the
    search's packed values could not hold the margin and the analysis or the claim's verdict
    answered 500 (driver: "no move keeps the value"). Now both answer, the claim settled."""
    analysis, verdict = post_both(client, "double-sir", {"goon_court_courts": 2**53 - 1}, seed, plays)
    assert analysis.status_code == 200 and verdict.status_code == 200
    assert verdict.get_json()["deals"][0]["claim"]["awarded"] is not None

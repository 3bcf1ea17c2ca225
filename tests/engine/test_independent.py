"""Random games checked against small, deliberately naive re-derivations written here,
never the engine's own functions: the trick winner, the pile, the next dealer, the streaks,
and what `next.legal` offers (each offered card is judged legal, each withheld one illegal)."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import PRESETS, Record, adjudicate, resolve
from referee.engine.playrecord import PLAY, Event
from referee.engine.simulate import random_deal, random_record

RANK = "23456789TJQKA"
# Every preset, and band trump in each of its three reveal variants.
GAMES = [(p, {}) for p in sorted(PRESETS)] + [
    ("mendikot", {"trump": "band", "band_reveal": r}) for r in ("auto_must_trump", "auto", "ask")] + [
    ("rr-single-sir", {"trump": "band", "band_reveal": r}) for r in ("auto_must_trump", "auto", "ask")] + [
    ("double-sir", {"pile_after_collect": "each_win"}), ("hidden-rung", {"pile_after_collect": "each_win"}),
    ("court-piece", {"dealer_rule": "rotate"}), ("double-sir", {"scoring": "deals"}),
    ("band-rang", {"trump": "hidden"}), ("court-piece", {"dealer_rule": "partner_on_callers_win"}),
    ("mendikot", {"mendikot_loser_deals": "partner"}), ("dehla-pakad", {"next_deal_from": "trump_setter"}),
    ("mendikot", {"tens_end": "settled"}), ("mendikot", {"trump": "band", "band_caller_reveals": False})]
games = st.sampled_from(GAMES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=150, deadline=None)


def record_of(preset, options, deals, seed):
    return random_record(preset, resolve(preset, options), deals, random.Random(seed), options)


def trump_from(deal: dict) -> tuple[str | None, int]:
    """The trump suit and the first event at which a card of it counts as a trump."""
    t = deal["trump"]
    if t["mode"] in ("hidden", "band"):
        return t["suit"], t["revealed"]["event"] if t["revealed"] else 10**9
    if t["mode"] == "first_void":
        return t["suit"], t["set"]["event"] if t["set"] else 10**9
    return t["suit"], 0


def naive_winner(cards: list[dict], trump: str | None, from_event: int) -> int:
    led = cards[0]["card"][1]
    face_up = [c for c in cards if not c.get("face_down")]
    trumps = [c for c in face_up if c["card"][1] == trump and c["event"] >= from_event]
    pool = trumps if trumps and trump != led else [c for c in face_up if c["card"][1] == led]
    return max(pool, key=lambda c: RANK.index(c["card"][0]))["seat"]


def naive_pile(tricks: list[dict], options, trump_event: int) -> list[int | None]:
    """Who collects after each trick (team or None), from the trick winners alone."""
    out, pile_run = [], None  # pile_run: (seat, trick number, won after trumps were known)
    hot = None  # each_win: the seat whose run has collected
    for t in tricks:
        n, seat = t["number"], t["winner"]
        win_event = next(c["event"] for c in t["cards"] if c["seat"] == seat)
        known = win_event >= trump_event
        pair = pile_run is not None and pile_run[0] == seat and pile_run[2] or hot == seat
        allowed = n not in options.pile_no_collect_after and (n != 2 or options.pile_first_pair_collects)
        if n == 13 or (pair and allowed):
            out.append(seat % 2)
            pile_run = None  # a new pile and a new run
            hot = seat if pair and options.pile_after_collect == "each_win" else None
        else:
            hot = hot if hot == seat else None
            out.append(None)
            pile_run = (seat, n, known)
    return out


COURTS = {"courts": {"court", "goon_court", "bavney", "penalty_court"},
          "rr-courts": {"court", "goon_court", "bavney", "penalty_court"},
          "points": {"court", "goon_court", "bavney", "penalty_court"},
          "deal-courts": {"court", "kot", "sweep", "penalty_court"},
          "tens": {"whitewash", "penalty_court"}, "deals": {"court", "goon_court", "bavney", "penalty_court"},
          "hokm": {"court", "goon_court", "bavney", "penalty_court"}}


def naive_next_dealer(deal: dict, options) -> int:
    dealer, result = deal["dealer"], deal["result"]
    setter = (deal["trump"].get("set") or {}).get("seat")
    if options.next_deal_from == "trump_setter" and setter is not None:
        leader = setter + 2 if setter % 2 == result["winner"] else setter + 1
        return (leader - 1) % 4      # the seat before the next leader, from the trump setter
    if options.dealer_rule == "rotate":
        return (dealer + 1) % 4      # dealer_rule rotate: one seat to the right, always
    callers = (dealer + 1) % 2
    if result["winner"] != callers:
        return (dealer + 1) % 4      # the dealer's team won: the next player deals
    if options.dealer_rule == "caller_stays":
        return dealer                # Hokm: the Hakem calls again
    if options.dealer_rule == "partner_on_callers_win" or options.mendikot_loser_deals == "partner":
        return (dealer + 2) % 4      # any callers' win: the dealer's partner
    if result["kind"] in COURTS[options.scoring]:
        return (dealer + 2) % 4      # the callers won with a court: the dealer's partner
    return dealer                    # the callers won: the same dealer


@SETTINGS
@given(games, seeds, st.booleans())
def test_trick_winners_pile_and_next_dealer_agree_with_naive_rules(game, seed, with_hands):
    """With the hands, and from the plays alone (a legal game reads the same both ways)."""
    preset, overrides = game
    options = resolve(preset, overrides)
    record = record_of(preset, overrides, 3, seed)
    if not with_hands:
        record = Record(preset=preset, options=overrides, deals=tuple(d._replace(hands=None) for d in record.deals))
    verdict = adjudicate(record)
    assert verdict["valid"], verdict["errors"]
    for index, deal in enumerate(verdict["deals"]):
        trump, from_event = trump_from(deal)
        for t in deal["tricks"]:
            assert t["winner"] == naive_winner(t["cards"], trump, from_event), (index, t)
        if options.collection == "pile":
            assert [t["collected_by"] for t in deal["tricks"]] == naive_pile(deal["tricks"], options, from_event)
        else:
            assert all(t["collected_by"] == t["winner"] % 2 for t in deal["tricks"])
        assert deal["next_dealer"] == naive_next_dealer(deal, options)
        if index + 1 < len(verdict["deals"]):
            assert verdict["deals"][index + 1]["violations"] == []  # so no wrong_dealer either


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["court-piece", "rr-single-sir", "double-sir"]), seeds)
def test_streak_counts_agree_with_a_naive_count(preset, seed):
    verdict = adjudicate(record_of(preset, {}, 12, seed))
    streak = [0, 0]
    for deal in verdict["deals"]:
        r = deal["result"]
        if r["kind"] in COURTS["courts"]:
            expected_bonus, streak = False, [0, 0]
        else:
            streak[r["winner"]] += 1
            streak[1 - r["winner"]] = 0
            expected_bonus = streak[r["winner"]] == 7
            if expected_bonus:
                streak = [0, 0]
        assert r["streak_court"] == expected_bonus
    assert verdict["match"]["streak"] == streak


@settings(max_examples=200, deadline=None)
@given(games, seeds, st.integers(min_value=1, max_value=51))
def test_next_legal_offers_exactly_the_cards_judged_legal(game, seed, stop_after):
    """Play each card of the hand at a random moment: an offered card makes no violation
    and no record error; a withheld one makes an illegal-play violation (or a record error)."""
    preset, overrides = game
    options = resolve(preset, overrides)
    prefix = random_deal(options, 2, random.Random(seed), stop_after=stop_after)
    base = Record(preset=preset, options=overrides, deals=(prefix,))
    before = adjudicate(base)
    nxt = before["next"]
    if before["deals"][0]["status"] != "in_progress" or nxt["legal"] is None:
        return
    seat = nxt["to_play"]
    played = {e.card for e in prefix.events if e.kind == PLAY}
    hand = [c for c in prefix.hands[seat] if c not in played]
    at = len(prefix.events)
    for card in hand:
        rec = Record(preset=preset, options=overrides,
                     deals=(prefix._replace(events=prefix.events + (Event(seat, PLAY, card),)),))
        v = adjudicate(rec)
        breaches = [x for x in v["deals"][0]["violations"] if x["event"] == at]
        legal = v["valid"] and not breaches
        assert legal == (str(card) in nxt["legal"]), (str(card), nxt["legal"], breaches, v["errors"])


def test_the_random_games_include_the_caller_playing_the_face_down_card_in_every_band_mode():
    """The games above would not exercise R-23 if the caller never played the band card."""
    for reveal in ("auto_must_trump", "auto", "ask"):
        options = {"trump": "band", "band_reveal": reveal}
        seen = 0
        for seed in range(60):
            rec = record_of("mendikot", options, 1, seed)
            deal = rec.deals[0]
            card = deal.trump.hidden
            seen += any(e.kind == PLAY and e.card is card for e in deal.events)
        assert seen > 10, reveal

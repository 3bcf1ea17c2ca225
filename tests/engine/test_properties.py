"""hypothesis plays many random legal games and checks the verdict's invariants."""
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import PRESETS, Deal, Event, Record, RecordError, adjudicate, resolve
from referee.engine.simulate import random_deal, random_record

presets = st.sampled_from(sorted(PRESETS))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=150, deadline=None)


def _check_trumps(deal: dict) -> None:
    """No card counts as a trump before trump is known; the winner is a trump or of the suit led."""
    trump = deal["trump"]
    known_from = 0
    if trump["mode"] in ("hidden", "band"):
        known_from = trump["revealed"]["event"] if trump["revealed"] else 10**9
    elif trump["mode"] == "first_void":
        known_from = trump["set"]["event"] if trump["set"] else 10**9
    for t in deal["tricks"]:
        led = t["cards"][0]["card"][1]
        for c in t["cards"]:
            if c.get("trump"):
                assert c["event"] >= known_from and c["card"][1] == trump["suit"]
        win = next(c for c in t["cards"] if c["seat"] == t["winner"])
        assert win.get("trump") or win["card"][1] == led


def without_hands(record: Record) -> Record:
    return replace(record, deals=tuple(d._replace(hands=None) for d in record.deals))


def cards_of(deal: dict) -> list[str]:
    return [c["card"] for t in deal["tricks"] for c in t["cards"]]


@SETTINGS
@given(presets, seeds)
def test_random_legal_games_are_valid_and_consistent(preset, seed):
    record = random_record(preset, resolve(preset), 3, random.Random(seed))
    verdict = adjudicate(record)
    assert verdict["valid"], verdict["errors"]
    courts, points = [0, 0], [0, 0]
    for deal in verdict["deals"]:
        assert deal["status"] == "complete" and deal["violations"] == []
        played = cards_of(deal)
        assert len(played) == len(set(played)) == 4 * len(deal["tricks"])
        assert sum(deal["tricks_won"]) + deal["pile"] == len(deal["tricks"])
        assert deal["pile"] == 0  # a finished deal leaves nothing in the centre
        assert [t["number"] for t in deal["tricks"]] == list(range(1, len(deal["tricks"]) + 1))
        for before, after in zip(deal["tricks"], deal["tricks"][1:]):
            assert after["leader"] == before["winner"]
        bidder = deal.get("bid", {}).get("seat")  # bidding games: the bidder calls and leads
        assert deal["tricks"][0]["leader"] == deal["caller"] == (bidder if bidder is not None else (deal["dealer"] + 1) % 4)
        result = deal["result"]
        if "tens" in result:
            assert sum(result["tens"]) == 4  # every ten is accounted for
        _check_trumps(deal)
        if result["kind"] not in ("mendi", "mendikot", "penalty_court", "bid_made", "bid_failed", "deciding_pair",
                                  "no_pair", "last_trick"):
            assert deal["tricks_won"][result["winner"]] >= 7
        for team in (0, 1):
            courts[team] += result["courts"][team]
            points[team] += result["points"][team]
    assert verdict["match"]["courts"] == courts and verdict["match"]["points"] == points


@SETTINGS
@given(presets, seeds)
def test_the_deal_ends_exactly_when_the_rules_say(preset, seed):
    options = resolve(preset)
    record = Record(preset=preset, deals=(random_deal(options, 0, random.Random(seed)),))
    deal = adjudicate(record)["deals"][0]
    n = len(deal["tricks"])
    won = deal["tricks_won"]
    if options.end == "thirteen":
        assert n == 13
    elif options.end == "pair":  # the first deciding pair, or trick 13 (end.deciding-pair)
        assert n == 13 or deal["result"]["pair"] == [n - 1, n]
        if n < 13:
            shorter = adjudicate(_cut(record, 4 * (n - 1)))["deals"][0]
            assert shorter["status"] == "in_progress"
    elif options.end == "bid":  # made or out of reach, and not one trick earlier (end.bid)
        bid, bidders = deal["bid"]["tricks"], deal["caller"] % 2
        assert won[bidders] >= bid or won[1 - bidders] >= 14 - bid
        if n < 13:
            shorter = adjudicate(_cut(record, 4 * (n - 1)))["deals"][0]
            assert shorter["status"] == "in_progress"
    elif options.end == "pile":
        assert n == 13 or (max(won) >= 7 and min(won) >= 1)
        # not one trick earlier: replay the prefix
        if n < 13:
            shorter = adjudicate(_cut(record, 4 * (n - 1)))["deals"][0]
            assert shorter["status"] == "in_progress"
    else:
        court = won in ([7, 0], [0, 7]) or max(won) == 13
        assert max(won) == 7 or (court and options.play_on)
        if not options.play_on or not court:
            assert n == sum(won) and max(won) == 7


def _cut(record: Record, events: int) -> Record:
    deal = record.deals[0]
    plays = [e for e in deal.events]
    return replace(record, deals=(deal._replace(events=tuple(plays[:events])),))


@SETTINGS
@given(presets, seeds)
def test_replay_is_deterministic_and_hands_do_not_change_a_legal_game(preset, seed):
    record = random_record(preset, resolve(preset), 2, random.Random(seed))
    first, second = adjudicate(record), adjudicate(record)
    assert first == second
    blind = adjudicate(without_hands(record))
    assert blind["valid"]
    for a, b in zip(first["deals"], blind["deals"]):
        assert a["tricks"] == b["tricks"] and a["result"] == b["result"]
        assert b["violations"] == []


@SETTINGS
@given(presets, seeds, st.integers(min_value=0, max_value=51))
def test_an_unfinished_record_says_who_plays_next_and_the_card_played_was_legal(preset, seed, cut):
    options = resolve(preset)
    full = random_deal(options, 1, random.Random(seed))
    plays = [i for i, e in enumerate(full.events) if e.kind == "play"]
    if cut >= len(plays):
        return
    at = plays[cut]
    prefix = full._replace(events=full.events[:at])
    verdict = adjudicate(Record(preset=preset, deals=(prefix,)))
    nxt = verdict["next"]
    if verdict["deals"][0]["status"] != "in_progress":
        return
    event = full.events[at]
    assert nxt["to_play"] == event.seat
    assert str(event.card) in nxt["legal"]
    # The same prefix without hands has no legal list but the same seat to play.
    blind = adjudicate(Record(preset=preset, deals=(prefix._replace(hands=None),)))
    assert blind["next"]["to_play"] == event.seat and blind["next"]["legal"] is None


@SETTINGS
@given(presets, seeds)
def test_random_illegal_plays_end_the_deal_at_the_first_uncorrected_one(preset, seed):
    options = resolve(preset)
    deal_record = random_deal(options, 2, random.Random(seed), illegal_rate=0.08)
    verdict = adjudicate(Record(preset=preset, deals=(deal_record,)))
    assert verdict["valid"], verdict["errors"]  # illegal plays are violations, not record errors
    deal = verdict["deals"][0]
    illegal = [v for v in deal["violations"] if v["code"] != "wrong_caller"]
    deciding = [v for v in illegal if v["penalty"]]
    if not illegal:
        assert deal["status"] == "complete"
        return
    assert len(deciding) == 1
    first = deciding[0]
    assert first == min(illegal, key=lambda v: (v["trick"], v["event"]))
    assert deal["status"] == "ended_by_penalty" and len(deal["tricks"]) == first["trick"]
    assert deal["result"]["kind"] == "penalty_court"
    assert deal["result"]["winner"] == 1 - first["seat"] % 2
    assert all(e > first["event"] for e in deal["ignored_events"])
    # Under `reject` the same record is invalid at that very event.
    rejected = adjudicate(Record(preset=preset, options={"illegal_play": "reject"}, deals=(deal_record,)))
    assert rejected["errors"][0]["code"] == "illegal_play"
    assert rejected["errors"][0]["event"] == min(v["event"] for v in illegal)


def _replayed(options, rec, one_by_one: bool):
    deal = Deal(options, rec.dealer, rec.hands, rec.trump, rec.bid)
    error = None
    try:
        if one_by_one:
            for event in rec.events:
                deal.push(event)
        else:
            deal.push_all(rec.events)
    except RecordError as exc:
        error = (exc.code, exc.event)
    deal.finish()
    table = [None if p is None else tuple(p) for p in deal.slots]
    return deal, ([t.as_dict() for t in deal.tricks], [v.as_dict() for v in deal.violations], deal.unproven(),
                  deal.facts(deal.penalty()), table, deal.to_play, deal.legal_plays(), error)


# (where, what, whose): whose -1 / -2 is the player of the card one / two events before
# (a take-back mostly undoes one of those).
extra_events = st.lists(st.tuples(st.integers(0, 60), st.sampled_from(["take_back", "reveal", "face_down"]),
                                   st.integers(-2, 3)), max_size=5)


@settings(max_examples=400, deadline=None)
@given(presets, seeds, st.booleans(), st.integers(min_value=1, max_value=60), extra_events)
def test_the_fast_path_judges_exactly_as_the_full_rules(preset, seed, with_hands, stop_after, extra):
    """push_all places plain plays directly; pushing the same events one by one through
    the full rules must give the same tricks, violations, facts and table, also with
    take-backs, reveals and face-down plays slipped in (legal or not)."""
    options = resolve(preset)
    rec = random_deal(options, 3, random.Random(seed), illegal_rate=0.1, stop_after=stop_after)
    events = list(rec.events)
    for at, kind, seat in extra:
        at = at % (len(events) + 1)
        if kind == "face_down":
            if at < len(events) and events[at].kind == "play":
                events[at] = events[at]._replace(face_down=True)
        else:
            events.insert(at, Event(events[at + seat].seat if 0 <= at + seat < at else seat % 4, kind))
    rec = rec._replace(events=tuple(events), hands=rec.hands if with_hands else None)
    (deal, fast), (_, full) = _replayed(options, rec, False), _replayed(options, rec, True)
    assert fast == full
    # Named views of the stored plays agree with the raw tuples.
    for trick in deal.tricks:
        assert [(p.seat, p.card, p.event, p.face_down, p.trump) for p in trick.cards] == [tuple(p) for p in trick.plays]

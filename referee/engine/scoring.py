"""Results of a deal, the scoring systems (docs/rules.md: option.scoring, end.*, score.*) and
the next dealer (dealer.*). Each value of the option `scoring` is a class (`SCORINGS`) that the
options ask (`options.scores`: what ends a deal, what the target counts, which options act),
never its name; this module takes the options untyped, as collection.py and trump_modes.py do,
since options.py imports it."""
from __future__ import annotations

from typing import NamedTuple

COURT_KINDS = frozenset({"court", "goon_court", "bavney", "penalty_court"})


class Facts(NamedTuple):
    """What happened in a finished deal, before any scoring system looks at it."""

    callers: int
    tricks: tuple[int, int]
    first_seven: int | None = None  # team that won the first 7 tricks straight
    sweep: int | None = None        # team that took all 13
    penalty: int | None = None      # offended team of an R-1 penalty
    tens: tuple[int, int] = (0, 0)
    bid: int | None = None          # the tricks the callers bid (record.bid)
    decided: tuple | None = None    # Band Rang: (team, kind, pair) of end.deciding-pair


class Result(NamedTuple):
    winner: int
    kind: str
    courts: tuple[int, int]
    points: tuple[int, int]
    streak_court: bool = False
    tens: tuple[int, int] | None = None
    rule: tuple[str, ...] = ()  # the rulebook ids that decided kind, courts and points
    pair: list[int] | None = None  # Band Rang: the deciding pair's trick numbers

    def as_dict(self) -> dict:
        data = {
            "winner": self.winner, "kind": self.kind, "courts": list(self.courts),
            "points": list(self.points), "streak_court": self.streak_court,
        }
        if self.tens is not None:
            data["tens"] = list(self.tens)
        if self.pair is not None:
            data["pair"] = self.pair
        data["rule"] = list(self.rule)
        return data

    def with_bonus(self, courts: int, points: int) -> "Result":
        c, p = list(self.courts), list(self.points)
        c[self.winner] += courts
        p[self.winner] += points
        return self._replace(courts=tuple(c), points=tuple(p), streak_court=True, rule=self.rule + ("streak.seven",))

    def citing(self, *rules: str) -> "Result":
        return self._replace(rule=tuple(dict.fromkeys(rules)))


# How each kind of result came about (the scoring system's own rule is added to it).
KIND_RULES = {
    "win": ("end.seven",), "court": ("end.court",), "goon_court": ("end.court",),
    "bavney": ("end.bavney", "R-24"), "penalty_court": ("revoke.penalty", "R-1"),
    "sweep": ("R-17",), "kot": ("R-17",), "mendi": ("mendikot.tens",), "mendikot": ("mendikot.tens",),
    "whitewash": ("mendikot.tens",), "bid_made": ("end.bid",), "bid_failed": ("end.bid",),
    "deciding_pair": ("end.deciding-pair",), "no_pair": ("end.deciding-pair",), "last_trick": ("end.deciding-pair",),
}


SCORING_RULES = {"courts": "score.courts", "rr-courts": "score.rr-courts", "points": "score.points",
                 "deal-courts": "score.deal-courts", "tens": "score.tens", "deals": "score.deals",
                 "bid-penalty": "score.bid-penalty", "hokm": "score.hokm"}


def _award(team: int, value: int) -> tuple[int, int]:
    return (value, 0) if team == 0 else (0, value)


def _trick_winner(facts: Facts) -> int:
    return 0 if facts.tricks[0] > facts.tricks[1] else 1


class Scoring:
    """A scoring system as the options ask it, of the class (`options.scores`). Its answers,
    defaults here:

      acting          the options that decide something under it, of those that act under some
                      scorings only (options.py's ACTS_WHEN; any other is option.no-effect);
                      the tens are counted where `tens_end` acts (options.counts_tens, tens.py)
      plays_thirteen  all 13 tricks are played (end.thirteen)
      bidding         each deal records its winning bid, which ends it (end.bid, record.bid)
      target_points   the match target counts points, not courts
      rr_target       an rr-* preset's target under it when the record gives none (None: the preset's)

    An instance scores a match's deals: `score`, `court_kinds`, `has_streaks`, `dealer_rules`."""

    acting: frozenset[str] = frozenset()
    plays_thirteen = False
    bidding = False
    target_points = True
    rr_target: int | None = None
    court_kinds: frozenset = frozenset()
    dealer_rules: tuple[str, ...] = ("dealer.next",)

    def __init__(self, options):
        self.o = options

    @property
    def has_streaks(self) -> bool:
        """Seven deals in a row score (R-5, R-19): where a streak option acts, as `acting` says."""
        return bool(self.acting & {"streak_courts", "streak_points"})


class CourtKindScoring(Scoring):
    """What courts, rr-courts, points, deals and hokm share: the kind of a deal's result
    (`kind`: a win, a court, a goon court, a bavney, a penalty court), its courts
    (`court_value`) and the rules that name it (`cite`); each scores the kind its own way."""

    court_kinds = COURT_KINDS | {"kot", "sweep"}

    def __init__(self, options):
        super().__init__(options)
        self.rule = SCORING_RULES[options.scoring]

    def kind(self, facts: Facts) -> tuple[int, str]:
        if facts.penalty is not None:
            return facts.penalty, "penalty_court"
        winner = _trick_winner(facts)
        if facts.sweep == winner and self.o.play_on and self.o.end == "seven":
            return winner, "bavney"
        if facts.first_seven == winner and self.o.end != "pile" or facts.sweep == winner and self.o.end == "pile":
            return winner, "court" if winner == facts.callers else "goon_court"
        return winner, "win"

    def court_value(self, kind: str) -> int:
        return {"court": 1, "penalty_court": 1, "goon_court": self.o.goon_court_courts,
                "bavney": self.o.bavney_courts}.get(kind, 0)

    def cite(self, kind: str) -> tuple[str, ...]:
        own = KIND_RULES[kind]
        if kind == "win" and self.o.end == "pile":
            own = ("end.pile",)
        elif kind in ("court", "goon_court") and self.o.end == "pile":
            own = ("end.pile", "end.court")
        return own + (self.rule,) + self.also_cites(kind)

    def also_cites(self, kind: str) -> tuple[str, ...]:
        """The rules a scoring of its own cites after its `rule` (none here)."""
        return ()


class CourtsScoring(CourtKindScoring):
    """`courts` and `rr-courts`: only courts count; seven in a row is a court."""

    acting = frozenset({"goon_court_courts", "bavney_courts", "streak_courts"})
    target_points = False
    rr_target = 3  # an rr-* game scored in courts plays to 3 courts

    def score(self, facts: Facts) -> Result:
        winner, kind = self.kind(facts)
        return Result(winner, kind, _award(winner, self.court_value(kind)), (0, 0), rule=self.cite(kind))

    def also_cites(self, kind: str) -> tuple[str, ...]:
        return ("R-24",) if self.o.scoring == "rr-courts" else ()  # rr-courts scores as courts

    def streak_bonus(self) -> tuple[int, int]:
        return self.o.streak_courts, 0


class PointsScoring(CourtKindScoring):
    """`points`: callers 1 / defenders 2 for a win, 3 / 4 for a court; seven in a row +2."""

    acting = frozenset({"goon_court_courts", "bavney_courts", "streak_points"})

    def score(self, facts: Facts) -> Result:
        winner, kind = self.kind(facts)
        callers = winner == facts.callers
        if kind == "win":
            points = 1 if callers else 2
        else:  # every court kind, bavney and the penalty court
            points = 3 if callers else 4
        return Result(winner, kind, _award(winner, self.court_value(kind)), _award(winner, points), rule=self.cite(kind))

    def also_cites(self, kind: str) -> tuple[str, ...]:
        return ("R-16",) if kind != "win" else ()  # its courts counted under points too

    def streak_bonus(self) -> tuple[int, int]:
        return 0, self.o.streak_points


class DealsScoring(CourtKindScoring):
    """`deals`: a point for each deal won, whatever its kind; no courts, no streaks (score.deals)."""

    def score(self, facts: Facts) -> Result:
        if facts.decided is not None and facts.penalty is None:
            winner, kind, pair = facts.decided
        else:
            (winner, kind), pair = self.kind(facts), None
        return Result(winner, kind, (0, 0), _award(winner, 1), rule=self.cite(kind), pair=pair)


class HokmScoring(CourtKindScoring):
    """`hokm`: a deal won 1 point, a kot (the callers' court) 2, a Hakem kot (the goon court) 3;
    no streaks (score.hokm). A revoke penalty is the offended team's court (R-1); a bavney,
    with play_on, its court."""

    def score(self, facts: Facts) -> Result:
        winner, kind = self.kind(facts)
        points = 1 if kind == "win" else 2 if winner == facts.callers else 3
        return Result(winner, kind, (0, 0), _award(winner, points), rule=self.cite(kind))


class BidPenaltyScoring(Scoring):
    """`bid-penalty`: made, the other team gets the bid in penalty points; failed, the bidders
    twice the bid (score.bid-penalty). A revoke penalty makes or breaks the bid for the
    offended team (R-1)."""

    bidding = True

    def score(self, facts: Facts) -> Result:
        callers, n = facts.callers, facts.bid
        if facts.penalty is not None:
            made, kind, why = facts.penalty == callers, "penalty_court", ("revoke.penalty", "R-1")
        else:
            made = facts.tricks[callers] >= n
            kind, why = "bid_made" if made else "bid_failed", KIND_RULES["bid_made"]
        winner = callers if made else 1 - callers
        points = _award(1 - callers, n) if made else _award(callers, 2 * n)
        return Result(winner, kind, (0, 0), points, rule=why + ("score.bid-penalty",))


class DealCourtsScoring(Scoring):
    """`deal-courts`: a court for every deal won; sweep 2; kot 2 (score.deal-courts, R-17)."""

    acting = frozenset({"kot", "defenders_double"})
    plays_thirteen = True
    target_points = False
    court_kinds = frozenset({"court", "kot", "sweep", "penalty_court"})
    dealer_rules = ("dealer.next", "R-17", "R-24")

    def score(self, facts: Facts) -> Result:
        result = self._score(facts)
        piled = self.o.collects.score_rules(result.kind)
        return result.citing(*KIND_RULES.get(result.kind, ("end.thirteen",)), "score.deal-courts", "R-17", *piled)

    def _score(self, facts: Facts) -> Result:
        if facts.penalty is not None:
            return Result(facts.penalty, "penalty_court", _award(facts.penalty, 1), (0, 0))
        winner = _trick_winner(facts)
        callers = winner == facts.callers
        # with a pile, seven collected first is a kot at most, never a court
        first_seven = self.o.collects.first_seven_scores(facts.first_seven, self.o.kot and callers)
        if facts.sweep == winner:
            kind, value = "sweep", 2
        elif first_seven == winner and callers:
            kind, value = ("kot", 2) if self.o.kot else ("court", 1)
        elif first_seven == winner:
            kind, value = "goon_court", 2 if self.o.defenders_double else 1
        else:
            kind, value = "win", 1 if callers or not self.o.defenders_double else 2
        return Result(winner, kind, _award(winner, value), (0, 0))


class TensScoring(Scoring):
    """`tens` (Mendikot, §9): 3 tens mendi 1, 4 tens mendikot 2, all 13 tricks whitewash 3;
    its own dealer rule (mendikot_loser_deals, with dealer_rule result: next_dealer)."""

    acting = frozenset({"tens_end", "mendikot_loser_deals"})
    plays_thirteen = True
    court_kinds = frozenset({"whitewash", "penalty_court"})
    dealer_rules = ("dealer.mendikot", "R-18")

    def score(self, facts: Facts) -> Result:
        tens = facts.tens
        if facts.penalty is not None:  # a penalty counts as a whitewash
            return Result(facts.penalty, "penalty_court", (0, 0), _award(facts.penalty, 3), tens=tens,
                          rule=("revoke.penalty", "R-1", "score.tens", "R-25"))
        if tens[0] != tens[1]:
            winner = 0 if tens[0] > tens[1] else 1
        else:
            winner = _trick_winner(facts)
        if facts.sweep == winner:
            kind, points = "whitewash", 3
        elif tens[winner] == 4:
            kind, points = "mendikot", 2
        elif tens[winner] == 3:
            kind, points = "mendi", 1
        else:
            kind, points = "win", 0
        decided = ("R-18",) if tens[0] == tens[1] else ("mendikot.tens",)
        settled = ("end.tens-settled",) if self.o.tens_settled else ()
        return Result(winner, kind, (0, 0), _award(winner, points), tens=tens,
                      rule=decided + settled + ("score.tens",))


# option.scoring's values, each its class
SCORINGS = {"courts": CourtsScoring, "rr-courts": CourtsScoring, "points": PointsScoring,
            "deal-courts": DealCourtsScoring, "tens": TensScoring, "deals": DealsScoring,
            "bid-penalty": BidPenaltyScoring, "hokm": HokmScoring}


def make_scoring(options):
    """A match's scoring under the options."""
    return options.scores(options)


# dealer_rule values other than result and rotate: the rule each applies when the callers win
_CALLERS_WIN = {"caller_stays": (0, "dealer.caller-stays"), "partner_on_callers_win": (2, "dealer.partner-on-callers-win")}


def next_dealer(options, dealer: int, callers: int, result: Result, court_kinds,
                setter: int | None = None) -> tuple[int, str]:
    """§8: defenders win -> the dealer's right; callers win -> same dealer, or the
    dealer's partner after a court (Mendikot: after a whitewash). With the rule id.
    Under `dealer_rule: rotate` the deal passes to the right whatever the result; the other
    dealer rules, `mendikot_loser_deals` and `next_deal_from` say who deals after a callers'
    win, or from the trump setter (`setter`, first_void)."""
    if options.next_deal_from == "trump_setter" and setter is not None:
        leader = (setter + 2) % 4 if setter % 2 == result.winner else (setter + 1) % 4
        return (leader + 3) % 4, "dealer.trump-setter"
    if options.dealer_rule == "rotate":
        return (dealer + 1) % 4, "dealer.rotate"
    rule = _CALLERS_WIN.get(options.dealer_rule)
    if result.winner != callers:
        return (dealer + 1) % 4, rule[1] if rule else "dealer.defenders-win"
    if rule is None and options.mendikot_loser_deals == "partner":
        rule = 2, "dealer.mendikot-partner"
    if rule is not None:
        return (dealer + rule[0]) % 4, rule[1]
    if result.kind in court_kinds:
        return (dealer + 2) % 4, "dealer.callers-court"
    return dealer, "dealer.callers-win"

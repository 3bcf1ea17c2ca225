"""Options and presets (rulebook sections 10, 11). A preset is data: a set of option values;
what each preset and option means is in the rulebook (`preset.<name>`, `option.<name>`)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any

from .collection import COLLECTIONS
from .errors import OptionError, did_you_mean, shown
from .scoring import SCORINGS as SCORING_SYSTEMS
from .trump_modes import MODES

TRUMP_MODES = tuple(MODES)  # option.trump's values
SCORINGS = tuple(SCORING_SYSTEMS)  # option.scoring's values
ILLEGAL_PLAY = ("penalty", "reject")
BAND_REVEALS = ("auto_must_trump", "auto", "ask")
PILE_AFTER_COLLECT = ("new_run", "each_win")
DEALER_RULES = ("result", "rotate", "caller_stays", "partner_on_callers_win")
MENDIKOT_LOSER_DEALS = ("same", "partner")
NEXT_DEAL_FROM = ("dealer", "trump_setter")
TENS_END = ("all_tricks", "settled")
ACE_NO_SEAL = ("none", "trump", "any")
ABANDONED_DEAL = ("abandon", "perfect_play")


@dataclass(frozen=True)
class Options:
    trump: str = "called"
    collection: str = "immediate"
    scoring: str = "courts"
    target: int | None = None
    play_on: bool = False
    bavney_courts: int = 52
    goon_court_courts: int = 1
    streak_courts: int = 1
    streak_points: int = 2
    illegal_play: str = "penalty"
    weak_hand_redeal: bool = False
    hidden_caller_face_down: bool = False
    band_reveal: str = "auto_must_trump"
    pass_once: bool = False
    pile_first_pair_collects: bool = True
    pile_no_collect_after: tuple[int, ...] = ()
    pile_ace_on_ace: bool = False
    pile_ace_no_seal: str = "none"
    kot: bool = False
    defenders_double: bool = False
    pile_after_collect: str = "new_run"
    dealer_rule: str = "result"
    deciding_pair: bool = False
    deciding_pair_ace_rule: bool = False
    abandoned_deal: str = "abandon"
    mendikot_loser_deals: str = "same"
    next_deal_from: str = "dealer"
    tens_end: str = "all_tricks"
    band_caller_reveals: bool = True

    @property
    def end(self) -> str:
        """How a deal ends: derived from scoring and collection (end.seven, end.pile, end.thirteen,
        end.bid), or Band Rang's first deciding pair (end.deciding-pair)."""
        if self.deciding_pair:
            return "pair"
        if self.scores.plays_thirteen:
            return "thirteen"
        if self.bidding:
            return "bid"
        return "pile" if self.collects.piles else "seven"

    @property
    def collects(self):
        """The collection the rules ask (collection.py: `Immediate`, or pile.py's `Pile`)."""
        return COLLECTIONS[self.collection]

    @property
    def scores(self):
        """The scoring system the rules ask (scoring.py's class for `scoring`)."""
        return SCORING_SYSTEMS[self.scoring]

    def trump_mode(self, name: str | None = None):
        """The trump mode the rules ask (trump_modes.py), of the options' `trump` or of `name`
        (a deal's own: a called game's record may turn up a blind trump)."""
        return MODES[self.trump if name is None else name](self)

    @staticmethod
    def mode_named(name: str):
        """Trump mode `name` under the default options: for what a mode says whatever the
        options it reads (concealed, set_by_void), as a verdict's trump names its mode."""
        return Options().trump_mode(name)

    @property
    def bidding(self) -> bool:
        """Each deal records its winning bid (record.bid): the bid-penalty game."""
        return self.scores.bidding

    @property
    def counts_tens(self) -> bool:
        """The tens are counted (scoring tens: Mendikot, Dehla Pakad; tens.py): where the option
        that ends a deal on them, `tens_end`, acts."""
        return "tens_end" in self.scores.acting

    @property
    def tens_settled(self) -> bool:
        """A tens game ends once its result cannot change (end.tens-settled; tens.py)."""
        return self.tens_end == "settled" and self.counts_tens

    @property
    def target_is_points(self) -> bool:
        return self.scores.target_points

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["pile_no_collect_after"] = list(self.pile_no_collect_after)
        return data


_RR = dict(scoring="points", target=10, goon_court_courts=3)

PRESETS: dict[str, dict[str, Any]] = {
    "court-piece": dict(play_on=True),
    "double-sir": dict(collection="pile", goon_court_courts=3),
    "hidden-rung": dict(
        trump="hidden", hidden_caller_face_down=True, collection="pile",
        goon_court_courts=3, pile_no_collect_after=(1, 2, 12),
    ),
    "be-ranga-double-sar": dict(trump="first_void", collection="pile", goon_court_courts=3),
    "rr-single-sir": dict(_RR, pass_once=True),
    "rr-double-sir": dict(_RR, pass_once=True, collection="pile"),
    "rr-hidden-rung": dict(_RR, trump="hidden"),
    "rr-be-ranga": dict(_RR, trump="first_void"),
    "mendikot": dict(trump="first_void", scoring="tens", target=5),
    "dehla-pakad": dict(trump="first_void", collection="pile", scoring="tens", target=5),
    "seven-courts": dict(scoring="deal-courts", target=7),
    "bid-double-sir": dict(collection="pile", pile_after_collect="each_win", scoring="bid-penalty", target=53,
                           dealer_rule="rotate"),
    "band-rang": dict(deciding_pair=True, deciding_pair_ace_rule=True, scoring="deals"),
    "hokm": dict(scoring="hokm", target=7, dealer_rule="caller_stays"),
}

CHOICES = {
    "trump": TRUMP_MODES, "collection": tuple(COLLECTIONS), "scoring": SCORINGS,
    "illegal_play": ILLEGAL_PLAY, "band_reveal": BAND_REVEALS, "pile_ace_no_seal": ACE_NO_SEAL,
    "pile_after_collect": PILE_AFTER_COLLECT, "dealer_rule": DEALER_RULES, "abandoned_deal": ABANDONED_DEAL,
    "mendikot_loser_deals": MENDIKOT_LOSER_DEALS, "next_deal_from": NEXT_DEAL_FROM, "tens_end": TENS_END,
}
_FIELD_TYPES = {f.name: f.type for f in fields(Options)}


MAX_WHOLE = 2 ** 53 - 1  # I-JSON (RFC 7493): larger numbers are not exact everywhere


def whole(value: Any) -> int | None:
    """JSON's idea of an integer: 3 or 3.0, never true/false, at most MAX_WHOLE in size."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and abs(value) <= MAX_WHOLE:
        return value
    return None


def _check_value(name: str, value: Any) -> Any:
    kind = _FIELD_TYPES[name]
    if name in CHOICES:
        if value not in CHOICES[name]:
            raise OptionError(f"option \"{name}\" must be one of {', '.join(CHOICES[name])}; got {shown(value)}", name)
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise OptionError(f"option \"{name}\" must be true or false; got {shown(value)}", name)
        return value
    if kind == "int":
        if whole(value) is None or whole(value) < 0:
            raise OptionError(f"option \"{name}\" must be a whole number 0..{MAX_WHOLE}; got {shown(value)}", name)
        return whole(value)
    if name == "target":
        if value is None:
            return None
        if whole(value) is None or whole(value) < 1:
            raise OptionError(f"option \"target\" must be a whole number 1..{MAX_WHOLE} or null; got {shown(value)}", name)
        return whole(value)
    # pile_no_collect_after
    numbers = [whole(v) for v in value] if isinstance(value, (list, tuple)) else [None]
    if not all(n is not None and 1 <= n <= 13 for n in numbers):
        raise OptionError(f"option \"{name}\" must be a list of trick numbers 1..13; got {shown(value)}", name)
    return tuple(sorted(set(numbers)))


@lru_cache(maxsize=None)
def preset_options(preset: str) -> Options:
    if preset not in PRESETS:
        raise OptionError(f"unknown preset {shown(preset)}{did_you_mean(preset, PRESETS)}; presets are "
                          f"{', '.join(PRESETS)}", None)
    return Options(**PRESETS[preset])


def resolve(preset: str, overrides: dict[str, Any] | None = None) -> Options:
    """The options in force: the preset's, then the record's overrides (house rules). The same
    overrides give the same options, kept (a verdict resolves them twice, for the replay and
    for its provenance, and a batch's records mostly share their house rules)."""
    if not overrides:
        return _plain(preset)
    key = _key(overrides)
    return _resolve(preset, overrides) if key is None else _resolved(preset, key)


def _key(value: Any, depth: int = 0) -> tuple | None:
    """A key of JSON overrides that tells their values' types apart (1, 1.0 and true are
    equal in Python, not as options); None for anything else, or nested deeper than an
    option's list in the overrides (resolved every time: such a value is refused anyway)."""
    kind = type(value)
    if kind is dict or kind is list or kind is tuple:
        if depth > 1:
            return None
        if kind is dict:
            items = [(name, _key(item, depth + 1)) for name, item in value.items()]
            return None if any(type(n) is not str or k is None for n, k in items) else (dict, tuple(items))
        items = [_key(item, depth + 1) for item in value]
        return None if None in items else (list, tuple(items))
    if kind in (str, int, float, bool) or value is None:
        return (kind, value)
    return None


def _value(key: tuple) -> Any:
    """The overrides a key was made of."""
    kind, value = key
    if kind is dict:
        return {name: _value(item) for name, item in value}
    if kind is list:
        return [_value(item) for item in value]
    return value


@lru_cache(maxsize=256)
def _resolved(preset: str, key: tuple) -> Options:
    return _resolve(preset, _value(key))


def _resolve(preset: str, overrides: dict[str, Any]) -> Options:
    options = preset_options(preset)
    checked = {}
    overrides = _unalias(overrides)
    for name, value in overrides.items():
        if name not in _FIELD_TYPES:
            raise OptionError(f"unknown option {shown(name)}{did_you_mean(name, _FIELD_TYPES)}", name)
        checked[name] = _check_value(name, value)
    options = replace(options, **checked)
    return _rr_target(preset, options, "target" in checked)


# Older spellings still accepted: name -> (the option it sets, its value for true and for false).
ALIASES = {"pile_trump_ace_no_seal": ("pile_ace_no_seal", "trump", "none")}


def _unalias(overrides: dict[str, Any]) -> dict[str, Any]:
    """Replace each alias by the option it spells; an alias contradicting that option is an error."""
    for alias in ALIASES.keys() & overrides.keys():
        name, if_true, if_false = ALIASES[alias]
        flag = overrides[alias]
        if not isinstance(flag, bool):
            raise OptionError(f"option \"{alias}\" must be true or false; got {shown(flag)}", alias)
        value = if_true if flag else if_false
        if name in overrides and _check_value(name, overrides[name]) != value:
            raise OptionError(f"option \"{alias}\": {shown(flag)} means \"{name}\": {shown(value)}, but "
                              f"\"{name}\" is {shown(overrides[name])}; give one of the two", alias)
        overrides = {**{k: v for k, v in overrides.items() if k != alias}, name: value}
    return overrides


def _rr_target(preset: str, options: Options, target_given: bool) -> Options:
    # An rr-* preset scored in courts plays to 3 courts unless the record sets a target.
    if preset.startswith("rr-") and options.scores.rr_target is not None and not target_given:
        options = replace(options, target=options.scores.rr_target)
    return options


@lru_cache(maxsize=None)
def _plain(preset: str) -> Options:
    return preset_options(preset)


_DEFAULTS = {**Options().as_dict(), "pile_no_collect_after": ()}
_PILE = (lambda o: o.collects.piles, "only collection pile has a pile")


def _acting(name: str, *also):
    """Whether option `name` decides something under the options' scoring (its `acting`) and
    the options pass the further tests `also`."""
    return lambda o: name in o.scores.acting and all(test(o) for test in also)


def _band(o: Options) -> bool:
    return o.trump_mode().band_form


def _scorings(name: str, last: str = "and") -> str:
    """The scorings under which option `name` acts, as a sentence names them."""
    names = [value for value, scoring in SCORING_SYSTEMS.items() if name in scoring.acting]
    return f"{', '.join(names[:-1])} {last} {names[-1]}" if len(names) > 1 else names[0]


NO_EFFECT = "option.no-effect"
# When each option decides something, and why it does not otherwise (NO_EFFECT).
ACTS_WHEN = {
    "kot": (_acting("kot"), f"only scoring {_scorings('kot')} has a kot"),
    "defenders_double": (_acting("defenders_double"),
                         f"only scoring {_scorings('defenders_double')} doubles a defenders' win"),
    "goon_court_courts": (_acting("goon_court_courts"),
                          f"only {_scorings('goon_court_courts')} scoring count a goon court's courts"),
    "streak_courts": (_acting("streak_courts"), f"only {_scorings('streak_courts')} scoring score a streak in courts"),
    "streak_points": (_acting("streak_points"), f"only {_scorings('streak_points')} scoring has a streak bonus in points"),
    "play_on": (lambda o: o.end == "seven", "only a deal that ends at seven tricks may be played on"),
    "bavney_courts": (_acting("bavney_courts", lambda o: o.play_on and o.end == "seven"),
                      "a bavney's courts count only with play_on, seven-trick deals and "
                      f"{_scorings('bavney_courts', 'or')} scoring"),
    "hidden_caller_face_down": (lambda o: o.trump_mode().hidden_form, "only a hidden trump's caller plays face down"),
    "band_reveal": (_band, "only a band trump has it"),
    "pile_first_pair_collects": _PILE, "pile_no_collect_after": _PILE, "pile_ace_on_ace": _PILE,
    "pile_ace_no_seal": _PILE, "pile_after_collect": _PILE,
    "deciding_pair_ace_rule": (lambda o: o.deciding_pair, "only deciding_pair has a deciding pair"),
    "mendikot_loser_deals": (_acting("mendikot_loser_deals", lambda o: o.dealer_rule == "result"),
                             f"it is Mendikot's dealer rule: scoring {_scorings('mendikot_loser_deals')} "
                             "with dealer_rule result"),
    "next_deal_from": (lambda o: o.trump_mode().set_by_void, "only a first_void trump has a trump setter"),
    "tens_end": (_acting("tens_end"), f"only {_scorings('tens_end')} scoring counts the tens"),
    "band_caller_reveals": (_band, "only a band trump's caller laid a closed trump"),
}


def effective(preset: str, overrides: dict[str, Any] | None = None) -> Options:
    """`resolve`, refusing an override that decides nothing under the other options
    (option.no-effect): set to anything but its default, it would be accepted and ignored.
    The check of a new record or tournament; a record accepted before is judged as it was."""
    options = resolve(preset, overrides)
    for name in overrides or {}:
        spelled = ALIASES[name][0] if name in ALIASES else name  # named as the record gives it
        if spelled in ACTS_WHEN:
            acts, why = ACTS_WHEN[spelled]
            if getattr(options, spelled) != _DEFAULTS[spelled] and not acts(options):
                raise OptionError(f"option \"{name}\" has no effect here: {why} ({NO_EFFECT})", name)
    return options

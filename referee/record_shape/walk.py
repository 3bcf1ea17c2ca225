"""The walk that checks a record's shape: every problem with its JSON pointer and a message in
the project's words ("required", "must be a seat 0..3", "unknown field"), and the record
cleaned (cards in their canonical spelling, defaults filled in)."""
from __future__ import annotations

from operator import itemgetter
from typing import Any

from referee.engine import DECK, PRESETS, resolve
from referee.engine.cards import SPELLINGS, parse_suit
from referee.engine.errors import InvalidCardError, OptionError, did_you_mean, shown
from referee.engine.options import effective, whole

SEAT = "must be a seat 0..3"


class RecordProblems(ValueError):
    """A body that is not a record: `problems` is a list of {"pointer", "detail"}."""

    def __init__(self, problems: list[dict]):
        super().__init__(f"{len(problems)} problem(s) in the record")
        self.problems = problems


class _Check:
    """Collects problems while walking a record."""

    def __init__(self) -> None:
        self.problems: list[dict] = []

    def fail(self, pointer: str, detail: str) -> None:
        self.problems.append({"pointer": pointer or "/", "detail": detail})

    def obj(self, data: Any, pointer: str, allowed: tuple[str, ...]) -> bool:
        if type(data) is not dict:
            self.fail(pointer, "must be an object")
            return False
        for key in data:
            if key not in allowed:
                self.fail(f"{pointer}/{_escape(key)}", "unknown field" + did_you_mean(key, allowed))
        return True

    def seat(self, value: Any, pointer: str) -> int | None:
        if type(value) is int and 0 <= value <= 3:
            return value
        n = whole(value)
        if n is None or not 0 <= n <= 3:
            self.fail(pointer, SEAT)
            return None
        return n

    def required_seat(self, data: dict, name: str, pointer: str, out: dict) -> None:
        if name not in data:
            self.fail(f"{pointer}/{name}", "required")
        else:
            out[name] = self.seat(data[name], f"{pointer}/{name}")

    def boolean(self, value: Any, pointer: str) -> bool | None:
        if type(value) is not bool:
            self.fail(pointer, "must be true or false")
            return None
        return value

    def card(self, value: Any, pointer: str) -> str | None:
        card = SPELLINGS.get(value) if type(value) is str else None
        if card is None:
            self.fail(pointer, f"not a card: {shown(value)} (expected rank then suit, e.g. \"TH\", \"10H\", \"A♠\")")
            return None
        return card.text

    def text(self, value: Any, pointer: str, most: int = 200) -> str | None:
        if type(value) is not str:
            self.fail(pointer, "must be a string")
        elif not 1 <= len(value) <= most:
            self.fail(pointer, f"must be 1 to {most} characters long")
        elif "\x00" in value:
            self.fail(pointer, "must not contain the NUL character")
        else:
            return value
        return None


# -- a record ------------------------------------------------------------------------------

RECORD_FIELDS = ("preset", "options", "players", "deals", "closed")


def _checked(walk, data: Any, pointer: str, *args) -> Any:
    """Run one of the walks below; its output, or RecordProblems with all it found."""
    c = _Check()
    out = walk(c, data, pointer, *args)
    if c.problems:
        raise RecordProblems(c.problems)
    return out


def check_record(data: Any, pointer: str = "", stored: bool = False, accepted: bool = False) -> dict:
    """The record cleaned, or RecordProblems. `stored`: a tournament match's record, whose
    preset and options come from its tournament (both optional) and whose deals may be absent.
    `accepted` (or `stored`): a record taken before, whose options are not refused for having
    no effect (option.no-effect), so that nothing once accepted is refused later."""
    return _checked(_record, data, pointer, stored, accepted or stored)


def _record(c: _Check, data: Any, pointer: str, stored: bool, accepted: bool) -> dict:
    if not c.obj(data, pointer, RECORD_FIELDS):
        return {}
    out: dict[str, Any] = {}
    bidding = None  # unknown until the preset and options are
    preset = data.get("preset")
    if "preset" in data or not stored:
        if type(preset) is not str or preset not in PRESETS:
            c.fail(f"{pointer}/preset", "required" if "preset" not in data else
                   f"must be one of {', '.join(PRESETS)}; got {shown(preset)}{did_you_mean(preset, PRESETS)}")
        else:
            out["preset"] = preset
    options = data.get("options", {})
    if type(options) is not dict:
        c.fail(f"{pointer}/options", "must be an object")
    else:
        out["options"] = dict(options)
        if "preset" in out:
            bidding = _options(c, out["preset"], options, f"{pointer}/options", accepted)
    if data.get("players") is not None:
        out["players"] = _players(c, data["players"], f"{pointer}/players")
    elif "players" in data:
        out["players"] = None
    if "deals" not in data:
        if not stored:
            c.fail(f"{pointer}/deals", "required")
        out["deals"] = []
    elif type(data["deals"]) is not list:
        c.fail(f"{pointer}/deals", "must be a list")
    else:
        out["deals"] = [_deal(c, d, f"{pointer}/deals/{i}", bidding) for i, d in enumerate(data["deals"])]
    if "closed" in data and c.boolean(data["closed"], f"{pointer}/closed") is not None:
        out["closed"] = data["closed"]
    return out


def _options(c: _Check, preset: str, options: dict, pointer: str, accepted: bool) -> bool | None:
    """Check the options; whether the game has bidding (None: the options are bad)."""
    try:
        return (resolve if accepted else effective)(preset, options).bidding
    except OptionError as exc:
        c.fail(f"{pointer}/{_escape(exc.option)}" if exc.option else pointer, str(exc))
        return None


def _players(c: _Check, players: Any, pointer: str) -> list | None:
    if type(players) is not list or len(players) != 4:
        c.fail(pointer, "must be a list of four names in seat order")
        return None
    return [c.text(p, f"{pointer}/{i}") for i, p in enumerate(players)]


# -- a deal ---------------------------------------------------------------------------------

DEAL_FIELDS = ("dealer", "hands", "trump", "events", "bid")


def check_deal(data: Any, pointer: str = "") -> dict:
    return _checked(_deal, data, pointer, None)


def _deal(c: _Check, data: Any, pointer: str, bidding: bool | None) -> dict:
    """`bidding`: whether the game has bidding (None: not known here)."""
    if not c.obj(data, pointer, DEAL_FIELDS):
        return {}
    out: dict[str, Any] = {}
    c.required_seat(data, "dealer", pointer, out)
    if data.get("bid") is not None or bidding:
        out["bid"] = _bid(c, data.get("bid"), f"{pointer}/bid", bidding)
    elif "bid" in data:
        out["bid"] = None
    if data.get("hands") is not None:
        out["hands"] = _hands(c, data["hands"], f"{pointer}/hands")
    elif "hands" in data:
        out["hands"] = None
    if data.get("trump") is not None:
        out["trump"] = _trump(c, data["trump"], f"{pointer}/trump")
    elif "trump" in data:
        out["trump"] = None
    out["events"] = _events(c, data.get("events", []), f"{pointer}/events")
    return out


def _hands(c: _Check, hands: Any, pointer: str) -> list | None:
    if type(hands) is not list or not all(type(h) is list for h in hands):
        c.fail(pointer, "must be a list of four lists of cards")
        return None
    try:  # the common case: every card in an accepted spelling
        return [[SPELLINGS[card].text for card in hand] for hand in hands]
    except (KeyError, TypeError):
        return [[c.card(card, f"{pointer}/{s}/{j}") for j, card in enumerate(hand)] for s, hand in enumerate(hands)]


def _bid(c: _Check, data: Any, pointer: str, bidding: bool | None) -> dict | None:
    """record.bid: the winning bid, in a game with bidding only."""
    if bidding is False:
        c.fail(pointer, "this game has no bidding (a bid goes with bid-penalty scoring, e.g. bid-double-sir)")
        return None
    if data is None:
        c.fail(pointer, "required: a bidding game's deal records its winning bid {\"seat\": S, \"tricks\": N}")
        return None
    if not c.obj(data, pointer, ("seat", "tricks")):
        return None
    out: dict[str, Any] = {}
    c.required_seat(data, "seat", pointer, out)
    tricks = whole(data.get("tricks"))
    if "tricks" not in data:
        c.fail(f"{pointer}/tricks", "required")
    elif tricks is None or not 7 <= tricks <= 13:
        c.fail(f"{pointer}/tricks", f"must be a whole number 7..13; got {shown(data['tricks'])}")
    else:
        out["tricks"] = tricks
    return out


TRUMP_FIELDS = ("suit", "by", "hidden", "blind", "redeal")


def _trump(c: _Check, data: Any, pointer: str) -> dict | None:
    if not c.obj(data, pointer, TRUMP_FIELDS):
        return None
    out: dict[str, Any] = {}
    if "suit" in data:
        try:
            out["suit"] = parse_suit(data["suit"])
        except InvalidCardError:
            c.fail(f"{pointer}/suit", f"not a suit: {shown(data['suit'])} (expected one of S H D C)")
    if "by" in data:
        out["by"] = c.seat(data["by"], f"{pointer}/by")
    for name in ("hidden", "blind"):
        if name in data:
            out[name] = c.card(data[name], f"{pointer}/{name}")
    if "redeal" in data and c.boolean(data["redeal"], f"{pointer}/redeal") is not None:
        if data["redeal"] is False:
            c.fail(f"{pointer}/redeal", "must be true when given")
        out["redeal"] = data["redeal"]
    kinds = [k for k in ("suit", "hidden", "blind", "redeal") if k in data]
    if "redeal" in data and len(kinds) > 1:
        c.fail(pointer, "a redeal claim stands alone: no suit, hidden or blind card")
    elif not kinds:
        c.fail(pointer, "give one of suit, hidden, blind or redeal (or null for no trump)")
    if "by" in data and "suit" not in data:
        c.fail(f"{pointer}/by", "\"by\" goes with a called \"suit\"")
    if "hidden" in data and "blind" in data:
        c.fail(pointer, "a trump is either hidden or turned up, not both")
    return out


# -- events ---------------------------------------------------------------------------------

EVENT_FIELDS = ("seat", "play", "face_down", "reveal", "take_back", "claim", "accept", "dispute")
ACTIONS = ("play", "reveal", "take_back", "claim", "accept", "dispute")


def check_events(data: Any, pointer: str = "/events") -> list:
    return _checked(_events, data, pointer)


def _events(c: _Check, events: Any, pointer: str) -> list:
    if type(events) is not list:
        c.fail(pointer, "must be a list")
        return []
    plain = _plain_plays(events)
    if plain is not None:
        return plain
    return [_event(c, e, f"{pointer}/{j}") for j, e in enumerate(events)]


_CANONICAL = frozenset(card.text for card in DECK)
_SEATS = frozenset(range(4))
_SEAT, _PLAY = itemgetter("seat"), itemgetter("play")


def _plain_plays(events: list) -> list | None:
    """Every event a plain {"seat": 0..3, "play": card}: read without a check per field.
    Already canonical (the usual case): the list as it is, checked by set operations."""
    try:
        seats = list(map(_SEAT, events))
        if (sum(map(len, events)) == 2 * len(events) and set(map(_PLAY, events)) <= _CANONICAL
                and set(seats) <= _SEATS and set(map(type, seats)) <= {int}):
            return events
    except (KeyError, TypeError):  # not all of them dicts holding seat and play
        return None
    out = []
    for e in events:
        if type(e) is not dict or len(e) != 2:
            return None
        seat, text = e.get("seat"), e.get("play")
        card = SPELLINGS.get(text) if type(text) is str else None
        if type(seat) is not int or not 0 <= seat <= 3 or card is None:
            return None
        out.append({"seat": seat, "play": card.text})
    return out


def _event(c: _Check, data: Any, pointer: str) -> dict:
    if not c.obj(data, pointer, EVENT_FIELDS):
        return {}
    out: dict[str, Any] = {}
    c.required_seat(data, "seat", pointer, out)
    if "play" in data:
        out["play"] = c.card(data["play"], f"{pointer}/play")
    if "claim" in data:
        n = whole(data["claim"])
        if n is None or not 0 <= n <= 13:
            c.fail(f"{pointer}/claim", f"must be a whole number 0..13 (the tricks claimed); got {shown(data['claim'])}")
        else:
            out["claim"] = n
    for flag in ("face_down", "reveal", "take_back", "accept", "dispute"):
        if flag in data and c.boolean(data[flag], f"{pointer}/{flag}") is not None:
            out[flag] = data[flag]
            if flag != "face_down" and data[flag] is False:
                c.fail(f"{pointer}/{flag}", "must be true when given")
    actions = [k for k in ACTIONS if k in data]
    if len(actions) != 1:
        c.fail(pointer, "an event has exactly one of " + ", ".join(ACTIONS))
    if "face_down" in data and "play" not in data:
        c.fail(f"{pointer}/face_down", "face_down goes with a play")
    return out


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")

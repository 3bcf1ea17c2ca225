"""The adjudicator's view: a record's verdict as a page, deal by deal and trick by trick,
with every decision on the card that caused it and a link to its rule.

A deal's steps are the judging replay's own states (`judge(..., steps=...)`), for a pasted
record and a stored match alike: one replay, the same call that makes the verdict, so the page
steps through every event the verdict counts (a settled claim's line, the bell's perfect play).
A record of more deals than `PAGE_INLINE_DEALS` shows its first deal whole and every other
deal's decision, and fetches a deal's tricks and steps when it is opened (`.../deals/<index>`):
its page stays small. A pasted record's claims are settled within the request's budget of
perfect play; a stored match's are replayed from the lines its stored verdict holds (never
searched again)."""
from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from referee import jsontext
from referee.api.auth import bearer_key
from referee.api.budget import STATUS, request_budget
from referee.api.problems import Problem
from referee.api.verdicts import load_record, read_json
from referee.engine import Step, resolve, team_of
from referee.engine.settlement import Stopped
from referee.judge import judge, read
from referee.settlers import Recorded
from referee.visibility import PublicView, face_down_plays

from referee.store.errors import Forbidden, NotFound, Unauthorized

from .cards import card_view, place, said, seat_names
from .errors import wants_html

bp = Blueprint("pages_view", __name__)

INLINE_DEALS = 40  # up to this many deals, every deal's tricks and steps are in the page itself

StepsOf = Callable[[int], "list[Step] | None"]


@bp.app_context_processor
def _helpers() -> dict:
    return {"card_view": card_view, "said": said, "place": place}


bp.add_app_template_global(team_of, "team_of")  # a global: the macros imported without context use it too


@bp.get("/", endpoint="landing")
def landing():
    return _form("")


@bp.get("/check", endpoint="checkAgain")
def check_again():
    """A verdict page reloaded (or a moment's link opened): the form, which the page's script
    fills with the record this tab last judged (kept in the tab) and sends again."""
    return _form("", again=True)


@bp.post("/check", endpoint="check")
def check():
    """A pasted record or an uploaded file, judged and shown; errors next to the text."""
    try:
        upload = request.files.get("file")
        text = upload.read().decode("utf-8", "replace") if upload and upload.filename else request.form.get("record", "")
    except RequestEntityTooLarge:
        return _too_big()
    try:
        data = jsontext.loads(text)
        record = load_record(data)
    except jsontext.NotJSON as exc:
        return _form_again(text, 400, "The text is not JSON", [{"pointer": "/", "detail": str(exc)}])
    except Problem as exc:
        return _form_again(text, exc.status, exc.title, exc.extra.get("errors") or [{"pointer": "/", "detail": exc.detail}])
    lazy = _lazy(len(record.deals))
    try:
        verdict = judge(record, request_budget().settler(), steps=_inline(data))
    except Stopped as exc:
        return _form_again(text, STATUS[exc.reason], "Perfect play stopped", [{"pointer": "/", "detail": exc.message}])
    page = _page(data, verdict.as_dict(), full=True, live=False, steps=_kept(verdict),
                 deal_url=lambda i: url_for("pages_view.checkDeal", index=i))
    page["record_json"] = data  # sent back to open a deal, and carried by a moment's link (in its fragment)
    if _with_hands(data):  # the page fetches perfect play for it (static/analysis.js)
        page["analysis_url"] = url_for("analysis.createAnalysis")
        page["analysis_record"] = None if lazy else data
    return render_template("verdict.html", **page)


@bp.post("/check/deals/<int:index>", endpoint="checkDeal")
def check_deal(index: int):
    """One deal of a posted record: its tricks (HTML) and its steps, for a page that opens it."""
    data = read_json()
    record = load_record(data)
    _has_deal(len(record.deals), index)
    verdict = judge(record, request_budget().settler(), steps={index})
    return _deal_answer(_one_deal(data, verdict.as_dict(), _kept(verdict), index))


def _form(text: str, problems: dict | None = None, again: bool = False) -> str:
    limits = _limits()
    return render_template("landing.html", text=text, problems=problems, again=again,
                           max_text=limits[0], max_body=limits[1], sizes=[_size(n) for n in limits])


def _form_again(text: str, status: int, title: str, problems: list[dict]):
    return _form(text, {"title": title, "errors": problems}), status


def _limits() -> tuple[int, int]:
    """What the form takes: pasted text (Flask's form memory limit), and a whole request (a file)."""
    config = current_app.config
    return int(config.get("MAX_FORM_MEMORY_SIZE") or 500_000), int(config.get("MAX_CONTENT_LENGTH") or 1024 * 1024)


def _size(n: int) -> str:
    if n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MiB"
    return f"{n // 1000:,} KB" if n % 1000 == 0 else f"{n:,} bytes"


def _too_big():
    """Over the form's limits: the form again (the text is not read, so it cannot be shown)."""
    text, body = (_size(n) for n in _limits())
    return _form_again("", 413, "The record is too big for this form", [{"pointer": "/", "detail": (
        f"the form takes a pasted record of up to {text}, and a record file of up to {body}: choose the "
        f"record as a file below; a bigger record is checked with `referee check FILE`")}])


def _readable(load: Callable[[], Any]) -> Any:
    """A private tournament's match page without its read key (or with a wrong one) is, for a
    browser, the not-found page with the key form (its existence is not told, as for the
    tournament's page); other clients keep the 401/403 problem."""
    try:
        return load()
    except (Unauthorized, Forbidden):
        if not wants_html():
            raise
        raise NotFound("no match here that this reader may see (a private tournament's match needs its read key)"
                       ) from None


@bp.get("/matches/<match_id>", endpoint="match")
def match_page(match_id: str):
    view = _readable(lambda: _store().get_match(match_id, bearer_key()))
    if view.etag in {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
        return Response(status=304, headers={"ETag": view.etag})
    full_record = view.revision.record
    page = _page(full_record, None, full=view.full, live=view.match.status != "finished", match=view.as_dict(),
                 public=None if view.full else view.public(), steps=_replayed(*view.revision, _inline(full_record)),
                 deal_url=lambda i: url_for("pages_view.matchDeal", match_id=match_id, index=i))
    page["etag"] = view.etag
    page["corrections"] = [r for r in _store().revisions(match_id, bearer_key()) if r["kind"] == "revise"]
    if _with_hands(full_record):  # what a reader may see of it is the analysis endpoint's to say
        page["analysis_url"] = url_for("analysis.getMatchAnalysis", match_id=match_id)
    response = Response(render_template("verdict.html", **page))
    response.headers["ETag"] = view.etag
    return response


@bp.get("/matches/<match_id>/deals/<int:index>", endpoint="matchDeal")
def match_deal(match_id: str, index: int):
    view = _store().get_match(match_id, bearer_key())
    full_record = view.revision.record
    _has_deal(len(full_record["deals"]), index)
    answer = _deal_answer(_one_deal(full_record, None, _replayed(*view.revision, {index}), index, match=view.as_dict(),
                                     public=None if view.full else view.public()))
    return answer


@bp.get("/matches/<match_id>/revisions/<int:number>", endpoint="revision")
def revision_page(match_id: str, number: int):
    revision = _readable(lambda: _store().revision_view(match_id, number, bearer_key()))
    full_record = revision["full_record"]
    page = _page(full_record, None, full=revision["full"], live=False,
                 match={**revision, "id": match_id},
                 public=revision["view"],
                 steps=_replayed(full_record, revision["full_verdict"], _inline(full_record)),
                 deal_url=lambda i: url_for("pages_view.revisionDeal", match_id=match_id, number=number, index=i))
    return render_template("verdict.html", **page)


@bp.get("/matches/<match_id>/revisions/<int:number>/deals/<int:index>", endpoint="revisionDeal")
def revision_deal(match_id: str, number: int, index: int):
    revision = _store().revision_view(match_id, number, bearer_key())
    full_record = revision["full_record"]
    _has_deal(len(full_record["deals"]), index)
    return _deal_answer(_one_deal(full_record, None, _replayed(full_record, revision["full_verdict"], {index}), index,
                                  match=revision, public=revision["view"]))


def _store():
    return current_app.extensions["referee.store"]


def _lazy(deals: int) -> bool:
    return deals > current_app.config.get("PAGE_INLINE_DEALS", INLINE_DEALS)


def _inline(data: dict) -> bool | set[int]:
    """The deals whose steps a page holds: all, or the first one of a big record."""
    return {0} if _lazy(len(data.get("deals", []))) else True


def _has_deal(deals: int, index: int) -> None:
    if index >= deals:
        raise Problem(404, "Not Found", f"the record has {deals} deal(s): there is no deal {index}")


def _kept(verdict) -> StepsOf:
    """The steps the judging replay kept (None for a deal it did not replay)."""
    return lambda i: verdict.deals[i].steps


def _replayed(full_record: dict, full_verdict: dict, wanted: bool | set[int]) -> StepsOf:
    """A stored match's steps (of the deals `wanted`): its record judged again with steps, the
    same replay that made its stored verdict, the bell and a settled claim's line included:
    those lines are the stored verdict's own, replayed, never searched again."""
    return _kept(judge(read(full_record, checked=True), Recorded(full_verdict), steps=wanted))


def _page(data: dict, verdict: dict | None, full: bool, live: bool, steps: StepsOf, deal_url: Callable[[int], str],
          match: dict | None = None, public: PublicView | None = None) -> dict[str, Any]:
    """What the verdict template shows. `data` is the full record; a reader without the key
    gets `match` (the verdict and record, hidden already) and the steps through `public`
    (visibility.py: what the current revision shows decides)."""
    verdict, shown_record, names = _shown(data, verdict, match)
    lazy = _lazy(len(verdict["deals"]))
    deals = []
    for index, deal in enumerate(verdict["deals"]):
        if lazy and index > 0:  # the first deal is in the page, open
            deals.append({"index": index, "deal": deal, "names": names, "src": deal_url(index)})
        else:
            deals.append(_deal_page(index, deal, shown_record, names, steps, public))
    focus = request.args.get("deal", type=int)
    focus = focus - 1 if focus is not None and 1 <= focus <= len(verdict["deals"]) else None
    return {"verdict": verdict, "record": shown_record, "deals": deals, "names": names, "live": live, "focus": focus,
            "match": match, "full": full, "errors": verdict["errors"], "lazy": lazy, "record_json": None,
            "analysis_url": None, "analysis_record": None, "corrections": []}


def _with_hands(record: dict) -> bool:
    return any(isinstance(d, dict) and d.get("hands") for d in record.get("deals", []))


def _shown(data: dict, verdict: dict | None, match: dict | None) -> tuple[dict, dict, list[str]]:
    """The verdict and record the reader may see (a stored match's are hidden already), and the seat names."""
    verdict = verdict if match is None else match["verdict"]
    shown_record = data if match is None else match["record"]
    return verdict, shown_record, seat_names(shown_record.get("players"))


def _one_deal(data: dict, verdict: dict | None, steps: StepsOf, index: int,
              match: dict | None = None, public: PublicView | None = None) -> dict:
    """One deal's view, exactly as `_page` shows it in a page that holds every deal."""
    verdict, shown_record, names = _shown(data, verdict, match)
    return _deal_page(index, verdict["deals"][index], shown_record, names, steps, public)


def _deal_page(index: int, deal: dict, shown_record: dict, names: list[str], steps: StepsOf,
               public: PublicView | None) -> dict:
    open_ = public is None or not public.hidden(index)
    kept = steps(index)
    timeline = [] if kept is None else [s.as_dict() for s in kept]
    if not open_:
        timeline = public.steps(index, timeline)
    view = _deal_view(index, deal, shown_record["deals"][index], timeline, names, open_)
    view["hands_note"] = "hidden until the deal ends" if not open_ else "not in the record"
    view["piles"] = resolve(shown_record["preset"], shown_record.get("options")).collects.piles
    return view


def _deal_answer(view: dict) -> Response:
    """A deal opened from a page: its steps, and its tricks as the page writes them."""
    html = render_template("_deal_body.html", d=view, deal=view["deal"], names=view["names"], inline_steps=False)
    return jsonify({"deal": view["index"], "steps": view["steps"], "html": html})


def _deal_view(index: int, deal: dict, deal_record: dict, timeline: list[dict], names: list[str], open_: bool) -> dict:
    violations = {}
    for v in deal["violations"]:
        violations.setdefault(v["event"], []).append(v)
    played = len(deal_record.get("events", []))  # plays numbered from here on are the referee's
    tricks = []
    for t in deal["tricks"]:
        cards = []
        for c in t["cards"]:
            face = c["card"] if open_ or not c.get("face_down") else None
            cards.append({**c, "view": card_view(face), "wins": c["seat"] == t["winner"], "referee": c["event"] >= played,
                          "violations": violations.get(c["event"], []), "name": names[c["seat"]]})
        tricks.append({**t, "cards": cards})
    ignored = set(deal.get("ignored_events", []))
    down = face_down_plays(deal_record)
    events = [dict(_event_view(e, names, open_, i in down), ignored=i in ignored)
              for i, e in enumerate(deal_record.get("events", []))]
    in_tricks = {c["event"] for t in deal["tricks"] for c in t["cards"]}
    # the referee's plays (a settled claim's line, the bell's) are numbered on after the record's
    counted = max([len(events)] + [s["event"] + 1 for s in timeline if s.get("referee")])
    marks = [{k: v.get(k) for k in ("event", "code", "penalty", "corrected", "pending", "message")}
             for v in deal["violations"] if v.get("event") is not None]  # on the table at their step
    return {"index": index, "deal": deal, "tricks": tricks, "events": events, "steps": timeline, "counted": counted,
            "marks": marks,
            "other_violations": [v for v in deal["violations"] if v["event"] is None],
            "open_violations": [v for v in deal["violations"] if v["event"] is not None and v["event"] not in in_tricks],
            "names": names}


def _event_view(event: dict, names: list[str], open_: bool, face_down: bool) -> dict:
    """`face_down`: the play is face down (a hidden card marked so is not: R-35)."""
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat <= 3 else f"seat {seat}"
    if "play" in event:
        view = card_view(event["play"] if open_ or not face_down else None)
        return {"who": who, "kind": "play", "card": view, "face_down": face_down,
                "face_up": bool(event.get("face_down")) and not face_down}
    if "claim" in event:
        return {"who": who, "kind": "claim", "card": None, "tricks": event["claim"]}
    kind = next((k for k in ("reveal", "accept", "dispute") if k in event), "take_back")
    return {"who": who, "kind": kind, "card": None}

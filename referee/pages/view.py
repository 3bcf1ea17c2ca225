"""The adjudicator's view: a record's verdict as a page, deal by deal and trick by trick,
with every decision on the card that caused it and a link to its rule."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for

from referee import jsontext
from referee.api.auth import bearer_key
from referee.api.problems import Problem
from referee.api.verdicts import load_record
from referee.engine import Record, judge, resolve
from referee.engine.timeline import steps
from referee.visibility import PublicView

from .cards import card_view, seat_names

bp = Blueprint("pages_view", __name__)


MAX_STEP_DEALS = 200  # step-through data for at most this many deals of one record


@bp.app_context_processor
def _helpers() -> dict:
    return {"card_view": card_view}


@bp.get("/", endpoint="landing")
def landing():
    return render_template("landing.html", text="", problems=None)


@bp.get("/check", endpoint="checkAgain")
def check_again():
    return redirect(url_for("pages_view.landing"))


@bp.post("/check", endpoint="check")
def check():
    """A pasted record or an uploaded file, judged and shown; errors next to the text."""
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload and upload.filename else request.form.get("record", "")
    try:
        data = jsontext.loads(text)
        record = load_record(data)
    except jsontext.NotJSON as exc:
        return _form_again(text, 400, "The text is not JSON", [{"pointer": "/", "detail": str(exc)}])
    except Problem as exc:
        return _form_again(text, exc.status, exc.title, exc.extra.get("errors") or [{"pointer": "/", "detail": exc.detail}])
    return render_template("verdict.html", **_page(data, record, full=True, live=False))


def _form_again(text: str, status: int, title: str, problems: list[dict]):
    return render_template("landing.html", text=text, problems={"title": title, "errors": problems}), status


@bp.get("/matches/<match_id>", endpoint="match")
def match_page(match_id: str):
    view = _store().get_match(match_id, bearer_key())
    if view.etag in {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
        return Response(status=304, headers={"ETag": view.etag})
    full_record = view.revision.record
    page = _page(full_record, Record.from_dict(full_record), full=view.full, live=view.match.status != "finished",
                 match=view.as_dict(), public=None if view.full else view.public())
    page["etag"] = view.etag
    response = Response(render_template("verdict.html", **page))
    response.headers["ETag"] = view.etag
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/matches/<match_id>/revisions/<int:number>", endpoint="revision")
def revision_page(match_id: str, number: int):
    store = _store()
    revision = store.revision_view(match_id, number, bearer_key())
    page = _page(revision["full_record"], Record.from_dict(revision["full_record"]), full=revision["full"],
                 live=False, match=revision, public=revision["view"])
    return render_template("verdict.html", **page)


def _store():
    return current_app.extensions["referee.store"]


def _page(data: dict, record: Record, full: bool, live: bool, match: dict | None = None,
          public: PublicView | None = None) -> dict[str, Any]:
    """What the verdict template shows. `data` is the full record; a reader without the key
    gets `match` (the verdict and record) and the steps through `public` (visibility.py)."""
    verdict = judge(record).as_dict() if match is None else match["verdict"]
    shown_record = data if match is None else match["record"]
    options = resolve(record.preset, record.options)
    names = seat_names(shown_record.get("players"))
    deals = []
    for index, deal in enumerate(verdict["deals"]):
        open_ = public is None or not public.hidden(index)
        timeline = steps(options, record.deals[index]) if index < MAX_STEP_DEALS and index < len(record.deals) else []
        if not open_:
            timeline = public.steps(index, timeline)
        view = _deal_view(index, deal, shown_record["deals"][index], timeline, names, open_)
        view["hands_note"] = "hidden until the deal ends" if not open_ else "not in the record"
        deals.append(view)
    return {"verdict": verdict, "record": shown_record, "deals": deals, "names": names, "live": live,
            "match": match, "full": full, "errors": verdict["errors"]}


def _deal_view(index: int, deal: dict, deal_record: dict, timeline: list[dict], names: list[str], open_: bool) -> dict:
    violations = {}
    for v in deal["violations"]:
        violations.setdefault(v["event"], []).append(v)
    tricks = []
    for t in deal["tricks"]:
        cards = []
        for c in t["cards"]:
            face = c["card"] if open_ or not c.get("face_down") else None
            cards.append({**c, "view": card_view(face), "wins": c["seat"] == t["winner"],
                          "violations": violations.get(c["event"], []), "name": names[c["seat"]]})
        tricks.append({**t, "cards": cards})
    events = [_event_view(e, names, open_) for e in deal_record.get("events", [])]
    return {"index": index, "deal": deal, "tricks": tricks, "events": events, "steps": timeline,
            "other_violations": [v for v in deal["violations"] if v["event"] is None],
            "names": names}


def _event_view(event: dict, names: list[str], open_: bool) -> dict:
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat <= 3 else f"seat {seat}"
    if "play" in event:
        face_down = event.get("face_down", False)
        view = card_view(event["play"] if open_ or not face_down else None)
        return {"who": who, "kind": "play", "card": view, "face_down": face_down}
    return {"who": who, "kind": "reveal" if "reveal" in event else "take_back", "card": None}

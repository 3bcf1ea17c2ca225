"""A tournament on the day, as pages: the public tournaments, and one tournament's standings,
matches and disputes, followed live (ETag polling) and printable as a standings sheet.

A private tournament (or a key that does not open it) is a 404 page: its existence is not
told without the key, which the page's script sends as a header, never in the address."""
from __future__ import annotations

from datetime import datetime, timezone

from flask import Blueprint, Response, current_app, render_template, request

from referee.api.auth import bearer_key
from referee.engine import catalogue
from referee.engine.errors import shown
from referee.store.errors import Forbidden, NotFound, Unauthorized
from referee.store.views import where_in_words

from .rules import rule_html

bp = Blueprint("pages_tournaments", __name__)
bp.add_app_template_global(where_in_words, "where_in_words")

PER_PAGE = 25
MAX_PAGE = 100_000
STATUSES = ("in_progress", "finished")


def _store():
    return current_app.extensions["referee.store"]


def _page_number() -> int:
    number = request.args.get("page", default=1, type=int)
    return number if number is not None and 1 <= number <= MAX_PAGE else 1


@bp.get("/tournaments", endpoint="tournamentsPage")
def tournaments_page():
    number = _page_number()
    rows = _store().tournament_listing(public_only=True, limit=PER_PAGE + 1, offset=(number - 1) * PER_PAGE)
    return render_template("tournaments.html", tournaments=rows[:PER_PAGE], page=number,
                           more=len(rows) > PER_PAGE)


def preset_in_words(preset: str, options: dict) -> dict:
    """The preset's title and text (the rulebook's Markdown as HTML, as the rulebook page shows
    it) and each option it overrides, as the rulebook names them."""
    about = catalogue().get(f"preset.{preset}")
    return {"title": about.title if about else preset, "html": rule_html(about.id) if about else "",
            "options": options_in_words(options)}


@bp.app_template_global()
def options_in_words(options: dict | None) -> list[dict]:
    """Each option as the rulebook names it, with its value in words (`play on: yes`), not
    its JSON name (`play_on true`)."""
    rules = catalogue()
    given = []
    for name, value in sorted((options or {}).items()):
        option = rules.get(f"option.{name}")
        words = "yes" if value is True else "no" if value is False else "none" if value is None else \
            str(value).replace("_", " ") if isinstance(value, str) else value
        given.append({"name": name, "title": option.title if option else name.replace("_", " "), "value": value,
                      "words": words, "rule": option.id if option else None})
    return given


def _filters() -> tuple[str | None, str | None]:
    status = request.args.get("status") or None
    code = request.args.get("code") or None
    return (status if status in STATUSES else None), (code[:60] if code else None)


@bp.get("/tournaments/<tournament_id>", endpoint="tournamentPage")
def tournament_page(tournament_id: str):
    store = _store()
    try:
        key = bearer_key()
        etag = store.tournament_etag(tournament_id, key)
        if etag in {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
            return Response(status=304, headers={"ETag": etag})
        status, code = _filters()
        page = store.overview(tournament_id, key, status, code)
    except (Unauthorized, Forbidden, NotFound):
        # The same answer for an unknown and a private tournament: its existence is not told.
        raise NotFound(f"no tournament {shown(tournament_id)} that this reader may see "
                       "(a private one needs its read key)") from None
    t = page["tournament"]
    response = Response(render_template(
        "tournament.html", page=page, t=t, preset=preset_in_words(t["preset"], t["options"]),
        status=status, code=code, statuses=STATUSES,
        printed=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")))
    response.headers["ETag"] = page["etag"]
    return response

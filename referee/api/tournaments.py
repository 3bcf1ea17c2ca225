"""Tournaments, stored matches, live play, standings and the feed."""
from __future__ import annotations

import orjson
from flask import Blueprint, Response, current_app, jsonify, request, url_for

from referee import jsontext
from referee import judge as judging
from referee.record_shape import check_deal
from referee.store.ids import INT_MAX
from referee.store.operator import require_operator
from referee.store.service import Store
from referee.store.views import MatchView, tournament_settings
from referee.store.webhooks import Webhooks
from referee.store.standings import TIE_BREAK

from .auth import bearer_key, check_write_key, needs_key, writes
from .bodies import (KeyRotateSchema, MatchCreateSchema, ReviseSchema, TournamentCreateSchema, WebhookCreateSchema,
                     load, load_events, load_record)
from .problems import Problem


from .verdicts import read_body, read_json, read_json_later


def _stored_record(data, pointer):
    return judging.read(data, pointer, stored=True)


bp = Blueprint("tournaments", __name__)


def store() -> Store:
    return current_app.extensions["referee.store"]


def _match_response(view: MatchView, status: int = 200) -> Response:
    response = jsonify(view.as_dict())
    response.status_code = status
    response.headers["ETag"] = view.etag
    response.headers["Location"] = match_url(view.match.id)
    return response


def match_url(match_id: str) -> str:
    """The match's URL, as url_for gives it: an id of ours (hex digits) written at once, where
    url_for builds it from the routing map (a third of a live write's answer); any other id
    (a restored export's) by url_for, which quotes it."""
    if match_id.isascii() and match_id.isalnum():
        return request.root_path + "/v1/matches/" + match_id
    return url_for("tournaments.getMatch", match_id=match_id)


def _preferred_return() -> str | None:
    """The `return` preference of the request's Prefer header (RFC 7240), if any."""
    for preference in request.headers.get("Prefer", "").split(","):
        name, _, value = preference.split(";")[0].partition("=")
        if name.strip().lower() == "return":
            return value.strip().strip('"').lower()
    return None


def _live_response(view: MatchView) -> Response:
    """A live write's answer: `return=minimal` (the default) the summary, `next` and the
    changed deal's verdict; `return=representation` the whole match, as GET gives it."""
    if _preferred_return() == "representation":
        response = _match_response(view)
        response.headers["Preference-Applied"] = "return=representation"
        return response
    # written at once (jsonify's, header by header, cost as much as the JSON)
    return Response(orjson.dumps(view.live_dict()), mimetype="application/json",
                    headers={"ETag": view.etag, "Location": match_url(view.match.id),
                             "Preference-Applied": "return=minimal"})


def _int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise Problem(422, "Invalid query", f"{name} must be a whole number {low}..{high}",
                      errors=[{"pointer": f"/{name}", "detail": f"must be {low}..{high}"}])
    return value


@bp.post("/v1/tournaments", endpoint="createTournament")
def create_tournament():
    require_operator(bearer_key())  # before the body is read, like any key
    data = load(TournamentCreateSchema, read_json(), "tournament")
    t, key, read_key = store().create_tournament(data["name"], data["preset"], data["options"], data["public"])
    response = jsonify({**tournament_settings(t), "key": key, "read_key": read_key})
    response.status_code = 201
    response.headers["Location"] = url_for("tournaments.getTournament", tournament_id=t.id)
    return response


@bp.get("/v1/tournaments", endpoint="listTournaments")
def list_tournaments():
    limit = _int_arg("limit", 50, 1, 200)
    page = store().list_tournaments(bearer_key(), limit, request.args.get("cursor"))
    return jsonify({"items": [tournament_settings(t) for t in page["items"]], "next_cursor": page["next_cursor"]})


@bp.post("/v1/tournaments/<tournament_id>/keys/rotate", endpoint="rotateKey")
@writes
def rotate_key(tournament_id: str):
    data = load(KeyRotateSchema, read_json(), "key rotation")
    new = store().rotate_key(tournament_id, bearer_key(), data["key"])
    return jsonify({"tournament": tournament_id, "key": data["key"], "new_key": new})


@bp.get("/v1/tournaments/<tournament_id>", endpoint="getTournament")
def get_tournament(tournament_id: str):
    return jsonify(tournament_settings(store().tournament(tournament_id, bearer_key())))


@bp.get("/v1/tournaments/<tournament_id>/standings", endpoint="getStandings")
def get_standings(tournament_id: str):
    return jsonify({"tournament": tournament_id, "tie_break": TIE_BREAK,
                    "standings": store().standings(tournament_id, bearer_key())})


@bp.get("/v1/tournaments/<tournament_id>/feed", endpoint="getFeed")
def get_feed(tournament_id: str):
    after = _int_arg("after", 0, 0, INT_MAX)
    limit = _int_arg("limit", 100, 1, 1000)
    return jsonify(store().feed(tournament_id, bearer_key(), after, limit))


@bp.post("/v1/matches", endpoint="createMatch")
@needs_key
def create_match():
    raw = read_body()
    _key_for_named_tournament(raw)
    data = load(MatchCreateSchema, read_json(raw), "match", {"record": _stored_record})
    view, created = store().create_match(data["tournament"], bearer_key(), data["record"], data.get("external_id"))
    return _match_response(view, 201 if created else 200)


def _key_for_named_tournament(raw: bytes) -> None:
    """The key first, before the body's media type, JSON or schema is judged (so a wrong key
    learns nothing of its body): 403/404 for a key that does not write the tournament the
    body names; a body that names none, or cannot be read, 403 for a key that writes none."""
    try:
        body = jsontext.loads(raw)
    except jsontext.NotJSON:
        body = None
    tournament = body.get("tournament") if isinstance(body, dict) else None
    if isinstance(tournament, str):
        check_write_key(tournament_id=tournament)
    else:
        store().check_key_writes_any(bearer_key())


@bp.get("/v1/matches", endpoint="listMatches")
def list_matches():
    tid = request.args.get("tournament")
    if not tid:
        raise Problem(422, "Invalid query", "name the tournament: ?tournament=ID",
                      errors=[{"pointer": "/tournament", "detail": "required"}])
    status = request.args.get("status")
    if status not in (None, "in_progress", "finished"):
        raise Problem(422, "Invalid query", "status is in_progress or finished",
                      errors=[{"pointer": "/status", "detail": "must be in_progress or finished"}])
    limit = _int_arg("limit", 50, 1, 200)
    return jsonify(store().list_matches(tid, bearer_key(), status, limit, request.args.get("cursor")))


@bp.get("/v1/matches/<match_id>", endpoint="getMatch")
def get_match(match_id: str):
    view = store().get_match(match_id, bearer_key())
    if view.etag in {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
        return Response(status=304, headers={"ETag": view.etag})  # live scoreboards poll cheaply
    return _match_response(view)


# A live write receives its body before the store's one transaction (read_json_later) and the
# store parses it once the key opens the match: the key's answers still come first.

@bp.post("/v1/matches/<match_id>/events", endpoint="appendEvents")
def append_events(match_id: str):
    body = read_json_later()

    def events():
        return load_events(body())
    view = store().append_events(match_id, bearer_key(), request.headers.get("If-Match"), events)
    return _live_response(view)


@bp.post("/v1/matches/<match_id>/deals", endpoint="startDeal")
def start_deal(match_id: str):
    body = read_json_later()

    def deal():
        return load_record(body(), check_deal, "deal")
    view = store().add_deal(match_id, bearer_key(), request.headers.get("If-Match"), deal)
    return _live_response(view)


@bp.put("/v1/matches/<match_id>/record", endpoint="reviseRecord")
@writes
def revise_record(match_id: str):
    data = load(ReviseSchema, read_json(), "revision", {"record": _stored_record})
    view = store().revise(match_id, bearer_key(), request.headers.get("If-Match"), data["record"], data["reason"])
    return _match_response(view)


@bp.post("/v1/matches/<match_id>/close", endpoint="closeMatch")
@writes
def close_match(match_id: str):
    view = store().close(match_id, bearer_key(), request.headers.get("If-Match"))
    return _match_response(view)


@bp.get("/v1/matches/<match_id>/revisions", endpoint="listRevisions")
def list_revisions(match_id: str):
    return jsonify({"match": match_id, "revisions": store().revisions(match_id, bearer_key())})


@bp.get("/v1/matches/<match_id>/revisions/<int:number>", endpoint="getRevision")
def get_revision(match_id: str, number: int):
    return jsonify(store().revision(match_id, number, bearer_key()))


@bp.post("/v1/tournaments/<tournament_id>/webhooks", endpoint="createWebhook")
@writes
def create_webhook(tournament_id: str):
    data = load(WebhookCreateSchema, read_json(), "webhook")
    hook, secret = Webhooks(store()).register(tournament_id, bearer_key(), data["url"])
    response = jsonify({**hook, "secret": secret})
    response.status_code = 201
    response.headers["Location"] = url_for("tournaments.listDeliveries", tournament_id=tournament_id, webhook_id=hook["id"])
    return response


@bp.get("/v1/tournaments/<tournament_id>/webhooks", endpoint="listWebhooks")
@writes
def list_webhooks(tournament_id: str):
    return jsonify({"webhooks": Webhooks(store()).list(tournament_id, bearer_key())})


@bp.get("/v1/tournaments/<tournament_id>/webhooks/<webhook_id>/deliveries", endpoint="listDeliveries")
@writes
def list_deliveries(tournament_id: str, webhook_id: str):
    limit = _int_arg("limit", 100, 1, 1000)
    return jsonify(Webhooks(store()).deliveries(tournament_id, bearer_key(), webhook_id, limit))


@bp.delete("/v1/tournaments/<tournament_id>/webhooks/<webhook_id>", endpoint="deleteWebhook")
@writes
def delete_webhook(tournament_id: str, webhook_id: str):
    Webhooks(store()).delete(tournament_id, bearer_key(), webhook_id)
    return Response(status=204)


@bp.post("/v1/tournaments/<tournament_id>/webhooks/<webhook_id>/secret", endpoint="rotateWebhookSecret")
@writes
def rotate_webhook_secret(tournament_id: str, webhook_id: str):
    hook, secret = Webhooks(store()).rotate_secret(tournament_id, bearer_key(), webhook_id)
    return jsonify({**hook, "secret": secret})


@bp.post("/v1/tournaments/<tournament_id>/webhooks/<webhook_id>/enable", endpoint="enableWebhook")
@writes
def enable_webhook(tournament_id: str, webhook_id: str):
    return jsonify(Webhooks(store()).enable(tournament_id, bearer_key(), webhook_id))

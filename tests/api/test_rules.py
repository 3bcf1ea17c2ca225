"""The rulebook over HTTP: /v1/rules, /v1/rules/{id}, the /rules page, and the presets' words."""
import re

from referee.engine import PRESETS, Options, catalogue
from referee.engine.options import ALIASES
from tests.api.spec import validate_response


def test_every_rule_is_listed_with_its_text(client):
    r = client.get("/v1/rules")
    validate_response(r, "/v1/rules", "get")
    rules = r.get_json()["rules"]
    assert [x["id"] for x in rules] == list(catalogue())
    follow = next(x for x in rules if x["id"] == "trick.follow")
    assert follow["title"] == "Follow suit" and "must play one" in follow["text"]
    assert follow["url"] == "/rules#trick.follow" and follow["presets"] == ["all"]


def test_one_rule_by_id_and_an_unknown_id_is_404(client):
    r = client.get("/v1/rules/R-12")
    validate_response(r, "/v1/rules/{rule_id}", "get")
    assert r.get_json()["title"] == "Take-backs"
    missing = client.get("/v1/rules/R-99")
    validate_response(missing, "/v1/rules/{rule_id}", "get")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


def test_the_rulebook_page_has_an_anchor_for_every_rule(client):
    r = client.get("/rules")
    validate_response(r, "/rules", "get")
    html = r.get_data(as_text=True)
    anchors = re.findall(r'<h3 id="([^"]+)"', html)
    assert anchors == list(catalogue())


def test_presets_and_options_are_described_in_plain_words(client):
    data = client.get("/v1/presets").get_json()
    assert {p["name"] for p in data["presets"]} == set(PRESETS)
    for p in data["presets"]:
        assert p["description"] and "seed" not in p["description"] and p["rule"] == f"preset.{p['name']}"
    assert set(data["options"]) == set(Options().as_dict()) | set(ALIASES)
    for name, option in data["options"].items():
        assert option["description"] and option["rule"] == f"option.{name}"
    assert "court-piece" in data["presets"][4]["description"]  # rr-single-sir says how it differs


def test_every_decision_in_a_verdict_links_to_a_rule_that_exists(client):
    import json
    from pathlib import Path

    rules = catalogue()
    for path in sorted((Path(__file__).parents[1] / "engine" / "records").glob("*.json")):
        verdict = client.post("/v1/verdicts", json=json.loads(path.read_text())["record"]).get_json()
        cited = [e["rule"] for e in verdict["errors"]]
        for d in verdict["deals"]:
            cited += [v["rule"] for v in d["violations"]]
            cited += [d["result"]["rule"]] if d["result"] else []
            cited += [d["next_dealer_rule"]] if d["next_dealer"] is not None else []
            cited += [t["rule"] for t in d["tricks"] if "rule" in t]
            assert d["result"] is None or d["result"]["rule"]
        for ids in cited:
            assert ids and all(i in rules for i in ids), (path.name, ids)

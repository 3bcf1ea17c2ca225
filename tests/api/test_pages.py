"""The pages over plain HTTP (the browser tests drive them in Chromium): upload, errors, links."""
import io
from pathlib import Path

EXAMPLES = Path(__file__).parents[2] / "examples"


def test_an_uploaded_record_file_is_judged_like_a_pasted_one(client):
    data = {"file": (io.BytesIO((EXAMPLES / "revoke.json").read_bytes()), "revoke.json")}
    r = client.post("/check", data=data, content_type="multipart/form-data")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "revoke" in page and 'href="/rules#trick.follow"' in page
    assert 'aria-label="two of diamonds"' in page


def test_the_landing_page_links_the_rulebook_and_the_contract_and_loads_nothing_from_outside(client):
    page = client.get("/").get_data(as_text=True)
    assert 'href="/rules"' in page and 'href="/openapi.yaml"' in page
    assert "http://" not in page and "https://" not in page  # works offline: no CDN, no fonts


def test_a_record_error_is_shown_at_its_deal_and_event(client):
    r = client.post("/check", data={"record": '{"preset": "court-piece", "deals": [{"dealer": 0, "trump": {"suit": "S"}, '
                                              '"events": [{"seat": 0, "play": "AH"}]}]}'})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "out_of_turn" in page and 'href="?deal=1&amp;event=1"' in page

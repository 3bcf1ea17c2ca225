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


def multipart(field: str, content: bytes, filename: str | None = None) -> tuple[bytes, str]:
    """One form field as multipart/form-data, written here: the test client spools a big body
    to a temporary file that it never closes."""
    name = f'name="{field}"' + (f'; filename="{filename}"' if filename else "")
    body = (b"--b0undary\r\nContent-Disposition: form-data; " + name.encode() + b"\r\n\r\n" + content
            + b"\r\n--b0undary--\r\n")
    return body, "multipart/form-data; boundary=b0undary"


def test_a_record_over_the_forms_limits_is_the_form_again_naming_them(client):
    """Without the page's script (which says it before sending): pasted text over 500 KB, or a
    file over the 1 MiB body limit, is the form with the limits and the way round them, as a
    page, not the API's problem JSON."""
    big = ((EXAMPLES / "revoke.json").read_text() + " " * 600_000).encode()
    for body, kind in (multipart("record", big), multipart("file", big * 2, "big.json")):
        r = client.post("/check", data=body, content_type=kind)
        page = r.get_data(as_text=True)
        assert r.status_code == 413 and r.mimetype == "text/html"
        assert "too big for this form" in page and "500 KB" in page and "1 MiB" in page and "as a file" in page
    body, kind = multipart("file", big, "big.json")
    r = client.post("/check", data=body, content_type=kind)
    assert r.status_code == 200 and "penalty court" in r.get_data(as_text=True)  # as a file it is judged


def test_check_reached_by_get_is_the_form_that_judges_the_kept_record_again(client):
    page = client.get("/check?deal=1&event=6").get_data(as_text=True)
    assert 'data-again="1"' in page and 'id="record"' in page
    assert 'data-again' not in client.get("/").get_data(as_text=True)

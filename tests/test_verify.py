"""`referee verify`: a signed verdict checked offline. Any change to any field of a signed
verdict is refused; a verdict another engine judged differently names the deal and event
(counted from 1) and what differs; a retired key still checks what it signed before; a claim
past the search limit is finished along its recorded line, and the report says so."""
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.engine import Record, judge
from referee.judge import write as write_verdict
from referee.verdict_signing import Signer, message, rotate
from referee.provenance import place
from referee.verify import DIFFERS, INCOMPLETE, MALFORMED, OK, REFUSED, verify_files
from tests.helpers import searching
from tests.solver.claim_deals import endgame

REVOKE = json.loads((Path(__file__).parents[1] / "examples" / "revoke.json").read_text())


def signed(record: dict, signer: Signer, where: dict | None = None, **changes) -> dict:
    """The verdict a server with `signer` gives `record` (`changes`: its verdict altered first,
    as another engine would have judged it; `where`: a stored match's, provenance.place())."""
    verdict = judge(Record.from_dict(record), settler=searching()).as_dict()
    for path, value in changes.items():
        target = verdict
        *head, last = path.split("__")
        for part in head:
            target = target[int(part) if part.isdigit() else part]
        target[int(last) if last.isdigit() else last] = value
    return write_verdict(verdict, record, signer, where)


@pytest.fixture
def ring(tmp_path):
    return Signer(tmp_path / "keys")


def write(tmp_path, name, value) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(value))
    return str(path)


def run(tmp_path, verdict, record=REVOKE, keys=None) -> tuple[int, str]:
    files = [write(tmp_path, "pair.json", {"record": record, "verdict": verdict})]
    reports, status = verify_files(files, [], [keys or str(tmp_path / "keys")])
    return status, "\n".join(line for r in reports for line in r.lines)


def leaves(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, path + (k,))
    elif isinstance(value, list) and value:
        for k, v in enumerate(value):
            yield from leaves(v, path + (k,))
    else:
        yield path


def altered(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value[:-1] + ("x" if value[-1:] != "x" else "y") if value else "x"
    if value is None:
        return 0
    return [0] if value == [] else None


def test_a_signed_verdict_holds_and_is_judged_the_same(tmp_path, ring):
    status, said = run(tmp_path, signed(REVOKE, ring))
    assert status == OK, said
    assert "the signature holds" in said and "(current)" in said and ": the same verdict" in said


def test_every_field_of_a_signed_verdict_changed_in_turn_is_refused(tmp_path, ring):
    verdict = signed(REVOKE, ring)
    paths = list(leaves(verdict))
    assert len(paths) > 60 and ("provenance", "record") in paths and ("signature",) in paths
    for path in paths:
        tampered = copy.deepcopy(verdict)
        target = tampered
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = altered(target[path[-1]])
        status, said = run(tmp_path, tampered)
        assert status == REFUSED, (path, said)
        assert "does not hold" in said or "not the one this verdict judged" in said or "cannot check" in said, path
    removed = {k: v for k, v in verdict.items() if k != "next"}  # a field taken away, too
    assert run(tmp_path, removed)[0] == REFUSED


def test_a_verdict_signed_by_an_older_engine_names_the_deal_event_and_what_differs(tmp_path, ring):
    older = signed(REVOKE, ring, deals__0__violations__0__proof_event=4)  # its proof at event 5, not 6
    older["provenance"]["engine"] = "0.0.9"
    older["signature"] = ring.current().sign(message(older))  # signed so by that engine
    status, said = run(tmp_path, older)
    assert status == DIFFERS, said
    assert "the signature holds" in said
    assert ("signed by version 0.0.9; this engine (referee 0.1.0) judges the record differently at deal 1, event 2: "
            "/deals/0/violations/0/proof_event is 4 in the verdict, 5 by this engine") in said


def test_the_file_s_verdict_and_its_record_digest_must_match_the_record_given(tmp_path, ring):
    verdict = signed(REVOKE, ring)
    other = {**REVOKE, "players": ["A", "B", "C", "D"]}
    status, said = run(tmp_path, verdict, record=other)
    assert status == REFUSED and "the record given is not the one this verdict judged" in said
    respelled = json.loads(json.dumps({k: REVOKE[k] for k in reversed(list(REVOKE))}))
    assert run(tmp_path, verdict, record=respelled)[0] == OK  # key order is no change


def test_a_key_retired_by_rotation_still_checks_what_it_signed_before(tmp_path, ring):
    before = signed(REVOKE, ring)
    fresh, old = rotate(ring.path)
    assert old.retired_at is not None and fresh.status == "current"
    status, said = run(tmp_path, before)
    assert status == OK, said
    assert f"key {old.id} (retired on {old.retired_at}; this verdict was signed before" in said
    after_rotation = Signer(ring.path)
    status, said = run(tmp_path, signed(REVOKE, after_rotation))
    assert status == OK and f"key {fresh.id} (current)" in said
    late = dict(before, provenance=dict(before["provenance"], signed_at="2999-01-01T00:00:00Z"))
    assert run(tmp_path, late)[0] == REFUSED  # changed: the signature covers signed_at


def test_a_revoked_key_checks_nothing(tmp_path, ring):
    before = signed(REVOKE, ring)
    rotate(ring.path, compromised=True)
    status, said = run(tmp_path, before)
    assert status == REFUSED and "revoked" in said


def test_a_key_not_given_is_not_trusted(tmp_path, ring):
    other = Signer(tmp_path / "other")
    other.keys()
    status, said = run(tmp_path, signed(REVOKE, ring), keys=str(tmp_path / "other"))
    assert status == REFUSED and "is not among the keys given" in said


def _claim_record():
    hands, events = endgame(["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"], [1, 1, 1, 0, 0, 0, 0, 3, 2, 0])
    events += [{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}]
    return {"preset": "seven-courts", "deals": [{"dealer": 0, "hands": hands, "events": events, "trump": {"suit": "S"}}]}


def test_a_claim_past_the_search_limit_is_finished_along_its_recorded_line(tmp_path, ring, monkeypatch):
    record = _claim_record()
    verdict = signed(record, ring)
    claim = verdict["deals"][0]["claim"]
    assert claim["line"] and "awarded" in claim
    assert run(tmp_path, verdict, record)[0] == OK  # this engine settles it again within its limit
    monkeypatch.setenv("REFEREE_CLAIM_MAX_NODES", "5")  # now it cannot
    status, said = run(tmp_path, verdict, record)
    assert status == INCOMPLETE, said
    assert "deal 1: the claim could not be settled again within this engine's search limit; the line the verdict " \
           "records was played through the rules instead" in said
    assert ": the same verdict" in said
    wrong = copy.deepcopy(verdict)
    wrong["deals"][0]["claim"]["line"][0]["card"] = wrong["deals"][0]["claim"]["line"][1]["card"]
    assert run(tmp_path, wrong, record)[0] == REFUSED


def test_the_command_reads_exports_batches_and_bare_verdicts_with_their_records(tmp_path, ring, capsys):
    verdict = signed(REVOKE, ring)
    bare = write(tmp_path, "v.json", verdict)
    record = write(tmp_path, "r.json", REVOKE)
    keys = str(tmp_path / "keys")
    assert main(["verify", bare, "--record", record, "--key", keys]) == OK
    assert main(["verify", bare, "--key", keys]) == INCOMPLETE
    assert "pass it with --record" in capsys.readouterr().out
    lines = tmp_path / "batch.jsonl"
    lines.write_text(json.dumps({"index": 0, "status": 200, "verdict": verdict}) + "\n")
    assert main(["verify", str(lines), "--record", record, "--key", keys]) == OK
    export = tmp_path / "export.jsonl"
    stored = signed(REVOKE, ring, place("m1", 1, None))
    export.write_text("\n".join(json.dumps(x) for x in (
        {"kind": "tournament", "tournament": {"name": "t"}},
        {"kind": "match", "id": "m1", "record": REVOKE, "verdict": stored,
         "revisions": [{"number": 1, "record": REVOKE, "verdict": stored}]})))
    capsys.readouterr()
    assert main(["verify", str(export), "--key", keys]) == OK
    assert "export.jsonl:2 revision 1: the signature holds" in capsys.readouterr().out
    assert main(["verify", record, "--key", keys]) == REFUSED  # a record is not a verdict
    assert main(["verify", bare, "--record", record, "--key", "not-a-key"]) == MALFORMED


def test_check_json_output_has_provenance_and_verifies_as_unsigned(tmp_path, capsys):
    record = write(tmp_path, "r.json", REVOKE)
    main(["check", "--json", record])
    line = json.loads(capsys.readouterr().out)
    assert line["verdict"]["signature"] is None and line["verdict"]["provenance"]["record"].startswith("sha256:")
    out = write(tmp_path, "out.json", line)
    assert main(["verify", out, "--key", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) == REFUSED
    said = capsys.readouterr().out
    assert "not signed" in said and ": the same verdict" in said  # its record found by its file and line


def test_verify_starts_without_the_web_or_the_store(tmp_path, ring):
    pair = write(tmp_path, "pair.json", {"record": REVOKE, "verdict": signed(REVOKE, ring)})
    code = ("import sys; from referee.cli import main; main(['verify', %r, '--key', %r]); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'flask', 'werkzeug', 'sqlalchemy', "
            "'marshmallow', 'jinja2', 'markdown_it', 'alembic'}))" % (pair, str(tmp_path / "keys")))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "the same verdict" in out and out.strip().splitlines()[-1] == "[]"


def test_another_build_that_judges_the_same_says_so(tmp_path, ring):
    other = signed(REVOKE, ring)
    other["provenance"]["engine_source"] = "sha256:" + "ab" * 32
    other["signature"] = ring.current().sign(message(other))
    status, said = run(tmp_path, other)
    assert status == OK and "another build than the one that signed it (version 0.1.0, engine source abababab)" in said


def test_a_public_view_of_a_live_deal_is_not_a_signed_verdict(tmp_path, ring):
    from referee.visibility import withheld

    public = signed(REVOKE, ring)
    public["provenance"], public["signature"] = withheld(public["provenance"], [0]), None
    status, said = run(tmp_path, public)
    assert status == REFUSED and "a public view, not the signed verdict: deal 1 is live" in said


# -- issue 38, item 9 ---------------------------------------------------------------------------

def chain(ring, records, match="m1") -> list[dict]:
    """An export's revisions of `match`, each signed with its place after the one before."""
    revisions = []
    for number, record in enumerate(records, 1):
        before = revisions[-1]["verdict"] if revisions else None
        revisions.append({"number": number, "record": record, "verdict": signed(record, ring, place(match, number, before))})
    return revisions


def export_of(tmp_path, match, revisions) -> str:
    path = tmp_path / "export.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in (
        {"kind": "tournament", "tournament": {"name": "t"}},
        {"kind": "match", "id": match, "record": revisions[-1]["record"], "verdict": revisions[-1]["verdict"],
         "revisions": revisions})) + "\n")
    return str(path)


RENAMED = [REVOKE, {**REVOKE, "players": ["A", "B", "C", "D"]}, {**REVOKE, "players": ["E", "F", "G", "H"]}]


def verify_export(tmp_path, match, revisions) -> tuple[int, str]:
    reports, status = verify_files([export_of(tmp_path, match, revisions)], [], [str(tmp_path / "keys")])
    return status, "\n".join(line for r in reports for line in r.lines)


def test_an_export_is_a_chain_a_dropped_revision_shows_and_the_broken_link_is_named(tmp_path, ring):
    revisions = chain(ring, RENAMED)
    assert verify_export(tmp_path, "m1", revisions)[0] == OK
    status, said = verify_export(tmp_path, "m1", [revisions[0], dict(revisions[2], number=2)])
    assert status == REFUSED and "signed as revision 3 of match m1, shown here as revision 2 of match m1: moved" in said
    status, said = verify_export(tmp_path, "m1", revisions[1:])
    assert status == REFUSED and "revision 2: the chain breaks before revision 2: it was signed after a revision" in said
    status, said = verify_export(tmp_path, "m1", [revisions[0], revisions[2]])
    assert "revision 3: the chain breaks between revision 1 and revision 3" in said


def test_an_export_s_current_verdict_is_its_last_revision_s(tmp_path, ring):
    revisions = chain(ring, RENAMED)
    path = export_of(tmp_path, "m1", revisions)
    lines = [json.loads(line) for line in Path(path).read_text().splitlines()]
    lines[1]["verdict"] = revisions[1]["verdict"]  # the current verdict swapped for an older one
    Path(path).write_text("\n".join(json.dumps(x) for x in lines))
    reports, status = verify_files([path], [], [str(tmp_path / "keys")])
    said = "\n".join(line for r in reports for line in r.lines)
    assert status == REFUSED and "the match's current record, verdict or revision number is not its last" in said


def test_a_changed_revision_breaks_the_link_after_it(tmp_path, ring):
    revisions = chain(ring, RENAMED)
    other = chain(ring, [REVOKE, {**REVOKE, "players": ["W", "X", "Y", "Z"]}])[1]  # signed, but not this chain's
    status, said = verify_export(tmp_path, "m1", [revisions[0], other, revisions[2]])
    assert status == REFUSED and "revision 3: the chain breaks between revision 2 and revision 3" in said
    assert "revision 2: the signature holds" in said  # a signed revision of its own: only the link shows


def test_a_verdict_moved_to_another_match_is_refused(tmp_path, ring):
    status, said = verify_export(tmp_path, "m2", chain(ring, RENAMED[:2], match="m1"))
    assert status == REFUSED and "signed as revision 1 of match m1, shown here as revision 1 of match m2: moved" in said
    stored = {"id": "m2", "tournament": "t", "revision": 1, "record": REVOKE,
              "verdict": signed(REVOKE, ring, place("m1", 1, None))}  # as GET /v1/matches/{id} shows it
    reports, status = verify_files([write(tmp_path, "m.json", stored)], [], [str(tmp_path / "keys")])
    assert status == REFUSED and "moved" in reports[0].lines[-2]


def test_a_verdict_of_post_verdicts_names_no_match_and_in_an_export_its_place_is_not_checked(tmp_path, ring):
    verdict = signed(REVOKE, ring)
    assert not {"match", "revision", "previous"} & set(verdict["provenance"])
    status, said = verify_export(tmp_path, "m1", [{"number": 1, "record": REVOKE, "verdict": verdict}])
    assert status == INCOMPLETE and "signed without its place among the match's revisions" in said


def test_a_key_ring_in_the_working_directory_is_not_trusted_unless_named(tmp_path, ring, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    forged = Signer(tmp_path / "referee.db.signing-keys")
    monkeypatch.setenv("REFEREE_SIGNING_KEYS", str(forged.path))
    pair = write(tmp_path, "pair.json", {"record": REVOKE, "verdict": signed(REVOKE, forged)})
    assert main(["verify", pair]) == REFUSED
    assert "and no key was given" in capsys.readouterr().out
    assert main(["verify", pair, "--key", str(forged.path)]) == OK  # named: trusted


def test_a_member_name_given_twice_is_refused_whichever_copy_was_signed(tmp_path, ring):
    verdict = signed(REVOKE, ring)
    text = json.dumps(verdict)
    doubled = '{"valid": false, ' + text[1:]  # the last copy, the signed one, is what json.loads keeps
    assert json.loads(doubled)["valid"] == verdict["valid"]
    (tmp_path / "v.json").write_text(doubled)
    reports, status = verify_files([str(tmp_path / "v.json")], [write(tmp_path, "r.json", REVOKE)],
                                   [str(tmp_path / "keys")])
    assert status == MALFORMED
    assert 'the member name "valid" appears twice in one object' in reports[0].lines[0]


def _cli(tmp_path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.cli", "verify", *args], cwd=tmp_path, capture_output=True,
                          text=True)


@pytest.mark.parametrize("how", ["key a list", "nested 600 deep", "signature a number", "provenance a list",
                                 "revision a string", "not JSON", "a key ring nested deep"])
def test_malformed_input_is_a_refusal_with_its_own_exit_status_never_a_traceback(tmp_path, ring, how):
    verdict = signed(REVOKE, ring)
    if how == "key a list":
        verdict["provenance"]["key"] = [verdict["provenance"]["key"]]
    elif how == "nested 600 deep":
        verdict["deals"][0]["deep"] = json.loads("[" * 600 + "]" * 600)
    elif how == "signature a number":
        verdict["signature"] = 7
    elif how == "provenance a list":
        verdict["provenance"] = [verdict["provenance"]]
    elif how == "revision a string":
        verdict["provenance"]["revision"] = "1"
    path = write(tmp_path, "pair.json", {"record": REVOKE, "verdict": verdict})
    if how == "not JSON":
        (tmp_path / "pair.json").write_text('{"record": ')
    keys, said = str(tmp_path / "keys"), path
    if how == "a key ring nested deep":
        (tmp_path / "deep").write_text("[" * 100_000 + "]" * 100_000)
        keys, said = str(tmp_path / "deep"), "referee verify"
    done = _cli(tmp_path, path, "--key", keys)
    assert done.returncode == MALFORMED == 4, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout.startswith(said + ": ")


def test_a_verdict_signed_the_second_after_a_rotation_is_signed_by_the_new_key(tmp_path, ring, monkeypatch):
    """The server had looked at its ring a moment before the rotation; it signs in the next
    second: with the key current then (the old one, retired a second before, would never
    verify again)."""
    import referee.verdict_signing as signing

    old = ring.current()
    fresh, retired = rotate(ring.path)
    later = "2999-01-01T00:00:00Z"  # any moment after the retirement
    monkeypatch.setattr(signing, "now", lambda: later)
    verdict = signed(REVOKE, ring)
    assert verdict["provenance"]["key"] == fresh.id != old.id
    status, said = run(tmp_path, verdict)
    assert status == OK and f"key {fresh.id} (current), signed {later}" in said


def test_a_rotation_between_the_key_taken_and_the_moment_of_signing_is_seen(tmp_path, ring, monkeypatch):
    """The ring is replaced just as the moment of signing is taken: the server looks again and
    signs with the new key; the old key's retirement is never before what it signed."""
    import referee.verdict_signing as signing

    first = ring.current()
    clock = signing.now
    rotated = []

    def rotating_now():
        if not rotated:
            rotated.append(None)
            monkeypatch.setattr(signing, "now", clock)  # rotate() takes its own times
            rotated[0] = rotate(ring.path)
            monkeypatch.setattr(signing, "now", rotating_now)
        return clock()
    monkeypatch.setattr(signing, "now", rotating_now)
    verdict = signed(REVOKE, ring)
    assert rotated and verdict["provenance"]["key"] == rotated[0][0].id != first.id
    assert run(tmp_path, verdict)[0] == OK


def test_a_rotation_dates_the_retirement_no_earlier_than_the_new_ring_is_in_place(tmp_path, ring, monkeypatch):
    import referee.verdict_signing as signing

    ring.current()
    # the new key made, the old one retired, then the ring written: past that second's end
    seconds = iter(["2026-01-01T00:00:00Z"] * 2 + ["2026-01-01T00:00:01Z"] * 3)
    monkeypatch.setattr(signing, "now", lambda: next(seconds))
    _, retired = rotate(ring.path)
    assert retired.retired_at == "2026-01-01T00:00:01Z"
    assert [k.retired_at for k in Signer(ring.path).keys() if k.status == "retired"] == ["2026-01-01T00:00:01Z"]


def test_a_file_that_cannot_be_read_says_why_once(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "nowhere.json")]) == REFUSED
    err = capsys.readouterr()
    said = err.out + err.err
    assert "cannot read: No such file or directory" in said and "cannot read it" not in said


def test_an_unsigned_verdict_is_not_chained(tmp_path, ring):
    """A server without a key ring signs nothing: the digest of its verdict would let anyone
    test a guess of a card it hid, so the revision after names none (`previous` null)."""
    unsigned = signed(REVOKE, None, place("m1", 1, None))
    assert unsigned["signature"] is None
    after = signed(RENAMED[1], ring, place("m1", 2, unsigned))
    assert after["provenance"]["previous"] is None
    status, said = verify_export(tmp_path, "m1", [{"number": 1, "record": REVOKE, "verdict": unsigned},
                                                  {"number": 2, "record": RENAMED[1], "verdict": after}])
    assert status == REFUSED and "revision 1: not signed" in said and "revision 2: the chain breaks" not in said


def test_the_keys_listed_after_a_rotation_are_the_new_ring_at_once(tmp_path, ring):
    """GET /v1/keys lists what Signer.keys() gives: a server that looked at its ring a moment
    before a rotation lists the new key as soon as it signs with it."""
    before = [k.id for k in ring.keys()]
    fresh, _ = rotate(ring.path)
    assert [k.id for k in ring.keys()] == before + [fresh.id]


def test_an_export_ends_with_a_summary_and_brief_prints_only_what_does_not_hold(tmp_path, ring, capsys):
    revisions = chain(ring, RENAMED)
    path = export_of(tmp_path, "m1", [revisions[0], revisions[2]])  # revision 2 dropped
    assert main(["verify", path, "--key", str(tmp_path / "keys")]) == REFUSED
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("2 checked: 1 hold and are judged the same, 1 refused;")
    assert out[-1].endswith("exit status 2: a signature refused (or a file unreadable)")
    assert main(["verify", path, "--key", str(tmp_path / "keys"), "--brief"]) == REFUSED
    brief = capsys.readouterr().out.splitlines()
    assert len(brief) < len(out) and brief[-1] == out[-1]
    assert all("the chain breaks" in line or "checked:" in line or "refused" in line or "revision 3" in line
               for line in brief), brief

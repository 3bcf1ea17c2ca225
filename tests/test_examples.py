"""The worked records of examples/ judge as the README says they do: the revoke, the Double
Sir pile, a claim that holds and one that fails, a session closed at the bell under
`abandoned_deal: perfect_play`, and a deal with costly plays for `referee analyse` (the
README's import lines run in tests/test_cli_restore.py)."""
import json
from pathlib import Path

from referee.cli import main
from referee.engine import adjudicate_dict
from tests.helpers import searching

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "examples"


def judged(name: str) -> dict:
    return adjudicate_dict(json.loads((EXAMPLES / name).read_text()), searching())


def test_every_example_is_a_valid_record_and_every_record_with_hands_is_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in sorted(EXAMPLES.glob("*.json")):
        assert judged(path.name)["valid"], path.name
        assert f"examples/{path.name}" in readme, path.name
    with_hands = [p.name for p in EXAMPLES.glob("*.json") if "hands" in p.read_text()]
    assert len(with_hands) >= 4


def test_the_claim_that_holds():
    """Asad (seat 0), 4-5 down with four tricks to play, claims 3; Bilal disputes; his side
    takes them against any defence: awarded 3, the deal 7-5 to team 0."""
    deal = judged("claim-holds.json")["deals"][0]
    claim = deal["claim"]
    assert (claim["seat"], claim["tricks"], claim["answer"], claim["answered_by"]) == (0, 3, "dispute", 1)
    assert claim["held"] and claim["awarded"] == 3 and claim["defence"] is None
    assert deal["tricks_won"] == [7, 5] and deal["result"]["winner"] == 0 and deal["result"]["kind"] == "win"


def test_the_claim_that_fails():
    """Chandni (seat 2), 5-4 up with four to play, claims the two her side needs; Dev
    disputes; perfect play gives her side one: awarded 1, and team 1 takes the deal 6-7."""
    deal = judged("claim-fails.json")["deals"][0]
    claim = deal["claim"]
    assert (claim["seat"], claim["tricks"], claim["answered_by"]) == (2, 2, 3)
    assert not claim["held"] and claim["can_take"] == 1 and claim["awarded"] == 1 and claim["defence"]
    assert deal["tricks_won"] == [6, 7] and deal["result"]["winner"] == 1


def test_the_session_closed_at_the_bell():
    """Deal 2 is 4-5 after nine tricks when the session is closed; the referee plays the last
    tricks by perfect play (R-32): team 1 reaches 7 (5-7) and the deal is scored."""
    verdict = judged("closed-at-the-bell.json")
    first, second = verdict["deals"]
    assert first["result"]["winner"] == 0 and first["tricks_won"] == [7, 5]
    at_close = second["at_close"]
    assert at_close["perfect_play"] and at_close["event"] == 36 and at_close["rule"] == ["R-32", "perfect.play"]
    assert len(at_close["line"]) == 12 and second["tricks_won"] == [5, 7] and second["result"]["winner"] == 1
    assert verdict["match"]["closed"] and verdict["match"]["finished"] and verdict["match"]["winner"] is None


def test_the_costly_plays_that_referee_analyse_finds(capsys):
    """Asad (seat 0) holds eleven clubs and twice plays his lowest under Bilal's club honour:
    the 2♣ of trick 3 costs 2 tricks, the 3♣ of trick 4 one, where his K♣ or A♣ was best; and
    Bilal's club leads into them cost as much (objective tricks, the default)."""
    assert main(["analyse", str(EXAMPLES / "costly-plays.json"), "--json"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    costly = [(c["trick"], c["seat"], c["card"], c["event"], c["cost"]) for c in json.loads(line)["costly"]]
    assert costly == [(3, 1, "JC", 8, "2 tricks"), (3, 0, "2C", 11, "2 tricks"), (4, 1, "QC", 12, "1 trick"),
                      (4, 0, "3C", 15, "1 trick")]
    assert main(["analyse", str(EXAMPLES / "costly-plays.json")]) == 0
    out = capsys.readouterr().out
    assert "costly: deal 1 trick 3, seat 0 played 2♣ (event 12): cost 2 tricks; best was K♣ or A♣" in out
    assert "costly: deal 1 trick 4, seat 0 played 3♣ (event 16): cost 1 trick; best was K♣ or A♣" in out
    assert "costly: deal 1 trick 3, seat 1 played J♣ (event 9): cost 2 tricks; best was 2♠, 2♥, 3♥ or 6 other cards" in out

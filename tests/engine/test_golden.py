"""Golden records: each JSON file under records/ holds a record and its expected verdict.

The expected verdicts were written by the engine, so a golden file proves nothing until a
person has checked it. How a golden file is reviewed:

1. After a deliberate change of ruling, regenerate: `python -m tests.engine.test_golden --update`.
2. Read `git diff tests/engine/records` line by line. Every changed line must be explained by
   the ruling (name it in the commit message); a change you cannot explain is a bug.
3. For a new file, check by hand, against docs/rules.md: each trick's winner, who collected,
   each violation and its proof, the result and the next dealer.

Reviewed for R-23..R-28: only `unproven` show-outs in trick 13 went away (R-27: those seats had
played all 13 cards) and the citations (`rule`, `next_dealer_rule`, `pending`) were added.
Reviewed for R-34b, R-35, R-36: no file changed (none closes during a deal or marks the hidden
card face down); three were added and checked by hand: `hidden-rung-last-card-marked-face-down`
(the verdict of `hidden-rung-last-card` with R-35 cited beside R-6), `closed-revoke-in-open-trick`
and `closed-claim-waiting`.
Reviewed for R-34a: only `closed-claim-waiting` changed, its claim's `rule` citing R-34a (the
line it gives is the line the file held).
"""
import json
import sys
from pathlib import Path

import pytest

from referee.engine import adjudicate_dict
from tests.helpers import searching

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["verdict"] is not None, f"{path.name} has no expected verdict yet"
    assert adjudicate_dict(case["record"], searching()) == case["verdict"]


def test_there_are_golden_records_for_every_preset():
    from referee.engine import PRESETS

    seen = {json.loads(p.read_text())["record"]["preset"] for p in RECORDS}
    assert seen == set(PRESETS)


def update() -> None:
    for path in RECORDS:
        case = json.loads(path.read_text(encoding="utf-8"))
        case["verdict"] = adjudicate_dict(case["record"], searching())
        path.write_text(json.dumps(case, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print("wrote", path.name)


if __name__ == "__main__" and "--update" in sys.argv:
    update()

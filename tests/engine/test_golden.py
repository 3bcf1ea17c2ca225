"""Golden records: each JSON file under records/ holds a record and its expected verdict.

Regenerate after a deliberate rule change with `python -m tests.engine.test_golden --update`,
then read the diff: every changed line is a changed ruling.
"""
import json
import sys
from pathlib import Path

import pytest

from referee.engine import adjudicate_dict

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["verdict"] is not None, f"{path.name} has no expected verdict yet"
    assert adjudicate_dict(case["record"]) == case["verdict"]


def test_there_are_golden_records_for_every_preset():
    from referee.engine import PRESETS

    seen = {json.loads(p.read_text())["record"]["preset"] for p in RECORDS}
    assert seen == set(PRESETS)


def update() -> None:
    for path in RECORDS:
        case = json.loads(path.read_text(encoding="utf-8"))
        case["verdict"] = adjudicate_dict(case["record"])
        path.write_text(json.dumps(case, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print("wrote", path.name)


if __name__ == "__main__" and "--update" in sys.argv:
    update()

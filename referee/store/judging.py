"""The store's judge: a record's signed verdict (referee/judge.py, the one judging path), an
impossible record refused: nothing impossible is stored."""
from __future__ import annotations

from referee import judge as judging
from referee.engine.settlement import Settler
from referee.verdict_signing import Signer

from .errors import Conflict
from .views import Head


def judge(record: dict, settler: Settler, signer: Signer | None = None, where: dict | None = None,
          before: Head | None = None) -> dict:
    """The record's verdict, with its provenance and signature (by `signer`'s key); an
    impossible record is refused (Conflict). `settler`: perfect play for its claims and bell
    (settlement.Stopped: no verdict). `where`: its place among the match's revisions
    (provenance.place()), signed with it. `before`: the head a live write (events appended, a
    deal added) changed, when its last deal may be judged alone."""
    verdict = judging.judge(record, settler, before=before)
    if not verdict["valid"]:
        first = verdict["errors"][0]
        at = "" if first["event"] is None else f", event {first['event'] + 1}"
        raise Conflict(f"the record would be impossible: {first['message']} (deal {first['deal'] + 1}{at})",
                       errors=verdict["errors"])
    return judging.write(verdict, record, signer, where)

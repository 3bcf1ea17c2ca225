"""The store's judge: a record's signed verdict (referee/judge.py, the one judging path), an
impossible record refused: nothing impossible is stored."""
from __future__ import annotations

from referee import judge as judging
from referee.engine.settlement import Settler
from referee.midstate import Sha256
from referee.provenance import place
from referee.verdict_signing import Signer

from .deals import Tail
from .errors import Conflict


def judge(record: dict, settler: Settler, signer: Signer | None = None, where: dict | None = None) -> dict:
    """The record's verdict, with its provenance and signature (by `signer`'s key); an
    impossible record is refused (Conflict). `settler`: perfect play for its claims and bell
    (settlement.Stopped: no verdict). `where`: its place among the match's revisions
    (provenance.place()), signed with it."""
    return judging.write(possible(judging.judge(record, settler)), record, signer, where)


def judge_tail(record: dict, at: Tail, resume: tuple[int, dict], settler: Settler, signer: Signer | None,
               match: str, revision: int) -> dict:
    """judge() of a live write's record, signed as revision `revision` of `match`: `record`
    holds its deals from the tail's last deal on (at.head's, changed), the verdict likewise.
    The deal `resume` names (judge.resumes) is judged alone, and the provenance and signature
    hash these deals from the tail's prefix: the same bytes as judging the whole."""
    index, start = resume
    old = at.head.verdict
    expected = at.expected if index == 0 else old["deals"][index - 1]["next_dealer"]
    verdict = possible(judging.judge_deal(record, at.first + index, start, expected, settler))
    verdict = {**verdict, "deals": [*old["deals"][:index], *verdict["deals"]]}
    where = place(match, revision, None)
    prefix = {**at.prefix, "verdict": Sha256(at.prefix["verdict"])}  # resumed once, for both verdicts
    if old.get("signature") is not None:  # chained as place() chains the whole verdict before
        where["previous"] = "sha256:" + judging.hashed(prefix["verdict"], old).hex()
    return judging.write_tail(verdict, record, prefix, signer, where)


def possible(verdict: dict) -> dict:
    """The verdict, if its record is possible; else Conflict, at its first error."""
    if not verdict["valid"]:
        first = verdict["errors"][0]
        at = "" if first["event"] is None else f", event {first['event'] + 1}"
        raise Conflict(f"the record would be impossible: {first['message']} (deal {first['deal'] + 1}{at})",
                       errors=verdict["errors"])
    return verdict

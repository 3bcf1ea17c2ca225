"""The budget of perfect play (referee.solver.limits, referee.budget) and the settler handed to
the engine: node limits, a request's time shared by its searches, cancellation, CPU time on
the command line, and no solver imported where no claim, bell or analysis needs it."""
import json
import re
import subprocess
import sys
import time

import pytest

from referee.budget import Budget, Limits
from referee.engine import Record, adjudicate_dict, judge
from referee.engine.settlement import Stopped
from referee.solver.limits import SearchLimit, SearchLimitExceeded
from tests.helpers import searching
from tests.solver.claim_deals import endgame

W = [1, 1, 1, 0, 0, 0, 0, 3, 2, 0]  # team 0 six tricks, team 1 four, seat 0 on lead for trick 11
FINAL = ["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"]

pytestmark = pytest.mark.usefixtures("fresh_claims")


def claim_deal(tricks: int) -> dict:
    """Three tricks left, seat 0 on lead claims `tricks`, seat 1 disputes (seven-courts, spades)."""
    hands, events = endgame(FINAL, W)
    events += [{"seat": 0, "claim": tricks}, {"seat": 1, "dispute": True}]
    return {"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": events}


def record_of(*deals, **extra) -> dict:
    return {"preset": "seven-courts", "deals": list(deals), **extra}


# -- SearchLimit: spend(n) ----------------------------------------------------------------------

def test_spending_past_the_node_limit_stops_the_search_and_says_which_limit():
    limit = SearchLimit(nodes=10)
    limit.spend(10)
    with pytest.raises(SearchLimitExceeded) as exc:
        limit.spend(1)
    assert (exc.value.reason, exc.value.nodes, exc.value.limit) == ("nodes", 11, limit)
    assert "stopped after 11 nodes" in str(exc.value) and "limit: 10 nodes" in str(exc.value)


def test_a_part_spends_the_whole_so_searches_sharing_it_cannot_multiply_it():
    whole = SearchLimit(nodes=10)
    first, second = whole.part(nodes=8), whole.part(nodes=8)
    first.spend(6)
    with pytest.raises(SearchLimitExceeded) as exc:
        second.spend(5)  # within its own 8, past the whole's 10
    assert exc.value.limit is whole and exc.value.reason == "nodes" and whole.spent == 11


def test_a_part_past_its_own_nodes_names_itself_not_the_whole():
    whole = SearchLimit(nodes=None, seconds=1000)
    part = whole.part(nodes=3)
    with pytest.raises(SearchLimitExceeded) as exc:
        part.spend(4)
    assert exc.value.limit is part and exc.value.reason == "nodes"


def test_past_its_time_the_search_stops():
    limit = SearchLimit(nodes=None, seconds=0.5, started=time.monotonic() - 1)  # began a second ago
    with pytest.raises(SearchLimitExceeded) as exc:
        limit.spend(1)
    assert exc.value.reason == "seconds" and "limit: 0.5 s" in str(exc.value)


def test_on_the_cpu_clock_waiting_is_not_searching():
    """`referee analyse --max-seconds` counts CPU time (issue 29): a loaded machine's waits do not count."""
    limit = SearchLimit(nodes=None, seconds=0.2, clock="cpu")
    time.sleep(0.4)  # the wall clock moves on; this process's CPU time hardly does
    limit.spend(1)
    spent = SearchLimit(nodes=None, seconds=0.2, clock="cpu", started=time.process_time() - 1)
    with pytest.raises(SearchLimitExceeded, match="0.2 s of CPU time"):
        spent.spend(1)


def test_a_cancelled_search_stops_at_its_next_report():
    asked = []
    limit = SearchLimit(nodes=None, cancelled=lambda: asked.append(1) or True)
    with pytest.raises(SearchLimitExceeded) as exc:
        limit.spend(1)
    assert exc.value.reason == "cancelled" and asked == [1]


def test_an_unknown_clock_is_refused():
    with pytest.raises(ValueError, match="clock must be one of wall, cpu"):
        SearchLimit(clock="sundial")


# -- the settler the engine is handed ---------------------------------------------------------

def test_without_a_settler_a_claim_is_unsettled_and_the_bell_abandons_the_deal():
    v = adjudicate_dict(record_of(claim_deal(3)))
    assert [(e["code"], e["event"]) for e in v["errors"]] == [("claim_unsettled", 40)]
    assert "not loaded here" in v["errors"][0]["message"]
    hands, events = endgame(FINAL, W)
    bell = adjudicate_dict(record_of({"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": events},
                                     closed=True, options={"abandoned_deal": "perfect_play"}))
    assert bell["deals"][0]["status"] == "abandoned" and bell["deals"][0]["at_close"]["reason"] == "no_solver"


def test_with_a_searching_settler_the_claim_is_settled():
    v = adjudicate_dict(record_of(claim_deal(3)), searching())
    assert v["valid"] and v["deals"][0]["claim"]["awarded"] == 2


def test_the_claims_of_one_record_share_its_budget():
    """The second claim's search starts with what the first left of the request's budget."""
    alone = Budget(Limits(), nodes=None)
    judge(Record.from_dict(record_of(claim_deal(3))), settler=alone.settler())
    first = alone.limit().spent  # the nodes settling the first claim takes
    from referee.solver import claims

    claims._cache.clear()
    shared = Budget(Limits(), nodes=first + 1)
    with pytest.raises(Stopped) as exc:
        judge(Record.from_dict(record_of(claim_deal(3), claim_deal(2))), settler=shared.settler())
    assert exc.value.reason == "nodes" and shared.limit().spent > first + 1  # the second claim's search spent the rest


def test_past_the_request_s_time_there_is_no_verdict_and_it_says_which_setting():
    budget = Budget(Limits(seconds=1e-9))
    with pytest.raises(Stopped) as exc:
        judge(Record.from_dict(record_of(claim_deal(3))), settler=budget.settler())
    stop = exc.value
    assert (stop.reason, stop.setting, stop.limit) == ("seconds", "REFEREE_PERFECT_PLAY_MAX_SECONDS", 1e-9)
    assert stop.retry_after >= 1 and "nothing was judged" in stop.message


def test_a_claim_past_its_own_node_limit_is_a_verdict_the_same_whatever_the_time_left():
    quick = adjudicate_dict(record_of(claim_deal(3)), Budget(Limits(claim_nodes=5, seconds=None)).settler())
    from referee.solver import claims

    claims._cache.clear()
    slow = adjudicate_dict(record_of(claim_deal(3)), Budget(Limits(claim_nodes=5, seconds=3600)).settler())
    assert quick == slow and [e["code"] for e in quick["errors"]] == ["claim_unsettled"]


def test_the_operator_s_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("REFEREE_CLAIM_MAX_NODES", "1234")
    monkeypatch.setenv("REFEREE_BELL_MAX_NODES", "5678")
    monkeypatch.setenv("REFEREE_PERFECT_PLAY_MAX_SECONDS", "0")  # 0: no time budget
    monkeypatch.setenv("REFEREE_SEARCHES_PER_PROCESS", "0")      # 0: no bound
    monkeypatch.setenv("REFEREE_SEARCHES_PER_SERVER", "3")
    monkeypatch.setenv("REFEREE_PERFECT_PLAY_WATCH_CLIENTS", "0")
    limits = Limits.from_settings({"CLAIM_MAX_NODES": 99}, "sqlite:////srv/referee.db")
    assert (limits.claim_nodes, limits.bell_nodes, limits.seconds) == (99, 5678, None)
    assert (limits.per_process, limits.per_server, str(limits.lock_dir)) == (None, 3, "/srv/referee.db.search-slots")
    assert not limits.watch_clients
    assert Limits.from_settings({}, "sqlite://").lock_dir is None  # an in-memory database is one process's


# -- the command line ---------------------------------------------------------------------------

def run_python(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_importing_referee_and_checking_a_record_without_claims_never_imports_the_solver(tmp_path):
    path = tmp_path / "plain.json"
    path.write_text(json.dumps({"preset": "seven-courts", "deals": [{"dealer": 0, "trump": {"suit": "S"},
                                                                     "events": [{"seat": 1, "play": "4C"}]}]}))
    out = run_python("import sys, referee, referee.cli\n"
                     f"referee.cli.main(['check', {str(path)!r}])\n"
                     "print('solver imported:', any(m.startswith('referee.solver') for m in sys.modules))")
    assert out.returncode == 0, out.stderr
    assert "valid record" in out.stdout and "solver imported: False" in out.stdout


def test_referee_check_past_its_time_budget_says_the_record_was_not_judged(tmp_path):
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(record_of(claim_deal(3))))
    import os

    env = {**os.environ, "REFEREE_PERFECT_PLAY_MAX_SECONDS": "0.000001"}
    out = subprocess.run([sys.executable, "-m", "referee.cli", "check", str(path)], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 2 and out.stdout == ""
    assert "not judged: perfect play for this request went past the referee's limit of 1e-06 s of CPU time" in out.stderr


def test_referee_analyse_counts_cpu_time(monkeypatch, tmp_path):
    from referee.cli import analyse as cli_analyse
    from referee.solver import OBJECTIVES, limits

    assert cli_analyse.OBJECTIVES == OBJECTIVES  # the command's choices, written without importing the solver
    made = []

    class Recording(SearchLimit):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self.clock)

    monkeypatch.setattr(limits, "SearchLimit", Recording)
    path = tmp_path / "costly.json"
    path.write_text((__import__("pathlib").Path(__file__).parent / "solver" / "records" / "one-costly-play.json").read_text())
    assert cli_analyse.analyse(cli_analyse_args(path)) == 0
    assert made and set(made) == {"cpu"}


def cli_analyse_args(path):
    from referee.cli import build_parser

    return build_parser().parse_args(["analyse", str(path), "--max-nodes", "20000"])


def test_referee_import_past_its_time_budget_rejects_the_record_and_stores_nothing(tmp_path):
    import os

    url = f"sqlite:///{tmp_path / 'referee.db'}"
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(record_of(claim_deal(3))))
    env = {**os.environ, "REFEREE_PERFECT_PLAY_MAX_SECONDS": "0.000001"}

    def referee(*args):
        return subprocess.run([sys.executable, "-m", "referee.cli", *args, "--database", url], capture_output=True,
                              text=True, env=env, timeout=120)
    made = referee("tournaments", "create", "T", "--preset", "seven-courts")
    assert made.returncode == 0, made.stdout + made.stderr
    tid = re.search(r"^tournament (\w+)", made.stdout, re.M).group(1)
    out = referee("import", str(path), "--tournament", tid)
    assert out.returncode == 1 and "0 new" in out.stdout and "1 rejected" in out.stdout, out.stdout + out.stderr
    assert "not judged: perfect play for this request went past the referee's limit of 1e-06 s of CPU time" in out.stdout

"""Where the app side of a live card goes (issue 39, many tables): bench_append_split.py (one
process, `POST /v1/matches/{id}/events` through Flask's test client, each section's own CPU
a card, a few hundred cards at deal 30) with the app's parts taken apart as well, and summed
by part at the end: the deal judged (its record read, the engine's judge_last), the
provenance and signature (the hashes resumed from the deal row's midstate, the key ring
looked at, Ed25519), the feed diff's views of the deal (visibility.PublicView), the answer
(its JSON, the summary, the match's URL), the body (received, read) and Flask around the view.

    python bench/bench_live_app.py                        # SQLite, 300 cards at deal 30
    python bench/bench_live_app.py --database postgresql --cards 600

The same arguments as bench_append_split.py. Figures only: no assertion; not part of the tests.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_append_split as split  # noqa: E402

# (module, attribute, section), wrapped as bench_append_split wraps its own; a name a tree
# lacks is left out (an older answer wrote its JSON with jsonify and url_for)
APP = [
    ("referee.judge", "read", "judge: the deal's record read"),
    ("referee.judge", "judge_last", "judge: the engine's judge_last"),
    ("referee.judge", "hashed", "signing: hashes resumed (midstate)"),
    ("referee.provenance", "provenance", "signing: provenance"),
    ("referee.verdict_signing", "sign_provenance", "signing: the key ring looked at"),
    ("referee.verdict_signing", "Key.sign", "signing: Ed25519"),
    ("referee.store.publishing", "PublicView", "feed: the deal's views (R-31)"),
    ("referee.api.tournaments", "jsonify", "answer: jsonify"),
    ("referee.api.tournaments", "url_for", "answer: the match's URL"),
    ("referee.api.tournaments", "match_url", "answer: the match's URL"),
    ("referee.store.views", "summary", "answer: the summary"),
    ("referee.api.tournaments", "read_json_later", "body: received"),
    ("flask.app", "Flask.wsgi_app", "flask: around the view"),
    ("flask.app", "Flask.full_dispatch_request", "flask: around the view"),
    ("flask.app", "Flask.finalize_request", "flask: around the view"),
    ("flask.app", "Flask.request_context", "flask: around the view"),
    ("flask.app", "Flask.do_teardown_request", "flask: around the view"),
    ("flask.app", "Flask.dispatch_request", "the view and the store, but their sections"),
]
PARTS = {
    "the deal judged": ("the deal judged", "judge:"),
    "provenance and signature": ("provenance and signature", "signing:"),
    "the feed diff's views": ("feed:",),
    "the answer": ("answer",),
    "the body": ("body",),
    "Flask around the view": ("flask:",),
}


class Kept(split.Timer):
    """bench_append_split's timer, kept for the sums by part."""

    made: list[split.Timer] = []

    def __init__(self) -> None:
        super().__init__()
        Kept.made.append(self)


def main() -> None:
    split.SECTIONS.extend(APP)
    split.Timer = Kept
    split.__doc__ = __doc__
    split.main()
    timer = Kept.made[-1]
    cards = timer.calls.get("the deal judged") or 1
    print("the app's parts, summed (ms of CPU a card):")
    for part, starts in PARTS.items():
        own = sum(t for section, t in timer.own.items() if section.startswith(starts))
        print(f"  {own / cards * 1000:6.3f} ms  {part}")


if __name__ == "__main__":
    main()

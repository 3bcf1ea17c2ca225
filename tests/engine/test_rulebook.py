"""The rulebook (docs/rules.md) and the code agree: every id the code cites exists, every rule
is cited by code or marked descriptive, and every code and kind a verdict can carry has a rule."""
import re
from pathlib import Path

import pytest

from referee.engine.errors import ERROR_RULES
from referee.engine.options import SCORINGS
from referee.engine.rulebook import ID, catalogue, parse
from referee.engine.scoring import KIND_RULES, SCORING_RULES
from referee.engine.trump import REVEAL_RULES
from referee.engine.violations import BREACH_RULES

PACKAGE = Path(__file__).parents[2] / "referee"
PREFIXES = "table|trick|revoke|trump|collection|pile|end|streak|score|mendikot|match|dealer|record|preset|option|perfect"
CITED = re.compile(rf"[\"'](R-\d+[a-z]?|(?:{PREFIXES})\.[a-z0-9_.-]+)[\"']")


FEED_EVENTS = {"match.finished", "match.revised", "trick.finished", "trick.revised"}  # the feed's event types, not rule ids


def cited_in_code() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        found |= set(CITED.findall(path.read_text(encoding="utf-8")))
    return found - FEED_EVENTS


def test_every_id_cited_in_the_code_is_in_the_rulebook():
    missing = sorted(cited_in_code() - set(catalogue()))
    assert missing == []


def test_every_rule_is_cited_by_the_code_or_marked_descriptive():
    cited = cited_in_code()
    uncited = [r.id for r in catalogue().values() if not r.descriptive and r.id not in cited
               and not r.id.startswith("R-")]
    assert uncited == []


def test_rulings_one_to_thirty_all_exist_with_text():
    rules = catalogue()
    for n in range(1, 31):
        assert rules[f"R-{n}"].text, n


@pytest.mark.parametrize("table", [BREACH_RULES, KIND_RULES, ERROR_RULES, REVEAL_RULES, SCORING_RULES],
                         ids=["violations", "result kinds", "record errors", "reveals", "scorings"])
def test_every_code_and_kind_maps_to_rules_that_exist(table):
    rules = catalogue()
    for code, ids in table.items():
        ids = [ids] if isinstance(ids, str) else ids
        assert ids and all(i in rules for i in ids), code


def test_every_scoring_system_and_result_kind_is_covered():
    assert set(SCORING_RULES) == set(SCORINGS)
    kinds = {"win", "court", "goon_court", "bavney", "penalty_court", "sweep", "kot", "mendi", "mendikot", "whitewash",
             "bid_made", "bid_failed", "deciding_pair", "no_pair", "last_trick"}
    assert set(KIND_RULES) == kinds


def test_every_preset_and_option_is_described():
    from referee.engine import PRESETS, Options

    rules = catalogue()
    for name in PRESETS:
        assert rules[f"preset.{name}"].text
    for name in Options().as_dict():
        assert rules[f"option.{name}"].text


def test_the_parser_reads_ids_titles_metadata_and_text():
    rules = parse("## 1. A\n\n### a.b — Title\nText one.\n\n*Options:* `x`, `y`. *Presets:* p, q.\n"
                  "### R-9 — Other\nMore.\n\n*Descriptive.*\n## 2. B\nnot a rule\n")
    assert list(rules) == ["a.b", "R-9"]
    assert rules["a.b"].title == "Title" and rules["a.b"].text == "Text one."
    assert rules["a.b"].options == ("x", "y") and rules["a.b"].presets == ("p", "q")
    assert rules["R-9"].descriptive and rules["R-9"].section == "1. A"
    assert re.fullmatch(ID, "option.pile_no_collect_after")


SECTIONS = {"table": 1, "trick": 2, "revoke": 3, "trump": 4, "collection": 5, "pile": 5, "end": 6, "streak": 6,
            "score": 7, "mendikot": 7, "match": 8, "dealer": 8, "record": 9, "preset": 10, "option": 11, "R": 12, "perfect": 13}


def test_each_rule_is_in_the_section_of_its_topic():
    """The section a reader looks in (`## 5. Where won tricks go` holds every pile rule)."""
    misplaced = [(r.id, r.section) for r in catalogue().values()
                 if not r.section.startswith(f"{SECTIONS[r.id.split('-' if r.id.startswith('R-') else '.')[0]]}. ")]
    assert misplaced == []


def test_the_rulebooks_own_section_references_name_those_sections():
    text = (PACKAGE.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    titles = dict(re.findall(r"^## (\d+)\. (.+)$", text, re.M))
    assert titles["10"] == "Presets" and titles["11"] == "Options" and titles["12"] == "Rulings"
    last = max(int(m) for m in re.findall(r"^### R-(\d+) — ", text, re.M))
    assert f"each **preset** sets (sections 11 and 10), or a **ruling** (ids `R-1` to `R-{last}`,\nsection 12" in text


def test_the_records_violation_table_names_every_rule_a_golden_violation_cites():
    """docs/records.md: a violation's row and the note below it name each rule it can carry."""
    import json

    text = (PACKAGE.parent / "docs" / "records.md").read_text(encoding="utf-8")
    table = text[text.index("### Violations"):text.index("### Record errors")]
    rows = {m.group(1): set(re.findall(r"`([^`]+)`", m.group(2)))
            for m in re.finditer(r"^\| `(\w+)` \|[^|]*\|(.*)\|$", table, re.M)}
    note = set(re.findall(r"`([^`]+)`", table[table.index("adds how it was proven"):]))
    missing = set()
    for path in (Path(__file__).parent / "records").glob("*.json"):
        for deal in json.loads(path.read_text(encoding="utf-8"))["verdict"]["deals"]:
            for v in deal["violations"]:
                missing |= {(v["code"], r) for r in v["rule"] if r not in rows[v["code"]] | note}
    assert missing == set()


# A preset's `end` (GET /v1/presets, Options.end) and the rule that says it.
END_RULES = {"seven": "end.seven", "pile": "end.pile", "thirteen": "end.thirteen", "bid": "end.bid",
             "pair": "end.deciding-pair"}


def test_the_scoring_option_names_each_preset_that_changes_it_and_every_end():
    """option.scoring's `Changed by` names each preset whose scoring is not the default, with that
    scoring, and its text every end of a deal a preset has, with the end's rule."""
    from referee.engine.options import PRESETS, Options, preset_options
    from referee.engine.rulebook import explained

    text = catalogue()["option.scoring"].text
    changed = re.search(r"Changed by (.*?\))\.", text, re.S).group(1)
    named = {}
    for names, scoring in re.findall(r"([^()]+)\(([^()]+)\)", changed):
        for word in re.findall(r"[a-z][a-z0-9*-]*", names):
            named |= {name: scoring for name in PRESETS if name == word or word == "rr-*" and name.startswith("rr-")}
    assert named == {name: preset_options(name).scoring for name in PRESETS
                     if preset_options(name).scoring != Options().scoring}
    ends = {preset["end"] for preset in explained()["presets"]}
    assert ends == set(END_RULES)
    ticked = set(re.findall(r"`([^`]+)`", text.split("The end of a deal", 1)[1]))
    assert {*END_RULES, *END_RULES.values()} - ticked == set()
    assert set(END_RULES.values()) <= set(catalogue())

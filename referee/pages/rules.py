"""The rulebook page: docs/rules.md rendered with markdown-it-py, an anchor per rule id."""
from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, render_template
from markdown_it import MarkdownIt
from markupsafe import Markup

from referee.engine import catalogue
from referee.engine.rulebook import RULEBOOK, heading_id

bp = Blueprint("pages_rules", __name__)


def _anchor_headings(md: MarkdownIt) -> None:
    """Give each rule heading the rule's id (`### trick.follow — ...` -> id="trick.follow"),
    so that `/rules#trick.follow` opens at it."""

    def rule(state) -> None:
        tokens = state.tokens
        for k, token in enumerate(tokens[:-1]):
            if token.type == "heading_open":
                anchor = heading_id(tokens[k + 1].content)
                if anchor:
                    token.attrSet("id", anchor)

    md.core.ruler.push("rule_anchors", rule)


@lru_cache(maxsize=1)
def rulebook_html() -> Markup:
    md = MarkdownIt("commonmark")
    _anchor_headings(md)
    return Markup(md.render(RULEBOOK.read_text(encoding="utf-8")))  # our own file, not user input


@lru_cache(maxsize=1)
def contents() -> list[dict]:
    """The rulebook's contents: each section (its anchor, as heading_id gives it) with its
    rules' ids and titles, in the rulebook's order."""
    sections: dict[str, dict] = {}
    for r in catalogue().values():
        section = sections.setdefault(r.section, {"title": r.section, "anchor": heading_id(r.section), "rules": []})
        section["rules"].append({"id": r.id, "title": r.title})
    return list(sections.values())


@bp.get("/rules", endpoint="rulesPage")
def rules_page():
    return render_template("rules.html", rulebook=rulebook_html(), contents=contents())


def cited(value, found: dict[str, None] | None = None) -> dict[str, None]:
    """Every rule id a verdict cites (`rule`, `next_dealer_rule`, ...), in order of first citation."""
    found = {} if found is None else found
    if isinstance(value, dict):
        for name, inner in value.items():
            if name.endswith("rule") and isinstance(inner, list):
                found.update((i, None) for i in inner if isinstance(i, str))
            else:
                cited(inner, found)
    elif isinstance(value, list):
        for inner in value:
            cited(inner, found)
    return found


@lru_cache(maxsize=None)
def rule_html(rule_id: str) -> Markup:
    return Markup(MarkdownIt("commonmark").render(catalogue()[rule_id].text))  # our own rulebook


@bp.app_context_processor
def _rule_texts() -> dict:
    def cited_rules(verdict: dict) -> list:
        """The rules a verdict cites with their text, as the printed decision lists them."""
        rules = catalogue()
        return [{"id": i, "title": rules[i].title, "html": rule_html(i)} for i in cited(verdict) if i in rules]
    return {"cited_rules": cited_rules}

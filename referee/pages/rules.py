"""The rulebook page: docs/rules.md rendered with markdown-it-py, an anchor per rule id."""
from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, render_template
from markdown_it import MarkdownIt
from markupsafe import Markup

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


@bp.get("/rules", endpoint="rulesPage")
def rules_page():
    return render_template("rules.html", rulebook=rulebook_html())

"""The rulebook's catalogue: every rule's id, title, text, options and presets, read from
the project's rulebook (docs/rules.md), the one source of the rule texts.

A rule is a level-3 heading `### <id> — <title>`, its text runs to the next heading, and
its last lines may say `*Options:* ...`, `*Presets:* ...` and `*Descriptive.*`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

RULEBOOK = Path(__file__).resolve().parents[1] / "shipped" / "rules.md"  # docs/rules.md, shipped in the package
ID = r"R-\d+[a-z]?|[a-z]+(?:\.[a-z0-9_-]+)+"
_HEADING = re.compile(rf"^### ({ID}) — (.+)$")
_TICKED = re.compile(r"`([^`]+)`")


class Rule(NamedTuple):
    id: str
    title: str
    text: str                  # Markdown, without the heading and the metadata lines
    section: str
    options: tuple[str, ...]
    presets: tuple[str, ...]   # names, or ("all",)
    descriptive: bool          # explains the game; no verdict cites it

    def as_dict(self) -> dict:
        return {"id": self.id, "title": self.title, "section": self.section, "text": self.text,
                "options": list(self.options), "presets": list(self.presets),
                "descriptive": self.descriptive, "url": f"/rules#{self.id}"}


def _meta(lines: list[str]) -> tuple[tuple[str, ...], tuple[str, ...], bool, list[str]]:
    options: tuple[str, ...] = ()
    presets: tuple[str, ...] = ()
    descriptive = False
    body = []
    for line in lines:
        if line.startswith("*Options:*") or line.startswith("*Presets:*") or line.startswith("*Descriptive"):
            descriptive = descriptive or "*Descriptive.*" in line
            opt = re.search(r"\*Options:\*(.*?)(?:\*Presets:\*|\*Descriptive|$)", line)
            pre = re.search(r"\*Presets:\*(.*?)(?:\*Descriptive|$)", line)
            if opt:
                options = tuple(_TICKED.findall(opt.group(1)))
            if pre:
                presets = tuple(p.strip(" .") for p in pre.group(1).split(",") if p.strip(" ."))
        else:
            body.append(line)
    return options, presets, descriptive, body


def parse(text: str) -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    section = ""
    current: tuple[str, str] | None = None
    lines: list[str] = []

    def close() -> None:
        if current is not None:
            options, presets, descriptive, body = _meta(lines)
            rid, title = current
            rules[rid] = Rule(rid, title, "\n".join(body).strip(), section, options, presets, descriptive)

    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading or line.startswith("## ") or line.startswith("### "):
            close()
            current, lines = None, []
            if heading:
                current = heading.group(1), heading.group(2).strip()
            elif line.startswith("## "):
                section = line[3:].strip()
            continue
        if current is not None:
            lines.append(line)
    close()
    return rules


@lru_cache(maxsize=1)
def catalogue() -> dict[str, Rule]:
    """Every rule of the rulebook by id, in the rulebook's order."""
    return parse(RULEBOOK.read_text(encoding="utf-8"))


def rule(rule_id: str) -> Rule | None:
    return catalogue().get(rule_id)


def heading_id(heading: str) -> str | None:
    """The anchor of a rulebook heading: the rule id (`trick.follow — Follow suit`), or for a
    section (`2. Playing a trick`) `section-2`."""
    found = re.match(rf"^({ID}) — ", heading)
    if found:
        return found.group(1)
    section = re.match(r"^(\d+)\. ", heading)
    return f"section-{section.group(1)}" if section else None


def explained() -> dict:
    """Every preset and option with the rulebook's words (GET /v1/presets, `referee presets`)."""
    from .options import ALIASES, CHOICES, PRESETS, Options, preset_options

    rules = catalogue()
    presets = []
    for name in PRESETS:
        about, options = rules[f"preset.{name}"], preset_options(name)
        presets.append({"name": name, "title": about.title, "description": about.text, "rule": about.id,
                        "options": options.as_dict(), "end": options.end})
    options = {}
    for name, value in Options().as_dict().items():
        about = rules[f"option.{name}"]
        options[name] = {"default": value, **({"values": list(CHOICES[name])} if name in CHOICES else {}),
                         "title": about.title, "description": about.text, "rule": about.id}
    for name, (spells, _, _) in ALIASES.items():
        about = rules[f"option.{name}"]
        options[name] = {"default": False, "alias_of": spells, "title": about.title, "description": about.text,
                         "rule": about.id}
    return {"presets": presets, "options": options}

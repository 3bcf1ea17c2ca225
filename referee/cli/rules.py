"""`referee presets` and `referee rule ID`: the rulebook from the command line, as
GET /v1/presets and GET /v1/rules/{id} give it (no server, no database)."""
from __future__ import annotations

import sys
import textwrap

from referee import jsontext

NOT_FOUND = 2


def _wrap(text: str, indent: str = "    ") -> str:
    paragraphs = [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
    return "\n".join(textwrap.fill(p, 96, initial_indent=indent, subsequent_indent=indent) for p in paragraphs)


def presets(args) -> int:
    from referee.engine.rulebook import explained

    listing = explained()
    if args.json:
        sys.stdout.write(jsontext.dumps_line(listing))
        return 0
    if args.name:
        known = {p["name"]: p for p in listing["presets"]}
        if args.name not in known:
            print(f"referee presets: no preset {args.name!r}{_did_you_mean(args.name, known)}", file=sys.stderr)
            return NOT_FOUND
        p = known[args.name]
        print(f"{p['name']}: {p['title']} (rule {p['rule']})")
        print(_wrap(p["description"]))
        print("  options:")
        for name, value in p["options"].items():
            print(f"    {name} = {jsontext.dumps_line(value).strip()}")
        return 0
    width = max(len(p["name"]) for p in listing["presets"])
    for p in listing["presets"]:
        print(f"{p['name']:{width}}  {p['title']}")
    print(f"{len(listing['presets'])} presets; `referee presets NAME` shows one with its options, "
          "`--option NAME=VALUE` changes one in a tournament")
    return 0


def _did_you_mean(name: str, known) -> str:
    from referee.engine.errors import did_you_mean

    return did_you_mean(name, known)


def rule(args) -> int:
    from referee.engine.rulebook import catalogue

    rules = catalogue()
    found = rules.get(args.id)
    if found is None:
        print(f"referee rule: no rule {args.id!r} in the rulebook{_did_you_mean(args.id, rules)}", file=sys.stderr)
        return NOT_FOUND
    if args.json:
        sys.stdout.write(jsontext.dumps_line(found.as_dict()))
        return 0
    print(f"{found.id} — {found.title} ({found.section})")
    print(_wrap(found.text, ""))
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("presets", help="every preset (a game as one tradition plays it), or one with its options")
    p.add_argument("name", nargs="?", metavar="PRESET", help="show this preset's description and options")
    p.add_argument("--json", action="store_true", help="every preset and option as GET /v1/presets gives them")
    p.set_defaults(run=presets)
    p = sub.add_parser("rule", help="a rule of the rulebook by its id (as verdicts cite it, e.g. trick.follow)")
    p.add_argument("id", metavar="ID")
    p.add_argument("--json", action="store_true", help="the rule as GET /v1/rules/{id} gives it")
    p.set_defaults(run=rule)

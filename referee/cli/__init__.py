"""The command line, `referee COMMAND`: a module per group of commands, each adding its own.

- check.py: `referee check` (records judged offline);
- analyse.py: `referee analyse` (perfect play over recorded deals);
- signatures.py: `referee verify` (signed verdicts checked offline) and `referee signing-keys`;
- database.py: the operator's commands on a database (`db upgrade`, `import`, `export`, `keys`);
- serve.py: `referee serve` (gunicorn and the delivery worker) and `referee deliver`;
- director.py: the director's (`tournaments`, `standings`, `disputes`, `close`).

Building the parser imports none of the web, the store, the solver or the signing code: each
command imports what it needs when it runs, so `referee check` starts without them."""
from __future__ import annotations

import argparse

from . import analyse, check, database, director, serve, signatures


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="The Court Piece referee.")
    sub = parser.add_subparsers(dest="command", required=True)
    for commands in (check, database, serve, analyse, director, signatures):
        commands.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)

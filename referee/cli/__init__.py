"""The command line, `referee COMMAND`: a module per group of commands, each adding its own.

- check.py: `referee check` (records judged offline);
- analyse.py: `referee analyse` (perfect play over recorded deals);
- signatures.py: `referee verify` (signed verdicts checked offline) and `referee signing-keys`;
- database.py: the operator's commands on a database (`db upgrade`, `import`, `export`, `keys`);
- serve.py: `referee serve` (gunicorn and the delivery worker) and `referee deliver`;
- director.py: the director's (`tournaments`, `matches`, `standings`, `disputes`, `close`, `correct`);
- rules.py: the rulebook's (`presets`, `rule`).

Building the parser imports none of the web, the store, the solver or the signing code: each
command imports what it needs when it runs, so `referee check` starts without them. A command
named on the command line imports and builds only its own module's parser (argparse takes a
few milliseconds a command); `referee --help`, or a name that is no command, builds them all."""
from __future__ import annotations

import argparse
import os
import sys

MODULES = ("check", "database", "serve", "analyse", "director", "rules", "signatures")  # in `referee --help`'s order
# Which module adds each command (tests/test_cli.py checks it against what each module adds).
COMMANDS = {"check": "check", "db": "database", "import": "database", "export": "database", "keys": "database",
            "serve": "serve", "deliver": "serve", "analyse": "analyse", "tournaments": "director",
            "standings": "director", "disputes": "director", "close": "director", "matches": "director", "correct": "director",
            "presets": "rules", "rule": "rules", "verify": "signatures",
            "signing-keys": "signatures"}


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size() finds it (COLUMNS, then the
    terminal, else 80), without importing shutil and the compression modules it imports."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


class _Commands(argparse._SubParsersAction):
    """A command's one-line help is also the opening of its own --help (`referee serve --help`
    says what serve does), unless it has a longer description of its own."""

    def add_parser(self, name, **kwargs):
        if kwargs.get("help") and not kwargs.get("description"):
            text = kwargs["help"]
            kwargs["description"] = text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
        return super().add_parser(name, **kwargs)


class _Parser(argparse.ArgumentParser):
    """Every parser of the command line (subcommands' too) with the formatter above."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self.register("action", "parsers", _Commands)


def build_parser(modules: tuple[str, ...] = MODULES) -> argparse.ArgumentParser:
    parser = _Parser(prog="referee", description="The Court Piece referee.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in modules:
        # __import__ rather than importlib.import_module, so that -X importtime shows the command's imports
        __import__(f"{__name__}.{name}", fromlist=["add_commands"]).add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    named = COMMANDS.get(argv[0]) if argv else None
    args = build_parser((named,) if named else MODULES).parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:  # the reader stopped reading (`referee standings T | head -3`): not an error
        return _reader_gone()


def _reader_gone() -> int:
    """What Python's documentation advises on SIGPIPE: what is still buffered for standard
    output goes nowhere, so the interpreter's exit does not fail on it again; the status is
    the shell's for a command ended by SIGPIPE."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + 13

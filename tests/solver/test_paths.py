"""The two paths of the one search: the core modules compiled by the install (each in its
source's place) and the same modules run as Python. They are one source, so they must give the same answers, nodes
included; the compiled one runs only when it was built from the source beside it; and the
install goes on, the search in Python, where no C compiler can build it."""
import importlib.util
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.engine import resolve
from referee.solver import Solver, loader

from .positions import random_position
from .test_against_minimax import GROUPS

ROOT = Path(__file__).resolve().parents[2]


def test_under_ci_the_compiled_core_is_the_one_in_use():
    if os.environ.get("CI"):
        assert loader.COMPILED, f"the compiled solver core is not in use ({loader.STATE})"
    assert loader.STATE in ("compiled", "python", "stale")


@pytest.mark.parametrize("preset,overrides,reveal_rate", GROUPS[::3], ids=[f"{p}{o or ''}" for p, o, _ in GROUPS[::3]])
@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), left=st.integers(1, 5), in_trick=st.integers(0, 3),
       objective=st.sampled_from(["score", "tricks"]))
def test_both_paths_give_the_same_answer_by_the_same_search(preset, overrides, reveal_rate, seed, left, in_trick, objective):
    if not loader.COMPILED:
        pytest.skip(f"the compiled solver core is not in use here ({loader.STATE})")
    options = resolve(preset, overrides)
    deal = random_position(preset, random.Random(seed), left, in_trick, options, reveal_rate)
    assume(deal is not None)
    compiled = Solver(objective, loader.Search).solve(deal)
    python = Solver(objective, loader.python_search()).solve(deal)
    assert compiled == python  # values, lines, results and the very node count


@pytest.mark.parametrize("preset,overrides,reveal_rate", GROUPS[1::4], ids=[f"{p}{o or ''}" for p, o, _ in GROUPS[1::4]])
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), left=st.integers(1, 4), in_trick=st.integers(0, 3))
def test_both_paths_count_alike_by_the_same_exact_count_search(preset, overrides, reveal_rate, seed, left, in_trick):
    """core_exact's "does some line give a count in W?" for every count and every f question."""
    if not loader.COMPILED:
        pytest.skip(f"the compiled solver core is not in use here ({loader.STATE})")
    options = resolve(preset, overrides)
    deal = random_position(preset, random.Random(seed), left, in_trick, options, reveal_rate)
    assume(deal is not None)
    deal.play_all = False
    answers = []
    for core in (loader.Search, loader.python_search()):
        search = Solver("exact", core).prepare(deal, deal.to_play & 1).search
        answers.append([search.reaches(1 << k) for k in range(14)] + [search.reaches((1 << t) - 1) for t in range(14)]
                       + [search.nodes])
    assert answers[0] == answers[1]


def test_the_rule_kernel_is_the_engines_file_on_both_paths():
    """One home for the trick-level rules: the Python core runs referee/engine/kernel.py (the
    engine's own) as Python; the compiled core runs it compiled as core_kernel, built from
    that very file (the digest covers it)."""
    loader.python_search()
    for module, file in (("core_kernel", "kernel.py"), ("core_kernel_play", "kernel_play.py")):
        python_kernel = importlib.import_module(loader.PYTHON + "." + module)
        assert Path(python_kernel.__file__).resolve() == ROOT / "referee" / "engine" / file
        assert loader.source(module).resolve() == ROOT / "referee" / "engine" / file
        assert "../engine/" + file in loader.SOURCES
        if loader.COMPILED:
            compiled = importlib.import_module("referee.solver." + module)
            assert Path(compiled.__file__).name.startswith(module + ".cpython")


@settings(max_examples=200, deadline=None, derandomize=True)
@given(cards=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 12), st.booleans(), st.booleans()), min_size=1, max_size=4),
       trump=st.integers(-1, 3))
def test_both_kernels_name_the_same_trick_winner(cards, trump):
    if not loader.COMPILED:
        pytest.skip(f"the compiled solver core is not in use here ({loader.STATE})")
    from referee.engine import kernel
    from referee.solver import core_kernel
    packed = 0
    for k, (suit, rank, trumped, down) in enumerate(cards):
        packed |= kernel.table_card(suit, rank, trumped and not down, down and k > 0) << (8 * k)
    assert core_kernel.trick_winner(packed, len(cards), trump) == kernel.trick_winner(packed, len(cards), trump)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(preset=st.sampled_from(["seven-courts", "court-piece", "double-sir", "mendikot", "band-rang", "dehla-pakad"]),
       mode=st.sampled_from(["called", "hidden"]), caller=st.integers(0, 3), number=st.integers(1, 13),
       won=st.tuples(st.integers(0, 13), st.integers(0, 13)), tens=st.tuples(st.integers(0, 4), st.integers(0, 4)),
       seat=st.integers(0, 3), play_on=st.booleans(), first_seven=st.integers(-1, 1),
       run=st.tuples(st.integers(-1, 3), st.integers(0, 2), st.booleans()), ace=st.booleans(), revealed=st.integers(-1, 12))
def test_both_kernels_end_a_deal_alike(preset, mode, caller, number, won, tens, seat, play_on, first_seven, run, ace, revealed):
    """deal_end and pair_step, compiled and as Python, on drawn states of every end mode."""
    if not loader.COMPILED:
        pytest.skip(f"the compiled solver core is not in use here ({loader.STATE})")
    from referee.engine import kernel
    from referee.solver import core_kernel
    python = kernel.rules_of(resolve(preset, {}), mode, caller, caller & 1, 0)
    compiled = core_kernel.rules_like(python)
    assert (core_kernel.deal_end(compiled, number, *won, *tens, seat & 1, play_on, first_seven)
            == kernel.deal_end(python, number, *won, *tens, seat & 1, play_on, first_seven))
    state = kernel.pair_state(*run)
    assert (core_kernel.pair_step(compiled, state, number, seat, ace, revealed)
            == kernel.pair_step(python, state, number, seat, ace, revealed))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(preset=st.sampled_from(["hidden-rung", "band-rang", "court-piece"]), mode=st.sampled_from(["hidden", "band"]),
       band=st.sampled_from(["ask", "auto", "auto_must_trump"]), caller_reveals=st.booleans(), caller=st.integers(0, 3),
       seat=st.integers(0, 3), k=st.integers(0, 3), flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
       asker=st.integers(-1, 3), obliged=st.integers(-1, 3))
def test_both_kernels_reveal_the_trump_alike(preset, mode, band, caller_reveals, caller, seat, k, flags, asker, obliged):
    """may_reveal, must_trump, reveal_at_play and ask_obliges, compiled and as Python."""
    if not loader.COMPILED:
        pytest.skip(f"the compiled solver core is not in use here ({loader.STATE})")
    from referee.engine import kernel
    from referee.solver import core_kernel
    from referee.engine import kernel_play
    from referee.solver import core_kernel_play
    options = resolve(preset, {"band_reveal": band, "band_caller_reveals": caller_reveals})
    python = kernel.rules_of(options, mode, caller, caller & 1, 0)
    compiled = core_kernel.rules_like(python)
    first, second, hidden = flags
    for kern, rules in ((kernel_play, python), (core_kernel_play, compiled)):
        got = (kern.may_reveal(rules, seat, k == 0, first), kern.must_trump(rules, seat, asker, obliged, hidden),
               kern.reveal_at_play(rules, seat, k, first, second), kern.ask_obliges(rules))
        if kern is kernel_play:
            expected = got
    assert got == expected


@settings(max_examples=300, deadline=None, derandomize=True)
@given(preset=st.sampled_from(["hidden-rung", "band-rang", "mendikot", "court-piece"]),
       mode=st.sampled_from(["called", "hidden", "band"]), band=st.sampled_from(["ask", "auto", "auto_must_trump"]),
       caller=st.integers(0, 3), seat=st.integers(0, 3), lead=st.booleans(), led=st.integers(0, 3),
       held=st.integers(0, 15), trump=st.integers(-1, 3), hsuit=st.integers(-1, 3), lmt=st.booleans(),
       asker=st.integers(-1, 3), obliged=st.integers(-1, 3))
def test_both_kernels_name_the_same_legal_suits(preset, mode, band, caller, seat, lead, led, held, trump, hsuit, lmt,
                                                asker, obliged):
    """legal_suits, follow_suit and ruff_suit, compiled and as Python."""
    if not loader.COMPILED:
        pytest.skip(f"the compiled solver core is not in use here ({loader.STATE})")
    from referee.engine import kernel, kernel_play
    from referee.solver import core_kernel, core_kernel_play
    python = kernel.rules_of(resolve(preset, {"band_reveal": band}), mode, caller, caller & 1, 0)
    compiled = core_kernel.rules_like(python)
    led = -1 if lead else led
    got = [(kern.legal_suits(rules, seat, lead, led, held, trump, hsuit, lmt, asker, obliged),
            kern.follow_suit(lead, led, trump, lmt), kern.ruff_suit(rules, seat, led, trump, hsuit, asker, obliged))
           for kern, rules in ((kernel_play, python), (core_kernel_play, compiled))]
    assert got[0] == got[1]


def test_a_compiled_core_built_from_another_source_is_not_used(monkeypatch):
    if not loader.compiled_files():
        pytest.skip("no compiled core here")
    monkeypatch.setattr(loader, "source_digest", lambda: "another source")
    assert loader._choose() == (loader.python_search(), "stale")


def test_referee_solver_python_chooses_the_python_core(monkeypatch):
    monkeypatch.setenv("REFEREE_SOLVER", "python")
    assert loader._choose() == (loader.python_search(), "python")
    assert loader.python_search().__module__ == "referee.solver.python_core.core"


def test_the_install_goes_on_without_a_c_compiler(tmp_path):
    """setup.py's build without a working compiler: no module built, a line that says so,
    and success (the same search then runs as Python)."""
    pytest.importorskip("Cython")
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "referee" / "solver").mkdir(parents=True)
    (tmp_path / "referee" / "engine").mkdir(parents=True)
    for name in loader.SOURCES:
        shutil.copy(ROOT / "referee" / "solver" / name, tmp_path / "referee" / "solver" / name)
    env = {**os.environ, "CC": "/bin/false", "LDSHARED": "/bin/false"}
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "the compiled solver core was not built" in done.stderr
    assert not list((tmp_path / "referee" / "solver").glob("*.so"))


def test_setup_builds_the_modules_the_loader_looks_for():
    spec = importlib.util.spec_from_file_location("referee_setup", ROOT / "setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)  # setup() itself runs only as a script
    assert (setup.MODULES, setup.SOURCES) == (loader.MODULES, loader.SOURCES)


def test_each_core_module_calls_only_methods_its_class_has():
    """A compiled class finds a method by its declaration: one that only a subclass defines
    would be looked up as Python's at run time (and a C method cannot raise that it failed)."""
    known = set()
    for name in loader.MODULES:
        text = loader.source(name).read_text()
        known |= set(re.findall(r"    def (\w+)\(", text))
        assert set(re.findall(r"self\.(_\w+)\(", text)) <= known, name

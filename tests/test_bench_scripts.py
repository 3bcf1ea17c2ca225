"""The benchmarks are not run by the tests (figures only), but each must still start: a rename
in the package once left bench/bench_solver.py failing at its imports, unnoticed."""
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = sorted((Path(__file__).resolve().parents[1] / "bench").glob("bench_*.py"))


def test_there_are_benchmarks():
    assert len(BENCH) >= 5


@pytest.mark.parametrize("script", BENCH, ids=[p.name for p in BENCH])
def test_a_benchmark_starts_and_says_how_it_is_run(script):
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout

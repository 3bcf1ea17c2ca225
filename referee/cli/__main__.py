"""`python -m referee.cli ...`: the same as the `referee` console script."""
import sys

from referee.cli import main

sys.exit(main())

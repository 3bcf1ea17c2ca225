"""referee: adjudicates and scores Court Piece and its family."""
__version__ = "0.1.0"

# Perfect play settles claims and finishes deals at the bell inside the engine's replay; the
# engine cannot import the solver (the solver imports the engine), so the solver registers
# itself with the engine here, before any entry point judges a record.
from .solver import claims as _claims  # noqa: E402,F401

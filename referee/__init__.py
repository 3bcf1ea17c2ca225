"""referee: adjudicates and scores Court Piece and its family."""
__version__ = "0.1.0"

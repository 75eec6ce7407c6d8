"""loveformal."""

"""recipe."""

"""Hex-facing system (seed 002): Napoleonic tactical hexes with facing and cohesion."""

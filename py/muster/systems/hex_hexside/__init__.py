"""Hex-hexside system (seed 003): Seven Years' War hexes with hexside terrain and morale."""

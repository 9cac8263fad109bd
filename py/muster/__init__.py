"""Muster: a rules core for horse-and-musket board wargames."""

__version__ = "0.1.0"

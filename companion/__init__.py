"""Keydom Companion: rules, randomness and scoring for four Keydom board games."""

__version__ = "0.1.0"

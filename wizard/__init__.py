"""Wizard, the card game: a pure rules engine and, beside it, the game service and AI.

See README.md for a tour and ../shared/RULES.md for the rules it implements.
"""

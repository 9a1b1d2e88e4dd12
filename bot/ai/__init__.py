"""Opponents that play a seat: pure code (no Discord, no database), fed the public position only."""

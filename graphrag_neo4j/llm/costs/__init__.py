"""Prices, measured model rates, estimates and spending limits."""

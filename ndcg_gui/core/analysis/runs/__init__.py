"""Runs compared: per-query differences, significance, the regression gate, tie orders."""

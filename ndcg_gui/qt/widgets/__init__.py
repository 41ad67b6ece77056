"""Widgets that show the document or a model and forward what the person asks for. No data rules."""

"""Qt item models that adapt the document's lists and tables for views. They format and announce;
the figures are the core's."""

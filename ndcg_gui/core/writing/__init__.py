"""Writing files: ranked lists back in their own format (`csv_writer.py`, `trec_writer.py`, with
`rewrite.py` keeping unedited records byte for byte), metric tables, atomic writes (`writers.py`),
and where judgments are saved (`saving.py`)."""

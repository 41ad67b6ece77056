"""File formats, read: where the bytes come from (`source.py`: files, pipes, devices;
`compression.py`), one parser per format giving `Rows` in file order (`trec_text.py`,
`csv_text.py`, `columnar.py`; `rows.py`, `number_text.py`, `lines.py`), and the record of how a
text file was written, kept with its `Dataset` for saving (`file_format.py`). No `Dataset` here:
`core.reading` joins and ranks the rows into one.
"""

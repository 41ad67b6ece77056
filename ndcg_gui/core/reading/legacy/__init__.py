"""The pandas-based reader the pyarrow one replaces, kept unchanged for the differential test
(tests/core/test_reader_differential.py) until the new reader is shown equal to it."""

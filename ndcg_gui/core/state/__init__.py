"""Everything a person can change in an open document, as one immutable value (`workspace.py`:
the lists, the definition, the runs compared, the mean policy), and that value kept through a
crash (`recovery.py`)."""

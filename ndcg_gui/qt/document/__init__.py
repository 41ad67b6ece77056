"""The document: the state of what is open (a core `Workspace`), its undo history, and the one
change notice (`Changes`) every model and view follows. No widgets here."""

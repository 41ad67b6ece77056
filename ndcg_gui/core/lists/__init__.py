"""One ranked list, the datasets of lists, and what can be done to them: edits, the open
document (`Workspace`), text in and out (grades typed, clipboard rows), the order of query ids, and
unsaved edits kept through a crash."""

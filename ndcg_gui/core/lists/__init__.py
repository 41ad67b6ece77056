"""One ranked list, the datasets of lists, and what can be done to them: edits, text in and out
(grades typed, clipboard rows) and the order of query ids. The open document made of them is
`core.state`."""

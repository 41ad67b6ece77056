"""What leaves the program for other people and other tools: a self-contained HTML report of one
run or of a comparison (`html_report`), Markdown and LaTeX tables of a comparison (`tables`), a
JUnit XML file of the regression gate (`junit`), and objects of other tools read as a `Dataset`
(`inputs`). Qt-free; every text that came from a file is escaped where it is written."""

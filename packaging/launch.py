"""Entry script of the frozen bundle (PyInstaller needs a file): the same `main` as `ndcg-gui`."""

import sys

from ndcg_gui.cli import main

if __name__ == "__main__":
    sys.exit(main())

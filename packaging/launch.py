"""Entry script of the frozen bundle (PyInstaller needs a file): the same `main` as `ndcg-gui`
(`ndcg_gui.gui_main`), or, started by the window with `--load-worker`, the process that reads a big
file in the background."""

import sys

from ndcg_gui.core.reading.load_worker import WORKER_FLAG

if __name__ == "__main__":
    if sys.argv[1:] == [WORKER_FLAG]:
        from ndcg_gui.core.reading.load_worker import main as worker

        sys.exit(worker())
    from ndcg_gui.gui_main import main

    sys.exit(main())

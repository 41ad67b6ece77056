"""`python -m ndcg_gui`: the window, as `ndcg-gui` (`python -m ndcg_gui.cli` is `ndcg-inspect`)."""

import sys

from ndcg_gui.gui_main import main

sys.exit(main())

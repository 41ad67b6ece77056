import sys

from ndcg_gui.cli import main

sys.exit(main())

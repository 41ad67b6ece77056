"""The Qt side: models, widgets and the window that adapt ndcg_gui.core."""

import os

# pyqtgraph picks its Qt binding from whichever is imported first unless told: always PySide6.
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

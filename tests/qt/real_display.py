"""What a test that needs a real X display (Xvfb) carries: `make test` runs them as
`QT_QPA_PLATFORM=xcb xvfb-run -a pytest -m xvfb`; offscreen Qt cannot run a drag loop or real
mouse moves."""

from __future__ import annotations

import os

import pytest

NEEDS_X = pytest.mark.skipif(os.environ.get("QT_QPA_PLATFORM", "") != "xcb",
                             reason="needs a real X display: QT_QPA_PLATFORM=xcb xvfb-run -a pytest -m xvfb")
# Xvfb without a 24-bit visual (pytest-xvfb's default screen), and a drag passing the plot.
X_WARNINGS = pytest.mark.qt_log_ignore("Falling back to using screens root_visual",
                                       "drag leave received before drag enter")
XVFB = [pytest.mark.xvfb, X_WARNINGS, NEEDS_X]

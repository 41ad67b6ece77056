"""What a test that needs a real X display (Xvfb) carries: `make test` runs them as
`QT_QPA_PLATFORM=xcb xvfb-run -a pytest -m xvfb`; offscreen Qt cannot run a drag loop or real
mouse moves."""

from __future__ import annotations

import os

import pytest

NEEDS_X = pytest.mark.skipif(os.environ.get("QT_QPA_PLATFORM", "") != "xcb",
                             reason="needs a real X display: QT_QPA_PLATFORM=xcb xvfb-run -a pytest -m xvfb")
XVFB = [pytest.mark.xvfb, NEEDS_X]

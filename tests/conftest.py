import os

# Qt tests run headless unless a test run asks for a real display (the xvfb marker).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

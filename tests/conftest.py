import os

# Qt tests run headless unless a test run asks for a real display (the xvfb marker).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Qt's offscreen screen is 800x800, and the window keeps within its screen (a 1366x768 laptop's
# status bar was below the edge): the tests get a 2560x1600 screen, room for a 1920x1080 window.
if os.environ["QT_QPA_PLATFORM"] == "offscreen":
    _screen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "offscreen_screen.json")
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_screen}"

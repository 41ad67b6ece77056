"""The main window: its layout, its actions and menus, and the controllers behind them (opening
and saving files, exports, editing intent, the query browser)."""

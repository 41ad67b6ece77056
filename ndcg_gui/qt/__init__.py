"""The Qt side: models, widgets and the window that adapt ndcg_gui.core."""

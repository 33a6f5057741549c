"""Scenes of the window: menu, set-up, battle, hand-over, results, replay viewer, saved games and lessons.

Each scene subclasses ``game.ui.window.Scene`` and sees the window as ``game.ui.window.Window``. A scene imports
another only when it sits below it (the menu imports the lessons list and the saved games, the battle its
hand-over screen, the replay viewer and the lesson the battle); the way back up (the menu, a battle, the replay
viewer, the results, a set-up step) goes through the ``Window`` methods that ``game.ui.app.App`` fills in.
"""

"""Scenes of the window: menu, battle, hand-over and results."""

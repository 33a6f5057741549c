"""The pygame-ce window of Battle Regiments: scenes (menu, battle, hand-over, results) that draw the game state
and turn clicks and keys into engine actions. Nothing here changes the game state except ``Game.apply``."""

"""Age of Fantasy: Skirmish (issue 18; ../shared/rules/aof-skirmish-quick-rules.md): loose models.

``loose``: every model's position, base and wound markers, coherency, distances, sight and cover per model.
``moves``: group moves, charge moves into base contact, the defenders' 3" and moving back after melee.
``attacks``: shooting and melee per model, wound effects. The turn structure is ``game.engine.rulesets.skirmish``.
"""

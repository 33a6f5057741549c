"""Army Forge imports (docs/formats.md "Army Forge import"): read the lists OPR players build in Army Forge
('Share as Text' and the JSON export for Tabletop Simulator) and write an army file and an army list of ours.

``export`` (what a file holds), ``text_export`` / ``json_export`` (the two readers), ``rulesets`` (what a ruleset
knows: ``known_rules``), ``convert`` (the mapping, with what cannot be played listed per unit), ``importer``
(files in and out). The command line is ``python main.py import-army``; the window's set-up offers
"Import from Army Forge".
"""

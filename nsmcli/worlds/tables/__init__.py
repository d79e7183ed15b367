"""The table world: questions over tables, in the WTQ-style Lisp (`wtq`) and the SQL-like `wikisql` language.

Its stages, in data-flow order: `data/` (files -> tables and annotated questions), `lang/` (the declared
languages, their interpreter and SQL rendering), `search/` (the systematic program search), `context.py`
(the model's view of a question), `entry.py` (the registry entries).
"""

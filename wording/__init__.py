"""What the front ends say, shared by both: the core's refusals and lines worded from the
catalogues in the reader's language (:mod:`wording.service_words`) and how a Leiff action
reads on a button (:mod:`wording.leiff_actions`).

It stands below the Discord layer (``bot/``) and the web table (``web/``) and above the
core, the engine and the catalogues, so the web says exactly what the bot says, in both
languages, from one place (``tests/test_import_graph.py`` keeps the layers).
"""

"""The project's data files: the picture themes, the fonts and the Leiff deck.

A package only so that the wheel carries them beside the code: the engine and the renderer
find them relative to their own modules (``<site>/data/...`` installed, ``data/...`` in a
checkout), so both layouts are the same tree.
"""

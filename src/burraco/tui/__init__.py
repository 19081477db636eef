"""Terminal play: ``burraco play`` (a full-screen Textual table, or ``--plain`` lines of text) against the
computer players, with hints, undo, saved games and ``--resume``, and ``burraco replay FILE --watch``.

The modules: :mod:`~burraco.tui.session` (the game, its computer players, saving, undo, hints),
:mod:`~burraco.tui.storage` (saved games in the user's data folder), :mod:`~burraco.tui.i18n` (the messages in
it, en, de, pt, nl), :mod:`~burraco.tui.render` (text shared by both modes), :mod:`~burraco.tui.commands` (typed
commands), :mod:`~burraco.tui.plain` (the line-based mode) and :mod:`~burraco.tui.app` (the Textual app). Only
``app`` imports Textual; nothing in the core imports this package.
"""

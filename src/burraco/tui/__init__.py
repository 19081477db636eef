"""Terminal play: ``burraco play`` (a full-screen Textual table, or ``--plain`` lines of text) against the
computer players, with hints, undo, saved games and ``--resume``, and ``burraco replay FILE --watch``.

The modules: :mod:`~burraco.tui.session` (the game, its computer players, saving, undo, hints, the moves log),
:mod:`~burraco.tui.storage` (saved games in the user's data folder), :mod:`~burraco.i18n` (the player's
language: the catalogues of :mod:`burraco.lang`, rendered by :func:`burraco.messages.render`),
:mod:`~burraco.tui.movelog` (the moves of a hand in the player's words, from :func:`burraco.narrate`),
:mod:`~burraco.tui.render` (text shared by both modes), :mod:`~burraco.tui.commands` (typed commands and cards),
:mod:`~burraco.tui.plain` (the line-based mode), and the Textual parts: :mod:`~burraco.tui.widgets`,
:mod:`~burraco.tui.table` (the table both apps draw), :mod:`~burraco.tui.screens` (scores, rules, keys),
:mod:`~burraco.tui.app` (``burraco play``) and :mod:`~burraco.tui.watch` (``--watch``). Only those import
Textual; nothing in the core imports this package.
"""

"""The catalogues of every text the project shows, one module per language (see :mod:`burraco.messages`): the
engine's refusals and hint reasons, the moves log (:mod:`burraco.narrate`), and the texts of the terminal table
and of the browser table — one system, rendered by :func:`burraco.messages.render` in Python and by the same
template grammar in the browser (``/messages/<lang>.json``).

Every module defines ``TEMPLATES`` (code → template) and ``WORDS`` (table → key → word) with exactly the codes,
fields and word keys of :mod:`burraco.lang.en` (a test checks it).
"""

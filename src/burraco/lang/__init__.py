"""Catalogues of the engine's messages, one module per language (see :mod:`burraco.messages`).

Every module defines ``TEMPLATES`` (code → template) and ``WORDS`` (table → key → word) with exactly the codes,
fields and word keys of :mod:`burraco.lang.en` (a test checks it).
"""

"""The websocket protocol's constants and errors (docs/protocol.md describes every message)."""

from __future__ import annotations

from starlette.responses import JSONResponse

from ..messages import Message, message_to_json, render, text

#: the protocol version; a client says which one it speaks in ``hello`` (``v``)
PROTOCOL_VERSION = 1
#: the minor version: additions a version-1 client may ignore (docs/protocol.md "Versions")
PROTOCOL_MINOR = 6

#: message types a client may send
CLIENT_TYPES = frozenset(
    {"hello", "act", "sync", "chat", "hint", "next", "rematch", "take", "leave", "fill", "back", "ping",
     "timeout", "give", "lang", "contribute", "replace", "takeback"}
)

#: the computer players a table may seat (``arena.parse_player`` specs)
LEVELS = ("random", "heuristic:easy", "heuristic:medium", "heuristic:hard", "ismcts:0.5s")
DEFAULT_LEVEL = "heuristic:medium"

MAX_CHAT = 300
MAX_NAME = 32


class ClientError(Exception):
    """A request refused with a code and a message saying why; nothing was applied. The message is one of the
    catalogues (:mod:`burraco.lang`; a plain string stays as it is in every language): ``message`` is its English,
    ``msg`` its code and parameters, which the websocket sends with the refusal (and ``text``, it in the
    connection's language: ``app.with_text``) and an HTTP route renders in the requester's language."""

    def __init__(self, code: str, message: Message | str) -> None:
        m = message if isinstance(message, Message) else text(message)
        self.message = render(m)
        super().__init__(self.message)
        self.code = code
        #: the refusal as a message code and parameters
        self.msg = m

    def text(self, lang: str) -> str:
        """The refusal in ``lang``."""
        return render(self.msg, lang)

    def to_json(self, ref: object = None) -> dict[str, object]:
        """The ``error`` message (``app.with_text`` adds its ``text`` in the connection's language)."""
        out: dict[str, object] = {"type": "error", "code": self.code, "message": self.message,
                                  "msg": message_to_json(self.msg)}
        if ref is not None:
            out["ref"] = ref
        return out


def refusal(code: str, message: Message | str, lang: str, status: int = 400) -> JSONResponse:
    """A refused HTTP request, as every JSON route answers one (docs/protocol.md): ``error`` its code, ``message``
    the refusal in ``lang`` (the requester's: ``AccountPages.lang``), ``msg`` its message code and parameters."""
    m = message if isinstance(message, Message) else text(message)
    return JSONResponse({"error": code, "message": render(m, lang), "msg": message_to_json(m)}, status_code=status)

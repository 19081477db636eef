"""The websocket protocol's constants and errors (docs/protocol.md describes every message)."""

from __future__ import annotations

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
    """A request refused with a code and a message in plain words; nothing was applied."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: an engine refusal's message code and parameters (``{"code", "params"}``), sent as ``msg``
        self.detail: dict[str, object] | None = None

    def to_json(self, ref: object = None) -> dict[str, object]:
        out: dict[str, object] = {"type": "error", "code": self.code, "message": self.message}
        if self.detail is not None:
            out["msg"] = self.detail
        if ref is not None:
            out["ref"] = ref
        return out

# the optional C module (src/burraco/_speedups.c); burraco.envs._accel loads it
from collections.abc import Callable
from typing import Any

def configure(layout: dict[str, Any], /) -> None: ...
def encode(
    raw: bytearray,
    game: Any,
    seat: int,
    rel: tuple[int, ...],
    my_side: int,
    deck: bytes,
    pile_open: bool,
    own: tuple[Any, ...],
    other: tuple[Any, ...],
    match_totals: tuple[int, int] | None,
    /,
) -> None: ...
def encode_layout(
    raw: bytearray,
    game: Any,
    seat: int,
    rel: tuple[int, ...],
    seat_slot: tuple[int, ...],
    order: tuple[int, ...],
    sides: tuple[tuple[Any, ...], ...],
    offsets: tuple[int, ...],
    deck: bytes,
    pile_open: bool,
    match_totals: tuple[int, ...] | None,
    solo: int,
    /,
) -> None: ...
def indices(
    legal: list[Any],
    melds: list[Any],
    meld_cache: dict[tuple[int, ...], int],
    add_cache: dict[tuple[int, tuple[int, ...]], int],
    slow: Callable[[Any, Any], int],
    space: tuple[int, int, int] = ...,
    /,
) -> list[int]: ...
def mask(codes: list[int], size: int, /) -> bytearray: ...
def configure_engine(names: dict[str, Any], /) -> None: ...
def raw_melds(
    gen: Any, hand: bytes, seat_name: str, melds: list[Any], set_ranks: Any, seq_keys: Any, /
) -> list[Any]: ...

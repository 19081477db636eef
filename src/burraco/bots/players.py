"""The one spelling of a computer player, shared by every command and API that seats one.

``burraco play --partner/--opponents``, ``burraco arena --a/--b``, the research environments' ``opponents`` and
the server's tables all name their players with a *player spec* read by :func:`parse_spec` (and
:func:`parse_player`, which makes the players); ``burraco players`` lists the spellings (:data:`SPELLINGS`).

>>> str(parse_spec("hard")), str(parse_spec("Heuristic:Easy")), str(parse_spec("ismcts:0.50s"))
('heuristic:hard', 'heuristic:easy', 'ismcts:0.5s')
>>> str(parse_spec("expert")), level_word("ismcts:0.5s"), level_word("heuristic:medium")
('ismcts:0.5s', 'expert', 'medium')
>>> parse_player("random")(7).name
'random'
>>> parse_spec("hardest")
Traceback (most recent call last):
...
burraco.bots.players.PlayerSpecError: unknown player 'hardest': write random, easy, medium, hard, expert, heuristic:LEVEL, ismcts[:N|:Ts], ismcts-uniform[:N|:Ts], cheat[:N|:Ts], policy:PATH, python:MODULE:NAME (`burraco players`)

The levels for people (issue 22; docs/strength.md, "Levels for people") are ``easy``, ``medium``, ``hard`` and
``expert``: ``expert`` is the search at :data:`EXPERT_SECONDS` a move, whose canonical spelling (in records and in
the server's protocol) stays ``ismcts:0.5s``; :func:`level_word` names the word of the catalogues' ``level`` table
that shows a player to people.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from .base import Player
from .heuristic import LEVELS, HeuristicPlayer
from .random_player import RandomPlayer

#: makes a fresh player from a seed
PlayerFactory = Callable[[int], Player]

#: the search players; ``ismcts-uniform`` and ``cheat`` are for measurement only
SEARCH_KINDS = ("ismcts", "ismcts-uniform", "cheat")

#: the search's time per move when a spec names no budget
DEFAULT_SECONDS = 1.0

#: ``expert``, the level for people above ``hard``: the search at this many seconds a move (``ismcts:0.5s``)
EXPERT_SECONDS = 0.5

#: a timed search (``expert``, ``ismcts:Ts``, ``cheat:Ts``) runs at least this many determinizations per second of its
#: budget whatever the machine's load (:func:`dets_floor`; issue 38): a quiet core runs 1,000–7,500 a second (a
#: median of 2,260 at ``expert``'s 0.5 s), so the floor never binds there; where other work takes the core, the move
#: is late rather than weak (``expert``: 400 determinizations, where ``ismcts:300`` already beats ``hard`` by +702 a
#: deal; with a quarter of a core its moves take 0.74 s, at most 1.8 s; docs/strength.md, "A floor of
#: determinizations")
DETS_FLOOR_PER_SECOND = 800


def dets_floor(seconds: float) -> int:
    """The determinizations a search of ``seconds`` a move runs at least (:data:`DETS_FLOOR_PER_SECOND`).

    >>> dets_floor(EXPERT_SECONDS), dets_floor(0.25), dets_floor(0.001)
    (400, 200, 1)
    """
    return max(1, round(DETS_FLOOR_PER_SECOND * seconds))

#: every accepted spelling, with what it seats (``burraco players`` prints this table)
SPELLINGS: tuple[tuple[str, str], ...] = (
    ("random", "a uniform choice among the legal actions"),
    ("easy, medium, hard", "the rule-based player at that level, from its view only"),
    ("heuristic:LEVEL", "the same written in full (heuristic:hard; heuristic alone is hard)"),
    ("expert", f"the level above hard: the search at {EXPERT_SECONDS:g} s per move (ismcts:{EXPERT_SECONDS:g}s)"),
    ("ismcts", f"information-set Monte Carlo search, {DEFAULT_SECONDS:g} s per move"),
    ("ismcts:N", "the same search with N iterations per move (ismcts:200)"),
    ("ismcts:Ts", "the same search with T seconds per move (ismcts:0.5s)"),
    ("ismcts:Ts:threads=N", "the same search on N threads (ismcts:0.25s:threads=2)"),
    ("ismcts-uniform[:N|:Ts]", "the same search sampling hidden hands uniformly (for measurement)"),
    ("cheat[:N|:Ts]", "the same search seeing every card: a measuring stick, never seated by burraco play"),
    ("policy:PATH", "a learned policy: numpy weights (.npz, examples/train_bc.py; the rl extra), a PPO checkpoint "
                    "(.pt, examples/train_policy.py) or an sb3-contrib model (.zip; both need the train extra)"),
    ("python:MODULE:NAME", "any Python player: a class (made with the seed, Class(seed), or Class()) or a function "
                           "(view, legal) -> action; MODULE a module name or a .py file (python:my_bot.py:MyBot)"),
)

#: the accepted spellings in one line, for error messages
ACCEPTED = (
    "random, easy, medium, hard, expert, heuristic:LEVEL, ismcts[:N|:Ts], ismcts-uniform[:N|:Ts], cheat[:N|:Ts], "
    "policy:PATH, python:MODULE:NAME (`burraco players`)"
)


class PlayerSpecError(ValueError):
    """A player spec that names no player (the message says what is accepted)."""


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player spec: ``kind`` (``random``, ``heuristic``, ``ismcts``, ``ismcts-uniform``, ``cheat``,
    ``policy`` or ``python``), the heuristic's ``level``, the search's budget (``iterations`` or ``seconds``,
    neither: the default), the policy's weights file ``path`` or the Python player's ``MODULE:NAME`` (in
    ``path``). ``str()`` is its canonical spelling."""

    kind: str
    level: str | None = None
    iterations: int | None = None
    seconds: float | None = None
    path: str | None = None
    #: the search's threads (``ismcts:0.25s:threads=2``; 1 unless said)
    threads: int = 1

    def __str__(self) -> str:
        if self.kind in ("policy", "python"):
            return f"{self.kind}:{self.path}"
        if self.kind == "heuristic":
            return f"heuristic:{self.level}"
        more = f":threads={self.threads}" if self.threads > 1 else ""
        if self.iterations is not None:
            return f"{self.kind}:{self.iterations}{more}"
        if self.seconds is not None:
            return f"{self.kind}:{self.seconds:g}s{more}"
        return self.kind + more

    def factory(self) -> PlayerFactory:
        """Makes a fresh player of this spec from a seed."""
        if self.kind == "random":
            return lambda seed: RandomPlayer(seed)
        if self.kind == "heuristic":
            level = self.level or "hard"
            return lambda seed: HeuristicPlayer(level, seed)
        if self.kind == "policy":
            from ..envs.policy import PolicyPlayer, load_policy_net  # numpy: the rl extra

            path = str(self.path)
            net = load_policy_net(path)  # read once; every seat shares the weights
            return lambda seed: PolicyPlayer(net, seed, name=f"policy:{path}")
        if self.kind == "python":
            return python_factory(str(self.path))
        from .ismcts import CheatingISMCTSPlayer, ISMCTSPlayer

        cls = CheatingISMCTSPlayer if self.kind == "cheat" else ISMCTSPlayer
        infer = self.kind != "ismcts-uniform"
        iterations, threads = self.iterations, self.threads
        if iterations is not None:
            return lambda seed: cls(seed=seed, iterations=iterations, infer=infer, threads=threads)
        seconds = DEFAULT_SECONDS if self.seconds is None else self.seconds
        floor = dets_floor(seconds)
        return lambda seed: cls(seed=seed, time_budget=seconds, infer=infer, threads=threads, min_iterations=floor)


def parse_spec(text: str) -> PlayerSpec:
    """Read a player spec (any spelling of :data:`SPELLINGS`, case-insensitive); :class:`PlayerSpecError`
    naming the accepted spellings otherwise."""
    head, colon, rest = text.strip().partition(":")
    if head.strip().lower() == "policy" and colon:
        if not rest.strip():
            raise PlayerSpecError(f"policy needs a weights file: write policy:PATH, not {text.strip()!r}")
        return PlayerSpec("policy", path=rest.strip())  # the path keeps its case
    if head.strip().lower() == "python" and colon:
        module, colon2, name = rest.strip().rpartition(":")
        if not colon2 or not module.strip() or not name.strip().isidentifier():
            raise PlayerSpecError(
                f"python needs a module and a name: write python:MODULE:NAME (python:my_bots:Greedy, "
                f"python:my_bot.py:choose), not {text.strip()!r}"
            )
        return PlayerSpec("python", path=f"{module.strip()}:{name.strip()}")
    name, colon, arg = text.strip().lower().partition(":")
    name, arg = name.strip(), arg.strip()
    if name == "random" and not colon:
        return PlayerSpec("random")
    if name in LEVELS and not colon:
        return PlayerSpec("heuristic", level=name)
    if name == "expert" and not colon:
        return PlayerSpec("ismcts", seconds=EXPERT_SECONDS)
    if name == "heuristic":
        level = arg or "hard"
        if level not in LEVELS:
            raise PlayerSpecError(
                f"unknown heuristic level {level!r} in {text.strip()!r}: write heuristic:easy, heuristic:medium "
                "or heuristic:hard"
            )
        return PlayerSpec("heuristic", level=level)
    if name in SEARCH_KINDS:
        threads = 1
        head_arg, _, tail = arg.partition(":")
        if head_arg.startswith("threads="):  # ismcts:threads=2
            head_arg, tail = "", head_arg
        if tail:
            key, eq, value = tail.partition("=")
            if key.strip() != "threads" or not eq or not value.strip().isdigit() or int(value) < 1:
                raise PlayerSpecError(
                    f"bad search option {tail!r} in {text.strip()!r}: write {name}:Ts:threads=N (N ≥ 1 threads, "
                    f"e.g. {name}:0.25s:threads=2)"
                )
            threads = int(value)
        arg = head_arg.strip()
        if not arg:
            return PlayerSpec(name, threads=threads)
        bad = PlayerSpecError(
            f"bad search budget in {text.strip()!r}: write {name}, {name}:N (N iterations per move, N ≥ 1) or "
            f"{name}:Ts (T seconds per move, T > 0, e.g. {name}:0.5s)"
        )
        try:
            if arg.endswith("s"):
                seconds = float(arg[:-1])
                if not seconds > 0 or seconds == float("inf"):
                    raise bad
                return PlayerSpec(name, seconds=seconds, threads=threads)
            iterations = int(arg)
        except ValueError as e:
            raise bad from e
        if iterations < 1:
            raise bad
        return PlayerSpec(name, iterations=iterations, threads=threads)
    raise PlayerSpecError(f"unknown player {text.strip()!r}: write {ACCEPTED}")


def canonical_player(text: str) -> str:
    """The canonical spelling of a player spec (``hard`` → ``heuristic:hard``); :class:`PlayerSpecError` for a
    spec that names no player."""
    return str(parse_spec(text))


def level_word(text: str) -> str:
    """The key of the catalogues' ``level`` table (``burraco/lang/*.py``) that names a player spec to people:
    ``random``, ``easy``, ``medium``, ``hard``, ``expert`` (the search at :data:`EXPERT_SECONDS`), ``ismcts`` (the
    search at another budget) or the spec's kind (``cheat``, ``policy`` …, which have no word);
    :class:`PlayerSpecError` for a spec that names no player."""
    spec = parse_spec(text)
    if spec.kind == "heuristic":
        return spec.level or "hard"
    if spec == PlayerSpec("ismcts", seconds=EXPERT_SECONDS):
        return "expert"
    return spec.kind


class _FunctionPlayer:
    """A :class:`Player` around a function ``(view, legal) -> action``."""

    def __init__(self, fn: Callable[..., Any], name: str) -> None:
        self.fn = fn
        self.name = name

    def choose(self, view: Any, legal: list[Any]) -> Any:
        return self.fn(view, legal)


def _import_target(where: str) -> Any:
    """The object ``NAME`` of ``MODULE:NAME``; MODULE a module name (looked up on ``sys.path``, then in the
    current directory) or a ``.py`` file."""
    module, _, name = where.rpartition(":")
    try:
        if module.endswith(".py"):
            path = Path(module).resolve()
            if not path.is_file():
                raise PlayerSpecError(f"python:{where}: no file {module!r}")
            spec = importlib.util.spec_from_file_location(f"burraco_player_{path.stem}", path)
            assert spec is not None and spec.loader is not None
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
        else:
            try:
                mod = importlib.import_module(module)
            except ModuleNotFoundError as e:
                if e.name != module.split(".")[0] or str(Path.cwd()) in sys.path:
                    raise
                sys.path.append(str(Path.cwd()))  # burraco's script does not put the current directory there
                mod = importlib.import_module(module)
    except PlayerSpecError:
        raise
    except Exception as e:  # the module's own error, named
        raise PlayerSpecError(f"python:{where}: cannot import {module!r}: {type(e).__name__}: {e}") from e
    try:
        return getattr(mod, name)
    except AttributeError as e:
        raise PlayerSpecError(f"python:{where}: {module!r} has no {name!r}") from e


def python_factory(where: str) -> PlayerFactory:
    """The factory of ``python:MODULE:NAME``: a class is made once per seat and game with the seed
    (``NAME(seed)``) where its constructor takes an argument, else ``NAME()``; its objects must have
    ``choose(view, legal)``. A function is the player's choice itself, ``NAME(view, legal) -> action``."""
    target = _import_target(where)
    label = f"python:{where}"
    if isinstance(target, type):
        if not callable(getattr(target, "choose", None)):
            raise PlayerSpecError(f"{label}: a player class needs a method choose(view, legal) -> action")
        try:
            params = [
                p for p in inspect.signature(target).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or p.kind is p.VAR_POSITIONAL
            ]
        except (TypeError, ValueError):
            params = []

        def make(seed: int) -> Player:
            p = target(seed) if params else target()
            if not getattr(p, "name", None):
                p.name = label
            return cast(Player, p)

        return make
    if callable(target):
        player = _FunctionPlayer(target, label)
        return lambda seed: cast(Player, player)
    raise PlayerSpecError(f"{label} is neither a class nor a function")


def parse_player(text: str) -> PlayerFactory:
    """A player factory (seed → fresh player) from a player spec in any spelling of :data:`SPELLINGS`;
    :class:`PlayerSpecError` (a :class:`ValueError`) naming the accepted spellings otherwise."""
    return parse_spec(text).factory()


__all__ = [
    "ACCEPTED",
    "DETS_FLOOR_PER_SECOND",
    "DEFAULT_SECONDS",
    "EXPERT_SECONDS",
    "PlayerFactory",
    "PlayerSpec",
    "PlayerSpecError",
    "SEARCH_KINDS",
    "SPELLINGS",
    "canonical_player",
    "dets_floor",
    "level_word",
    "parse_player",
    "parse_spec",
    "python_factory",
]

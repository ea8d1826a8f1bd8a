"""Typed actions and events to JSON and back: the one place the two meet.

Inside the core an action is a frozen dataclass (`companion.game.Action`),
an event likewise (`companion.game.Event`). At the edges (the store, the
command line, a script) they are JSON objects with a ``"type"``. This module
converts both ways by reading the dataclass's fields and their type hints, so
a game declares its vocabulary once, as classes, and never parses a field by
hand:

    @dataclass(frozen=True)
    class Capture(Action):
        type = "capture"
        by: Seat                      # must name a player at the table
        of: Seat
        die: int | None = None

Checked on the way in: every field's type (str, int, float, bool, None,
``Literal[...]``, ``tuple[...]``, ``Mapping[str, ...]``, nested frozen
dataclasses), names of seated players (`Seat`), missing and unknown keys.
Each refusal is one sentence naming the field, raised as `RuleError`.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from companion.game import SEAT, Message, RuleError

M = TypeVar("M", bound=Message)

_OMIT_DEFAULT = "omit_default"
_KEY = "key"


def optional(default: Any = None, *, key: str | None = None) -> Any:
    """A field left out of the JSON while it holds its `default` (an optional key)."""
    metadata: dict[str, Any] = {_OMIT_DEFAULT: True}
    if key is not None:
        metadata[_KEY] = key
    return dataclasses.field(default=default, metadata=metadata)


def key(name: str, default: Any = dataclasses.MISSING) -> Any:
    """A field whose JSON key differs from its Python name (``"from"`` is a keyword)."""
    return dataclasses.field(default=default, metadata={_KEY: name})


def to_json(message: Any) -> dict[str, Any]:
    """`message` (an action, an event or a nested dataclass) as a JSON object, fields in declared order."""
    out: dict[str, Any] = {}
    kind = getattr(type(message), "type", None)
    if isinstance(message, Message) and isinstance(kind, str):
        out["type"] = kind
    for f in dataclasses.fields(message):
        value = getattr(message, f.name)
        if f.metadata.get(_OMIT_DEFAULT) and value == f.default:
            continue
        out[f.metadata.get(_KEY, f.name)] = plain(value)
    return out


def plain(value: Any) -> Any:
    """`value` with tuples as lists and dataclasses as objects: what `json.dumps` takes."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    return value


def from_json(
    cls: type[M], data: Mapping[str, Any], *, seats: Sequence[str] | None = None, title: str = "This game"
) -> M:
    """An instance of `cls` from its JSON object; `RuleError` with one sentence if anything is wrong.

    `seats`, when given, are the names every `Seat` field must be one of.
    """
    return typing.cast(M, _build(cls, data, seats, title))


def _build(cls: type[Any], data: Mapping[str, Any], seats: Sequence[str] | None, title: str) -> Any:
    kind = getattr(cls, "type", None)
    what = f'"{kind}"' if isinstance(kind, str) else cls.__name__
    hints = _hints(cls)
    known = {f.metadata.get(_KEY, f.name): f for f in dataclasses.fields(cls)}
    unknown = [k for k in data if k not in known and not (k == "type" and isinstance(kind, str))]
    if unknown:
        fields = ", ".join(f'"{k}"' for k in known) or "none"
        raise RuleError(f'{title}\'s {what} has no "{unknown[0]}"; its fields are {fields}.')
    values: dict[str, Any] = {}
    for name, f in known.items():
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise RuleError(f'{title}\'s {what} needs "{name}".')
            continue
        values[f.name] = _convert(hints[f.name], data[name], name, seats, title)
    return cls(**values)


_hint_cache: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    if cls not in _hint_cache:
        _hint_cache[cls] = typing.get_type_hints(cls, include_extras=True)
    return _hint_cache[cls]


def _convert(hint: Any, value: Any, name: str, seats: Sequence[str] | None, title: str) -> Any:
    origin = get_origin(hint)
    if origin is Annotated:
        inner, *marks = get_args(hint)
        converted = _convert(inner, value, name, seats, title)
        if SEAT in marks and seats is not None and converted not in seats:
            raise RuleError(f'"{name}" must name a player at the table ({", ".join(seats)}).')
        return converted
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        options = get_args(hint)
        if value is None and type(None) in options:
            return None
        refusals = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _convert(option, value, name, seats, title)
            except RuleError as refused:
                refusals.append(refused)
        raise refusals[0]
    if origin is Literal:
        choices = get_args(hint)
        if value not in choices or isinstance(value, bool) != any(isinstance(c, bool) for c in choices):
            listed = _or([f'"{c}"' if isinstance(c, str) else repr(c) for c in choices])
            raise RuleError(f'"{name}" must be {listed}; it is {value!r}.')
        return value
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(value, list | tuple):
            raise RuleError(f'"{name}" must be a list; it is {value!r}.')
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, name, seats, title) for v in value)
        if len(value) != len(args):
            raise RuleError(f'"{name}" must be a list of {len(args)}; it is {value!r}.')
        return tuple(_convert(a, v, name, seats, title) for a, v in zip(args, value, strict=True))
    if origin in (Mapping, dict) or hint in (Mapping, dict):
        args = get_args(hint) or (str, Any)
        if not isinstance(value, Mapping):
            raise RuleError(f'"{name}" must be an object; it is {value!r}.')
        return {
            _convert(args[0], k, name, seats, title): _convert(args[1], v, name, seats, title)
            for k, v in value.items()
        }
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        if not isinstance(value, Mapping):
            raise RuleError(f'"{name}" must be an object; it is {value!r}.')
        return _build(hint, value, seats, title)
    if hint is bool:
        if not isinstance(value, bool):
            raise RuleError(f'"{name}" must be true or false; it is {value!r}.')
        return value
    if hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RuleError(f'"{name}" must be a whole number; it is {value!r}.')
        return value
    if hint is float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise RuleError(f'"{name}" must be a number; it is {value!r}.')
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise RuleError(f'"{name}" must be text; it is {value!r}.')
        return value
    if hint is type(None):
        if value is not None:
            raise RuleError(f'"{name}" must be null; it is {value!r}.')
        return None
    raise TypeError(f"companion.codec cannot read a field typed {hint!r} ({name}); use a simpler type.")


def _or(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"

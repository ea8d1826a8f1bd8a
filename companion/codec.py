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
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from companion.game import SEAT, Message, Outcome, RuleError

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
    tag, fields = _writer(type(message))
    out: dict[str, Any] = {} if tag is None else {"type": tag}
    for name, json_key, omit, default in fields:
        value = getattr(message, name)
        if omit and value == default:
            continue
        out[json_key] = value if type(value) in _SCALARS else plain(value)
    return out


def entries(record: Any) -> list[tuple[str, Any]]:
    """`record`'s fields as its JSON has them (a message's ``type`` first, keys, order, optional keys left out),
    with their values as they are.

    What reads any typed view field by field without knowing its game (the small displays' plain layout) and
    `to_json` share: the JSON keys, without making JSON. An `Outcome` has the entries a view shows of it.
    """
    if isinstance(record, Outcome):
        return [("winners", record.winners), ("reason", record.reason), ("detail", record.detail)]
    tag, fields = _writer(type(record))
    found: list[tuple[str, Any]] = [] if tag is None else [("type", tag)]
    for name, json_key, omit, default in fields:
        value = getattr(record, name)
        if not (omit and value == default):
            found.append((json_key, value))
    return found


def view_json(view: Any) -> dict[str, Any]:
    """A game's view as JSON for the edges: a typed view (a `GameView`) through `plain`, a dict view as it is."""
    return typing.cast(dict[str, Any], plain(view)) if dataclasses.is_dataclass(view) else dict(view)


def plain(value: Any) -> Any:
    """`value` with tuples as lists and dataclasses as objects: what `json.dumps` takes."""
    if type(value) in _SCALARS:
        return value  # most of a view: asked first, the rest of the questions cost a story thousands of times
    if isinstance(value, Outcome):
        return value.to_json()  # as a view shows it: the stored termination is the store's
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    return value


_SCALARS = frozenset({str, int, float, bool, type(None)})  # exactly these types (an enum member goes the long way)

_Writer = tuple[str | None, tuple[tuple[str, str, bool, Any], ...]]
_writers: dict[type[Any], _Writer] = {}


def _writer(cls: type[Any]) -> _Writer:
    """How `to_json` writes `cls`: its ``type`` word (a message's) and, in JSON order, each field's Python name,
    JSON key, whether it is left out at its default, and that default. Worked out once per class."""
    found = _writers.get(cls)
    if found is None:
        kind = getattr(cls, "type", None)
        fields = dataclasses.fields(cls)
        order = getattr(cls, "json_order", ())
        if order:  # a subclass's fields placed among its base's, as its JSON always had them
            fields = tuple(sorted(fields, key=lambda f: order.index(f.name)))
        found = _writers[cls] = (
            kind if issubclass(cls, Message) and isinstance(kind, str) else None,
            tuple(
                (f.name, f.metadata.get(_KEY, f.name), bool(f.metadata.get(_OMIT_DEFAULT)), f.default) for f in fields
            ),
        )
    return found


def from_json(
    cls: type[M],
    data: Mapping[str, Any],
    *,
    seats: Sequence[str] | None = None,
    title: str = "This game",
    stored: bool = False,
) -> M:
    """An instance of `cls` from its JSON object; `RuleError` with one sentence if anything is wrong.

    `seats`, when given, are the names every `Seat` field must be one of.
    `stored` reads what an earlier version of the app wrote: a key it no
    longer knows (an English sentence events used to carry) is passed over,
    so that no saved game becomes unreadable.
    """
    return typing.cast(M, _build(cls, data, seats, title, stored))


def stored_reader(cls: type[M], title: str = "This game") -> Callable[[Mapping[str, Any]], M]:
    """A quick reader of what this app itself stored for `cls` (its row checksum held), made once per class.

    Replaying a long game reads thousands of these: plain fields are taken as they are, in one call; any
    other field, or a key missing, goes the whole careful way of `from_json` (with ``stored=True``).
    """
    layout = _layout(cls)
    if not layout.simple:
        return lambda data: from_json(cls, data, title=title, stored=True)
    spec = tuple((f.key, None if f.required else _default(cls, f.name)) for f in layout.fields)
    required = frozenset(f.key for f in layout.fields if f.required)
    names = tuple(f.name for f in layout.fields)
    by_name = any(f.kw_only for f in dataclasses.fields(cls))

    def read(data: Mapping[str, Any]) -> M:
        if not required.issubset(data):
            return from_json(cls, data, title=title, stored=True)  # to name what is missing
        values = [data.get(key, default) for key, default in spec]
        return cls(**dict(zip(names, values, strict=True))) if by_name else cls(*values)

    return read


def _default(cls: type[Any], name: str) -> Any:
    return next(f.default for f in dataclasses.fields(cls) if f.name == name)


def _build(
    cls: type[Any], data: Mapping[str, Any], seats: Sequence[str] | None, title: str, stored: bool = False
) -> Any:
    layout = _layout(cls)
    if not stored and not layout.keys.issuperset(data):
        unknown = next(k for k in data if k not in layout.keys)
        fields = ", ".join(f'"{f.key}"' for f in layout.fields) or "none"
        raise RuleError(f'{title}\'s {layout.what} has no "{unknown}"; its fields are {fields}.')
    values: dict[str, Any] = {}
    for f in layout.fields:
        value = data.get(f.key, _ABSENT)
        if value is _ABSENT:
            if f.required:
                raise RuleError(f'{title}\'s {layout.what} needs "{f.key}".')
        elif f.simple is not None and type(value) is f.simple:
            values[f.name] = value  # the common case (a plain str, int or bool), without the general walk
        else:
            values[f.name] = _convert(f.hint, value, f.key, seats, title)
    return cls(**values)


_ABSENT = object()


@dataclasses.dataclass(frozen=True)
class _Field:
    key: str  # in JSON
    name: str  # in Python
    hint: Any
    required: bool
    simple: type | None  # str, int or bool when the hint is just that


@dataclasses.dataclass(frozen=True)
class _Layout:
    what: str  # how a refusal names the class
    fields: tuple[_Field, ...]
    keys: frozenset[str]  # every key its JSON may hold
    simple: bool  # every field is a plain str, int or bool


_layouts: dict[type[Any], _Layout] = {}


def _layout(cls: type[Any]) -> _Layout:
    """How to read `cls` from JSON, worked out once per class from its fields and type hints."""
    found = _layouts.get(cls)
    if found is None:
        kind = getattr(cls, "type", None)
        hints = typing.get_type_hints(cls, include_extras=True)
        fields = tuple(
            _Field(
                f.metadata.get(_KEY, f.name),
                f.name,
                hints[f.name],
                f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
                hints[f.name] if hints[f.name] in (str, int, bool) else None,
            )
            for f in dataclasses.fields(cls)
        )
        keys = frozenset(f.key for f in fields) | ({"type"} if isinstance(kind, str) else set())
        what = f'"{kind}"' if isinstance(kind, str) else cls.__name__
        found = _layouts[cls] = _Layout(what, fields, keys, all(f.simple is not None for f in fields))
    return found


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

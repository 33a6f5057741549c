"""Pydantic validation errors as problems ``FILE:LINE: PATH: message`` in plain words (``_validate``), and the
validated value of one field of a file whose other parts are bad (``_field``)."""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError

from game.scenario.yaml_doc import Loc, _Doc, _Problem, _show


def _unwrap(tp: Any) -> Any:
    while True:
        origin = get_origin(tp)
        if origin is Annotated:
            tp = get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _model_at(model: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The model class validating the mapping at ``loc`` inside ``model``, if any."""
    tp: Any = model
    for part in loc:
        tp = _unwrap(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            f = tp.model_fields.get(part) if isinstance(part, str) else None
            if f is None:
                return None
            tp = f.annotation
        elif get_origin(tp) is list and isinstance(part, int):
            tp = get_args(tp)[0]
        elif get_origin(tp) is dict:
            tp = get_args(tp)[1]
        else:
            return None
    tp = _unwrap(tp)
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None


def _message(err: Mapping[str, Any], model: type[BaseModel]) -> str:
    kind = err["type"]
    value = err.get("input")
    loc = tuple(err["loc"])
    if kind == "missing":
        return "missing (required)"
    if kind == "extra_forbidden":
        parent = _model_at(model, loc[:-1])
        allowed = f" (keys: {', '.join(parent.model_fields)})" if parent is not None else ""
        return f"unknown key{allowed}"
    if kind == "value_error":
        return str(err.get("ctx", {}).get("error", err["msg"]))
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"must be a mapping of keys, got {_show(value)}"
    if kind in ("list_type", "tuple_type"):
        return f"must be a list, got {_show(value)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"must be true or false, got {_show(value)}"
    if kind == "too_long":
        ctx = err.get("ctx", {})
        return (f"{ctx.get('actual_length') or 'too many'} items; at most {ctx.get('max_length')} "
                "(docs/formats.md \"Limits\")")
    if kind == "finite_number":
        return f"must be a finite number, got {_show(value)}"
    if kind in ("string_type",):
        return f"must be text, got {_show(value)}"
    return f"{err['msg']}, got {_show(value)}"


_M = typing.TypeVar("_M", bound=BaseModel)


def _validate(model: type[_M], data: Any, doc: _Doc, prefix: Loc, out: list[_Problem]) -> _M | None:
    """Validate ``data`` with ``model``; problems (paths under ``prefix``) go to ``out``; None if invalid."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        for err in e.errors(include_url=False):
            loc = prefix + tuple(err["loc"])
            out.append(doc.problem(loc, _message(err, model), key=err["type"] == "extra_forbidden"))
        return None


def _field(model: type[BaseModel], data: Mapping[str, Any], name: str, fallback: Any) -> Any:
    """The validated value of one field of ``model`` in ``data`` (its default if absent), or ``fallback`` if
    it is invalid. Lets later checks use the good parts of a file whose other parts are bad."""
    info = model.model_fields[name]
    if name not in data:
        return fallback if info.is_required() else info.get_default(call_default_factory=True)
    try:
        return _adapter(model, name).validate_python(data[name])
    except ValidationError:
        return fallback


@functools.cache
def _adapter(model: type[BaseModel], name: str) -> TypeAdapter[Any]:
    info = model.model_fields[name]
    tp: Any = Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
    return TypeAdapter(tp)

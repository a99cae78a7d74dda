"""JSON as records hold it: the record types' one way to write and read themselves, and the field
types that tolerate what an earlier version wrote.

Every record type is a dataclass deriving from :class:`JsonRecord`; pydantic (which also reads the
task files) writes it from its fields and reads it back, through a :class:`~pydantic.TypeAdapter`
built on first use. The fields say, in their annotations, what the hand-written readers used to:
the key a field is written under when it is not its name (an alias), the fields left out when
empty (:data:`OMITTED_WHEN_EMPTY`, :data:`OMITTED_WHEN_NONE`), and the type it is read as.

A record written by an earlier version may lack a key this version has, hold one it no longer
knows, or hold a value of another type; it must still load (``--resume``, a replay of an earlier
run, ``spider2v-report compare``). So each field type below takes the value when it has the
expected type (strictly: a boolean is no number, a number no text) and the field's default
otherwise, lists drop the items of another type, and nothing here raises on an old or hand-written
record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Self, TypeVar, Union

from pydantic import (
    BeforeValidator,
    Field,
    OnErrorOmit,
    PlainSerializer,
    PlainValidator,
    Strict,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapSerializer,
    WrapValidator,
)
from pydantic_core import PydanticUseDefault

#: A value :func:`json.dumps` writes: lists and objects are read-only views here, so a
#: ``list[str]`` or a ``dict[str, float]`` is one too (:func:`json.loads` gives lists and dicts).
JsonValue = Union[None, bool, int, float, str, Sequence["JsonValue"], Mapping[str, "JsonValue"]]
#: A JSON object: what every record entry is on disk.
JsonObject = dict[str, JsonValue]

T = TypeVar("T")


class JsonRecord:
    """A record type: written by :meth:`to_json` in exactly the layout its fields declare, read
    back by :meth:`from_json`, which never raises (see the module's docstring)."""

    def to_json(self) -> JsonObject:
        written: JsonObject = _adapter(type(self)).dump_python(self, by_alias=True)
        return written

    @classmethod
    def from_json(cls, data: JsonObject) -> Self:
        read: Self = _adapter(cls).validate_python(data)
        return read


_adapters: dict[type[JsonRecord], TypeAdapter[Any]] = {}


def _adapter(kind: type[JsonRecord]) -> TypeAdapter[Any]:
    """Built on first use: a run that reads no record pays nothing for it at start-up."""
    if kind not in _adapters:
        _adapters[kind] = TypeAdapter(kind)
    return _adapters[kind]


def _default_when_invalid(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    try:
        return handler(value)
    except ValidationError:
        raise PydanticUseDefault() from None


#: A field's default when its value does not validate.
_OR_DEFAULT = WrapValidator(_default_when_invalid)


def number_or_none(value: object) -> int | float | None:
    """``value`` when it is a number (an int stays an int), else None; a boolean is no number."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _number(value: object) -> int | float:
    if (found := number_or_none(value)) is None:
        raise ValueError("not a number")
    return found


def as_object(value: object) -> JsonObject:
    """``value`` when it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _objects(value: object) -> list[JsonObject]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _texts(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _numbers(value: object) -> dict[str, int | float]:
    """The entries of an object whose values are numbers."""
    return {key: found for key, item in as_object(value).items() if (found := number_or_none(item)) is not None}


def as_written(value: T) -> T:
    """A serializer for values written as they are held (JSON already, or numbers kept int or float)."""
    return value


#: Leaves a field out of the record when it is empty (None, "", an empty list or object).
OMITTED_WHEN_EMPTY = Field(exclude_if=lambda value: not value)
#: Leaves a field out of the record when it is None.
OMITTED_WHEN_NONE = Field(exclude_if=lambda value: value is None)

#: Text, or "" (or the field's default).
Text = Annotated[str, Strict(), Field(default=""), _OR_DEFAULT]
#: Text, or None.
OptionalText = Annotated[Union[Annotated[str, Strict()], None], Field(default=None), _OR_DEFAULT]
#: A whole number, or 0; a boolean is none.
Integer = Annotated[int, Strict(), Field(default=0), _OR_DEFAULT]
#: A whole number, or None.
OptionalInteger = Annotated[Union[Annotated[int, Strict()], None], Field(default=None), _OR_DEFAULT]
#: A number as written (an int stays an int), or None; a boolean is none.
Number = Annotated[Union[float, None], PlainValidator(_number), PlainSerializer(as_written), Field(default=None),
                   _OR_DEFAULT]
#: A number as written, or 0.0; a zero reads as 0.0 too (as the records always read).
Amount = Annotated[float, PlainValidator(lambda value: _number(value) or 0.0), PlainSerializer(as_written),
                   Field(default=0.0), _OR_DEFAULT]
#: True or False, else the field's default.
Boolean = Annotated[bool, Strict(), _OR_DEFAULT]
#: The texts of a list (anything else in it is left out), or an empty list.
Texts = Annotated[list[str], PlainValidator(_texts), PlainSerializer(as_written), Field(default_factory=list)]
#: The same, held as a tuple.
TextTuple = Annotated[tuple[str, ...], PlainValidator(lambda value: tuple(_texts(value))), PlainSerializer(list),
                      Field(default=())]
if TYPE_CHECKING:
    _Object = JsonObject
else:  # pydantic takes a JSON value as written and never looks inside it (nor needs its recursive type)
    _Object = dict[str, Any]
#: An object as written, or an empty one.
Object = Annotated[_Object, PlainValidator(as_object), PlainSerializer(as_written), Field(default_factory=dict)]
#: The objects of a list as written (anything else in it is left out), or an empty list.
Objects = Annotated[list[_Object], PlainValidator(_objects), PlainSerializer(as_written), Field(default_factory=list)]
#: The same, held as a tuple.
ObjectTuple = Annotated[tuple[_Object, ...], PlainValidator(lambda value: tuple(_objects(value))),
                        PlainSerializer(lambda objects: [dict(each) for each in objects]), Field(default=())]
#: The entries of an object whose values are numbers, as written.
Numbers = Annotated[dict[str, float], PlainValidator(_numbers), PlainSerializer(as_written),
                    Field(default_factory=dict)]
#: The records of a list (anything that is not one is left out), or an empty list.
Records = Annotated[list[OnErrorOmit[T]], Field(default_factory=list), _OR_DEFAULT]


def _part_or_none(value: object) -> object:
    return value if isinstance(value, dict) and value else None


def _none_as_empty(value: object, handler: Callable[[object], object]) -> object:
    return {} if value is None else handler(value)


#: A record written as ``{}`` when there is none, and read as None from an empty object (or from
#: anything else but an object).
PartOrEmpty = Annotated[Union[T, None], BeforeValidator(_part_or_none), WrapSerializer(_none_as_empty),
                        Field(default=None), _OR_DEFAULT]
#: A record left out when there is none, and read as None from an empty object (or from anything
#: else but an object, or from one it cannot read).
OptionalPart = Annotated[Union[T, None], BeforeValidator(_part_or_none), OMITTED_WHEN_NONE, Field(default=None),
                         _OR_DEFAULT]


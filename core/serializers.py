"""The API's serializer bases: a JSON body's values must have the types the schema gives.

DRF converts what it can: ``5`` is taken for a text field, ``"5"`` for a number, ``"yes"`` for a
boolean. The schema promises a type, so a JSON body that sends another is a 400 naming the field
(a form-encoded body, whose values are all text, is converted as before: the pages use them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from rest_framework import serializers

#: The largest row id (a 64-bit primary key); a request's id field says so, and a JSON number
#: beyond it (which orjson reads as a float) is refused as out of range, not as a non-integer.
LARGEST_ID = 2**63 - 1


def _is_int(value: Any) -> bool:
    """JSON Schema's integer: 3 and 3.0 (DRF takes both), not 3.5 or true."""
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _json_type(field: serializers.Field) -> tuple[str, Callable[[Any], bool]] | None:
    """The JSON type ``field`` takes, as a name and a test; None: any (or its own checks)."""
    if isinstance(field, serializers.BooleanField):
        return _("a boolean"), lambda value: isinstance(value, bool)
    if isinstance(field, serializers.IntegerField):
        return _("an integer"), _is_int
    if isinstance(field, serializers.FloatField):
        return _("a number"), _is_number
    if isinstance(field, serializers.DecimalField):  # as its schema says: a number, or text
        if field.coerce_to_string is False:
            return _("a number"), _is_number
        return _("text"), lambda value: isinstance(value, str)
    if isinstance(field, serializers.ChoiceField) and not isinstance(
        field, serializers.MultipleChoiceField
    ):
        if all(isinstance(choice, str) for choice in field.choices):
            return _("text"), lambda value: isinstance(value, str)
        return None
    if isinstance(field, serializers.CharField | serializers.DateTimeField | serializers.DateField):
        return _("text"), lambda value: isinstance(value, str)
    if isinstance(field, serializers.ListField | serializers.ListSerializer):
        return _("a list"), lambda value: isinstance(value, list)
    if isinstance(field, serializers.DictField | serializers.BaseSerializer):
        return _("an object"), lambda value: isinstance(value, Mapping)
    return None


#: What ``str.strip()`` removes, as a regular-expression class (Python's, not ECMAScript's
#: ``\\s``, which differs by a few characters).
SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"


class TextField(serializers.CharField):
    """Text whose length limits are those of the text without the spaces around it, which is
    what the services keep: ``max_length`` is checked as sent (never longer after stripping),
    ``min_length`` after stripping. The schema states both (``maxLength`` and a pattern)."""

    def __init__(self, *, min_length: int = 0, **kwargs):
        kwargs["trim_whitespace"] = False
        kwargs.setdefault("allow_blank", min_length == 0)
        super().__init__(**kwargs)
        self.min_stripped = min_length

    def to_internal_value(self, data):
        text = super().to_internal_value(data).strip()
        if len(text) < self.min_stripped:
            raise serializers.ValidationError(
                _("Give at least %(min_stripped)s characters (not counting spaces around them).")
                % {"min_stripped": self.min_stripped}
            )
        return text

    def schema_pattern(self) -> str:
        """Holds no NUL, and at least ``min_length`` characters from the first one that is not
        a space to the last."""
        n = self.min_stripped
        if n == 0:
            return "^[^\\x00]*$"
        word = f"[^{SPACE}\\x00]"
        middle = "" if n == 1 else f"[^\\x00]{{{n - 2},}}{word}"
        return f"^[^\\x00]*?{word}{middle}[^\\x00]*$"


class StrictTypes:
    """Refuses a JSON value of the wrong type before DRF converts it; takes text as sent (DRF
    strips the spaces around it before checking its length, which no schema can say)."""

    def get_fields(self):
        fields = super().get_fields()
        for field in fields.values():
            if type(field) is serializers.CharField:
                field.trim_whitespace = False
        return fields

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and not isinstance(data, QueryDict):
            errors = {}
            for name, field in self.fields.items():
                if field.read_only or name not in data or data[name] is None:
                    continue  # absent and null: the field's own rules
                expected = _json_type(field)
                if expected and not expected[1](data[name]):
                    errors[name] = [
                        _("Must be %(expected)s, not %(sent)s.")
                        % {"expected": expected[0], "sent": _json_name(data[name])}
                    ]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


def _json_name(value: Any) -> str:
    if isinstance(value, bool):
        return _("a boolean")
    if isinstance(value, int | float):
        return _("a number")
    if isinstance(value, str):
        return _("text")
    if isinstance(value, list):
        return _("a list")
    return _("an object") if isinstance(value, Mapping) else type(value).__name__


class StrictSerializer(StrictTypes, serializers.Serializer):
    pass


class StrictModelSerializer(StrictTypes, serializers.ModelSerializer):
    pass


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict:
    """``data`` checked by ``serializer_class``: its validated data, or the 400 naming the
    fields at fault (the exception handler's answer)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data

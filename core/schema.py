"""The OpenAPI schema's own rules, so that it says what the API does (drf-spectacular).

:class:`SumitoAutoSchema` adds, to every operation, the error answers it can give, each with the
one error body (``{"error": code, "detail": message}``, :class:`ErrorSerializer`):

- every operation: 401 (a bad or revoked token is refused on any endpoint) and 429 (throttles,
  with ``Retry-After``);
- a request body, a write, or query parameters: 400;
- a write (POST, PUT, PATCH, DELETE): 403 (not allowed, or a session without its CSRF token),
  409 (the state changed: a stale version, already decided) and 413 (a body over the limit);
- a read that needs a login: 403;
- a path with parameters: 404;
- and what the view lists in ``schema_errors`` (a query parameter naming something: 404; a
  rule between fields or against the current position: 422).

A text query parameter says it holds no NUL character: the site refuses a query string with one
(400) before any view runs.

A serializer whose fields depend on each other says how in ``request_schema_rules`` (JSON Schema
keywords such as ``anyOf``, merged into its request schema; the services enforce them), and
``request_body_required`` when an empty body cannot satisfy them.

A view that serves several operations from one class (``as_view(action=...)``) describes each
with ``schema_for(method) -> dict`` whose ``request``, ``responses`` and ``description`` replace
the class-wide ``@extend_schema`` ones for that route.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import force_instance
from rest_framework import permissions, serializers
from rest_framework.settings import api_settings

from .serializers import TextField

#: No NUL character (core.middleware refuses them in query strings).
NO_NUL = "^[^\\x00]*$"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}

ERROR_DESCRIPTIONS = {
    "400": "Bad input: malformed JSON, a missing field, a value of the wrong type or out of "
    "range, a bad query parameter; `detail` names it (`fields` too, for a body field).",
    "401": "Not authenticated, or the token is malformed, unknown or revoked.",
    "403": "Authenticated but not allowed to do this (or a session request without its CSRF "
    "token).",
    "404": "There is no such object (the detail names it).",
    "409": "The request conflicts with the current state (a stale version, already decided, "
    "already done); read the object again.",
    "413": "The request body is larger than the server takes (1 MiB).",
    "422": "Well-formed, but against a rule the schema cannot state: a move the position does "
    "not allow, fields that contradict each other.",
    "429": "Too many requests: wait the seconds in `Retry-After`.",
}


class ErrorSerializer(serializers.Serializer):
    """Every error the API answers."""

    error = serializers.CharField(help_text="a short machine-readable code, e.g. `stale_ply`")
    detail = serializers.CharField(help_text="what went wrong, naming the field or object")
    fields = serializers.DictField(
        required=False,
        help_text="for a body that did not validate: the messages per field (a list, or for "
        "a list or object field, the messages per item)",
    )


def _needs_login(view) -> bool:
    return any(
        isinstance(permission, permissions.IsAuthenticated) for permission in view.get_permissions()
    )


class SumitoAutoSchema(AutoSchema):
    def _override(self) -> dict:
        schema_for = getattr(self.view, "schema_for", None)
        return schema_for(self.method) if schema_for else {}

    def get_request_serializer(self):
        override = self._override()
        if "request" in override:
            return override["request"]
        return super().get_request_serializer()

    def get_response_serializers(self):
        override = self._override()
        if "responses" in override:
            return override["responses"]
        return super().get_response_serializers()

    def _map_serializer(self, serializer, direction, bypass_extensions=False):
        schema = super()._map_serializer(serializer, direction, bypass_extensions)
        if type(force_instance(serializer)).__dict__.get("__doc__") is None:
            schema.pop("description", None)  # not a base class's docstring
        if direction == "request":
            for field_schema in schema.get("properties", {}).values():
                for text in (field_schema, field_schema.get("items") or {}):
                    if text.get("type") == "string" and not {"enum", "pattern", "format"} & set(
                        text
                    ):
                        text["pattern"] = NO_NUL  # DRF refuses a NUL in any text field
            rules = getattr(serializer, "request_schema_rules", None)
            if rules:
                schema = {**schema, **rules}
        return schema

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(field, TextField):
            schema.pop("minLength", None)
            schema["pattern"] = field.schema_pattern()
        return schema

    def get_description(self):
        return self._override().get("description") or super().get_description()

    def error_statuses(self, operation: dict) -> list[str]:
        codes = {"401", "429"}
        has_query = any(p["in"] == "query" for p in operation.get("parameters", []))
        if self.method in UNSAFE:
            codes |= {"400", "403", "409", "413"}
        elif _needs_login(self.view):
            codes.add("403")
        if has_query or "requestBody" in operation:
            codes.add("400")
        if any(p["in"] == "path" for p in operation.get("parameters", [])):
            codes.add("404")
        extra = getattr(self.view, "schema_errors", ())
        codes.update(extra.get(self.method, ()) if isinstance(extra, dict) else extra)
        return sorted(codes)

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        for parameter in operation.get("parameters", []):
            schema = parameter.get("schema", {})
            text = parameter["in"] == "query" and schema.get("type") == "string"
            if text and not {"enum", "pattern", "format"} & schema.keys():
                schema["pattern"] = NO_NUL
            if parameter["name"] == api_settings.URL_FORMAT_OVERRIDE and "" not in schema.get(
                "enum", [""]
            ):
                schema["enum"].append("")  # blank: the Accept header decides, as DRF does
        if "requestBody" in operation:
            request = force_instance(self.get_request_serializer())
            if getattr(request, "request_body_required", False):
                operation["requestBody"]["required"] = True
        responses = operation["responses"]
        error = self._get_response_for_code(ErrorSerializer, "400")["content"]
        for code in self.error_statuses(operation):
            answer = responses.setdefault(code, {"description": ERROR_DESCRIPTIONS[code]})
            if not answer.get("content"):
                answer["content"] = error
                answer["description"] = answer.get("description") or ERROR_DESCRIPTIONS[code]
        if "429" in responses:
            responses["429"]["headers"] = {
                "Retry-After": {
                    "schema": {"type": "integer", "minimum": 0},
                    "description": "seconds to wait before trying again",
                }
            }
        return operation


def choice_or_blank(values) -> dict:
    """A query parameter's schema: one of ``values``, or blank for "any"."""
    return {"type": "string", "enum": ["", *values]}


#: A query parameter's schema: a date (YYYY-MM-DD), or blank for "any".
DATE_OR_BLANK = {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "enum": [""]}]}

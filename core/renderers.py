"""The API's JSON renderer: DRF's, with the encoding done by orjson.

A game's state (its legal moves and every move played) is the largest answer the site sends
many times a second; DRF's renderer spent about a tenth of a move's CPU encoding it, orjson a
fraction of that. The output is DRF's: compact, UTF-8, ``\\u2028``/``\\u2029`` escaped, and every
value orjson does not encode the same way (datetimes, decimals, lazy translations, ...) goes
through DRF's own encoder. An answer a client asks to be indented is left to DRF.
"""

import orjson
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

_drf_encoder = JSONEncoder()
_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


def _default(value):
    return _drf_encoder.default(value)


def encode_json(data) -> bytes:
    """``data`` as DRF's JSON renderer writes it (compact), encoded by orjson where it can be.
    The API's answers and the game events sent to sockets both go through here."""
    try:
        encoded = orjson.dumps(data, default=_default, option=_OPTIONS)
    except orjson.JSONEncodeError:  # what orjson refuses (say, an int beyond 64 bits)
        return JSONRenderer().render(data)
    if b"\xe2\x80\xa8" in encoded or b"\xe2\x80\xa9" in encoded:
        encoded = encoded.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
    return encoded


class FastJSONRenderer(JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        if self.get_indent(accepted_media_type, renderer_context or {}) is not None:
            return super().render(data, accepted_media_type, renderer_context)
        return encode_json(data)

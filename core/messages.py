"""Messages for people, in any of the site's languages, from code that imports no Django.

The pure engines (the rules, pairing) write their messages as English templates with named
parameters (``"%(cell)s is not a cell"``), marked with :func:`gettext_noop` so that the site's
``makemessages`` puts them in its catalogues; the site shows them in the reader's language with
``message.render(gettext)`` (``core.errors.engine_text``), while ``str(message)`` is the English
text. A parameter that is itself a word to translate (a colour's name) is a :class:`Term`; a
decimal number is a :class:`Number`; one that is another message is rendered in the same
language.

:class:`Text` is a message that is part of another, or kept as data and shown later
(``to_data``/``from_data``); :class:`MessageError` is an error whose message is such a text.
This module imports nothing but the standard library, so any engine may use it.
"""

from __future__ import annotations

from collections.abc import Callable


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the site's translation catalogues (``makemessages`` finds it by this
    name, as it finds Django's own); here it changes nothing."""
    return message


class Term(str):
    """A parameter of a message that is a word to translate too (``Term("Black")``)."""

    __slots__ = ()


class Number(str):
    """A decimal number in a message (``Number("1.5")``): written with the reader's decimal
    separator when the site gives ``render`` a ``number`` function, as it is otherwise."""

    __slots__ = ()


#: Writes a :class:`Number` for the reader ("1.5" -> "1,5"); None: as it is.
NumberFormat = Callable[[str], str] | None


class Text:
    """A message that is part of another (``ply 4 (move 2, White)``): its template and named
    values, shown in English by ``str`` and in the reader's language by :meth:`render`."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params

    def render(
        self, translate: Callable[[str], str] = lambda text: text, number: NumberFormat = None
    ) -> str:
        return _render(self.template, self.params, translate, number)

    def __str__(self) -> str:
        return self.render()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Text):
            return NotImplemented
        return (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)

    def __repr__(self) -> str:
        return f"Text({self.template!r}, **{self.params!r})"

    def to_data(self) -> dict:
        """The text as JSON-ready data, to be stored and shown later in each reader's language
        (:meth:`from_data`): ``{"text": template, "values": {name: value}}``, a :class:`Term`
        as ``{"term": word}``, a :class:`Number` as ``{"number": "1.5"}``, a nested text the
        same way."""
        return {"text": self.template, "values": {k: _data(v) for k, v in self.params.items()}}

    @classmethod
    def from_data(cls, data: dict) -> Text:
        """The text :meth:`to_data` gave; raises ``ValueError`` on anything else."""
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            raise ValueError(f"not a stored text: {data!r}")
        values = data.get("values", {})
        if not isinstance(values, dict):
            raise ValueError(f"not a stored text: {data!r}")
        return cls(data["text"], **{str(k): _from_data(v) for k, v in values.items()})


def _data(value: object) -> object:
    if isinstance(value, Text):
        return value.to_data()
    if isinstance(value, Term):
        return {"term": str(value)}
    if isinstance(value, Number):
        return {"number": str(value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _from_data(value: object) -> object:
    if isinstance(value, dict):
        if isinstance(value.get("term"), str):
            return Term(value["term"])
        if isinstance(value.get("number"), str):
            return Number(value["number"])
        return Text.from_data(value)
    return value


def _shown(value: object, translate: Callable[[str], str], number: NumberFormat = None) -> object:
    if isinstance(value, (Text, MessageError)):
        return value.render(translate, number)
    if isinstance(value, Term):
        return translate(value)
    if isinstance(value, Number) and number is not None:
        return number(value)
    return value


def _render(
    template: str, params: dict, translate: Callable[[str], str], number: NumberFormat = None
) -> str:
    values = {name: _shown(value, translate, number) for name, value in params.items()}
    text = translate(template)
    if not values:
        return text
    try:
        return text % values
    except (KeyError, ValueError, TypeError):  # a broken translation: the English
        return template % values


class MessageError(ValueError):
    """An error whose message is for a person, in any of the site's languages: ``str(err)`` is
    the English, ``err.render(gettext)`` the reader's language (the pairing engine's errors are
    such errors too, ``tournaments.pairing.model.PairingError``).

    ``message``: the English template; ``params``: its named values (a :class:`Term`, a
    :class:`Text` or another error is translated with it); ``subject``: what the message is
    about, shown before it (a move as given, as text; or a :class:`Term` or :class:`Text`),
    ``"<subject>: <message>"``, or ``"<subject> <message>"`` when ``joined`` is ``" "``."""

    default_code = "invalid"

    def __init__(
        self,
        message: str,
        code: str | None = None,
        *,
        subject: object = "",
        joined: str = ": ",
        **params: object,
    ) -> None:
        self.template = message
        self.params = params
        self.subject = subject
        self.joined = joined
        self.message = self.render()
        super().__init__(self.message)
        self.code = code or self.default_code

    def render(
        self, translate: Callable[[str], str] = lambda text: text, number: NumberFormat = None
    ) -> str:
        """The message in the language ``translate`` gives (the site's ``gettext``; its numbers
        as ``number`` writes them); the English without it."""
        text = _render(self.template, self.params, translate, number)
        subject = _shown(self.subject, translate, number)
        return f"{subject}{self.joined}{text}" if subject else text

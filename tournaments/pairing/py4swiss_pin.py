"""What the py4swiss speed-up (:mod:`tournaments.pairing.fast`) was checked against.

The transcription in ``fast`` is exact only for the py4swiss code it was written from, so that
code is pinned twice: ``pyproject.toml`` installs exactly :data:`CHECKED_VERSION`, and
:data:`FINGERPRINTS` holds a sha256 of the source of every py4swiss function replaced,
transcribed, inlined or relied on. :func:`supported` names the first difference;
``fast.install()`` refuses to patch (raising :class:`UnsupportedPy4Swiss`) if there is one.

To upgrade py4swiss: compare the functions named in :data:`FINGERPRINTS` with the new version's
and adapt the transcription; update :data:`CHECKED_VERSION` and :data:`FINGERPRINTS`
(``python -m tournaments.pairing.py4swiss_pin`` prints the installed version's); then run
``tests/tournaments/test_pairing_fast.py`` and ``bench/tournaments.py``.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from py4swiss.engines.dutch.bracket import bracket_matcher as _bracket_matcher_module
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.criteria import QUALITY_CRITERIA
from py4swiss.engines.dutch.criteria.absolute import C1, C3
from py4swiss.engines.dutch.criteria.quality import (
    C5,
    C6,
    C7,
    C8,
    C9,
    C10,
    C11,
    C12,
    C13,
    C14,
    C15,
    C16,
    C17,
    C18,
    C19,
)
from py4swiss.engines.dutch.player import Player
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher

# The py4swiss release the transcription was checked against (pinned in pyproject.toml).
CHECKED_VERSION = "0.3.1"
TRANSCRIBED_CRITERIA = (C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17, C18, C19)

# The methods replaced, as (class, attribute name); their stock versions are kept in STOCK.
TARGETS: tuple[tuple[type, str], ...] = (
    (BracketMatcher, "_get_weight"),
    (BracketMatcher, "_set_up_computer"),
    (BracketMatcher, "add_to_weights"),
    (BracketMatcher, "remove_weights"),
    (BracketMatcher, "finalize_match"),
    (BracketMatcher, "update_matching"),
    (ValidityMatcher, "is_allowed_pair"),
    (ValidityMatcher, "_set_up_computer"),
    (ValidityMatcher, "finalize_match"),
)
STOCK: dict[tuple[type, str], Callable[..., Any]] = {
    (owner, name): owner.__dict__[name] for owner, name in TARGETS
}


class UnsupportedPy4Swiss(RuntimeError):
    """The installed py4swiss is not the code this module was checked against.  A deployment
    error, raised at start-up by :func:`install`; the message names the first difference."""


# Every py4swiss function whose code this module depends on, by qualified name: the stock
# versions of the methods replaced (their statements are reproduced), the quality criteria
# transcribed by _criteria_weight, the absolute criteria C.1 and C.3 transcribed by
# _c3_allows, _c3_class and the validity replacements, the helpers inlined into the
# replacements, the constructors that set the attributes the replacements read, and the
# identity of players (_index_by_id relies on ``Player.__hash__``/``__eq__`` being the id's).
_CHECKED_FUNCTIONS: dict[str, Callable[..., Any]] = {
    **{f"{owner.__name__}.{name}": STOCK[owner, name] for owner, name in TARGETS},
    **{
        f"{criterion.__name__}.get_weight": criterion.get_weight
        for criterion in TRANSCRIBED_CRITERIA
    },
    "C1.evaluate": C1.evaluate,
    "C3.evaluate": C3.evaluate,
    "BracketMatcher.__init__": BracketMatcher.__init__,
    "BracketMatcher._get_index": BracketMatcher._get_index,
    "BracketMatcher._get_player": BracketMatcher._get_player,
    "BracketMatcher._set_weight": BracketMatcher._set_weight,
    "BracketMatcher._remove_weight": BracketMatcher._remove_weight,
    "BracketMatcher.add_to_weight": BracketMatcher.add_to_weight,
    "BracketMatcher.remove_weight": BracketMatcher.remove_weight,
    "ValidityMatcher.__init__": ValidityMatcher.__init__,
    "Player.__eq__": Player.__eq__,
    "Player.__hash__": Player.__hash__,
}

# sha256 of ``inspect.getsource`` of each function above in py4swiss CHECKED_VERSION, as printed
# by ``python -m tournaments.pairing.fast``.
FINGERPRINTS: dict[str, str] = {
    "BracketMatcher._get_weight": "109b11e72609b12e578b85b5fa9385cd9a5ab4e0322a60b70d23588a12f6ee94",
    "BracketMatcher._set_up_computer": "4d0c2a81015cb4dceec2d68fb155aa3e795c853db3937c7ff006802f5deceaf1",
    "BracketMatcher.add_to_weights": "56c8def06568c68dc0dae8f2d64abf33da1d29c4a981635de068f594c4ef4194",
    "BracketMatcher.remove_weights": "635d415e0119f1a259f2b52133c1345fc74bc80dfc77f10bc6e08442c4d20312",
    "BracketMatcher.finalize_match": "5391b4e26b512c0c47e134cd1effd65f893d2a5407bfc543640495a879e26288",
    "BracketMatcher.update_matching": "bdcf3867bf445519642c4048e5c8efb554ac83379059edeaf213f26fe1f85c44",
    "ValidityMatcher.is_allowed_pair": "2f6c5624360f63f56a4bdf39d60794ffb60fb8fa0a8aa90e32a5b14d42775171",
    "ValidityMatcher._set_up_computer": "ebcbb3b40f0f788ac55f6be3a42a468aa76e56e7241722a3e61ed852985e9241",
    "ValidityMatcher.finalize_match": "f2f5c14906a7c1c02d9647fcc90291f377f51d5b455b363e97a9647663c8a503",
    "C5.get_weight": "3867e9773d7fcea32625f5ad118428a2f038eea63412a0d8c0c0eeda8f847096",
    "C6.get_weight": "3421fd318f5fd607b10ca5d6b36a3b0fa32704f829da78c89370c2661a62319b",
    "C7.get_weight": "de8657ab2fc378f17eda7ead420837975e89c2c424e32e887d412df2130c180d",
    "C8.get_weight": "40e5fec9a636a6fef070109aa2942caa25c720669b658777bb81f5fb0f0c4b53",
    "C9.get_weight": "8f9ffa569c97aa26e09977a5c06c73003dc27ca75c3716e5a613826eca245dea",
    "C10.get_weight": "30ca3a07e4fcb74a357f9d7480b998c45dd2f0235a9bc5482a841e390f4187a7",
    "C11.get_weight": "0e2bfa70c978258869be16ef697b5cf0435597761966f3246959d4504642b02d",
    "C12.get_weight": "639d4096c032c4546aa6f282118c0da89be4446b0348c8597a729a1eaea7bf9a",
    "C13.get_weight": "57137bce660cbc2c760d3d2904e932a1266591366e1a9d532d6bb3eccd2fea4c",
    "C14.get_weight": "63adf3f481442ab86be784f7b43a023bd0159412fa9aa51d8795bae532d51c72",
    "C15.get_weight": "0cb0b4738f2d225f5b766872e881fb87d2488db175bda9b91420123358ebcf42",
    "C16.get_weight": "594c05a3a699007f14f9318fed4326c57f13b3dbd26c0138a68341920579f187",
    "C17.get_weight": "f92cfed9258abaef837959a99508514c5e6e712711401d8dc6bbd25eebaa23a6",
    "C18.get_weight": "c2917e146ee5b9f715f0711d09536289e351ff428f8e3d03579363ad6559377c",
    "C19.get_weight": "ab123ef6723994eed5196f3b97b34d1fd5396914038ef9f663d47afc2fe9891f",
    "C1.evaluate": "92636a491341997370a5a3e2e4bdfed78ba216123c04c88742cb40993ba8bde1",
    "C3.evaluate": "70fdbfb2b99a120ad8c5a3a55bfa79e04e74e96af3061191009bda677eb57649",
    "BracketMatcher.__init__": "4613caa947550bae087616c2a85102aa77ce740299d490b77fa9805c2eef13bc",
    "BracketMatcher._get_index": "3bb7bcc7f454b1c192566a9b53273fb56bd8353023d3fafe6c931ec5b0997dd8",
    "BracketMatcher._get_player": "fb4bf8c0e5a5a310124e30ffe8ddd22c380a25b75fd4375857598e4d88443f93",
    "BracketMatcher._set_weight": "cd7293c613c03a5a4e8c1950edc031c0391ae6d580db3f1f11c4b07470a1fb1f",
    "BracketMatcher._remove_weight": "8f12dfded0e3af1a2f3eac58b3b061b38fda463fbeeeeae2120f66f438ead8aa",
    "BracketMatcher.add_to_weight": "8424bf0a2cacc5a671deb2cdeb03af972e3d4fe8d1c957bd285d2b677d14e0d2",
    "BracketMatcher.remove_weight": "7b4ba8c096a0fc48e602ad00471a64be51cd59f404326310764782781ff37c3e",
    "ValidityMatcher.__init__": "af56cb8b226a502d5489d5f19005f6b0395a267387ee7fd96e5a872f76aac5c6",
    "Player.__eq__": "b33a5fe454098cf9f7151253d46798ef44ef17037117ebe516aee510abc17c67",
    "Player.__hash__": "8231fc75dba50fe6d48ecb6f5da304d4aef2b4525bacdcf77ffc354124a715cc",
}


def fingerprint(function: Callable[..., Any]) -> str:
    """The sha256 (hex) of ``function``'s source text.  Raises ``OSError`` if the source is not
    available (py4swiss installed without its ``.py`` files)."""
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()


def current_fingerprints() -> dict[str, str]:
    """The fingerprints of the installed py4swiss, in the order and with the names of
    :data:`FINGERPRINTS`."""
    return {name: fingerprint(function) for name, function in _CHECKED_FUNCTIONS.items()}


def supported() -> str | None:
    """None if the installed py4swiss is the code this module was checked against, else the
    first difference found, as a sentence: the version, then the tuple of quality criteria, then
    each function of :data:`FINGERPRINTS` in order."""
    try:
        installed = version("py4swiss")
    except PackageNotFoundError:
        return (
            "py4swiss's version is unknown (no package metadata); "
            f"tournaments.pairing.fast was checked against {CHECKED_VERSION}"
        )
    if installed != CHECKED_VERSION:
        return (
            f"py4swiss {installed} is installed; "
            f"tournaments.pairing.fast was checked against {CHECKED_VERSION}"
        )
    if tuple(QUALITY_CRITERIA) != TRANSCRIBED_CRITERIA:
        return "py4swiss's quality criteria are not C5..C19"
    if _bracket_matcher_module.QUALITY_CRITERIA is not QUALITY_CRITERIA:
        return "BracketMatcher uses another tuple of quality criteria"
    for name, function in _CHECKED_FUNCTIONS.items():
        expected = FINGERPRINTS.get(name)
        if expected is None:
            return f"tournaments.pairing.fast records no fingerprint of py4swiss's {name}"
        try:
            actual = fingerprint(function)
        except (OSError, TypeError):
            return f"the source of py4swiss's {name} cannot be read to check it"
        if actual != expected:
            return (
                f"py4swiss's {name} differs from the code transcribed in "
                f"tournaments.pairing.fast (checked against py4swiss {CHECKED_VERSION})"
            )
    return None


if __name__ == "__main__":
    # For an upgrade of py4swiss: the fingerprints of the installed version, to paste above.
    import pprint

    pprint.pprint(current_fingerprints(), sort_dicts=False, width=100)

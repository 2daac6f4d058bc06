"""The error hierarchy of majiang.

Every error the package raises on bad input is a :class:`MajiangError`, which is a
:class:`ValueError`, so callers may catch either. Each names what is wrong: the bad
token and its position, the bad tile and its count, or the illegal action.
"""

from __future__ import annotations


class MajiangError(ValueError):
    """Base of every majiang input error (a ``ValueError``)."""


class TileParseError(MajiangError):
    """Text that is not a tile in the notation asked for.

    Attributes:
        token: the offending text.
        position: its 0-based character offset in the input (or token index for
            token-based notations such as Botzone codes and seed hex codes).
        notation: the notation being parsed (``"compact"``, ``"chinese"``, ...).
    """

    def __init__(self, message: str, *, token: str = "", position: int = -1, notation: str = "") -> None:
        super().__init__(message)
        self.token = token
        self.position = position
        self.notation = notation


class TileCountError(MajiangError):
    """A hand or tile list with an impossible number of tiles.

    Raised for a fifth copy of a tile, for a concealed part whose size is not
    3n+1 / 3n+2, and for the seed's 相公 cases (one tile short: 小相公; one
    tile too many: 大相公).

    Attributes:
        kind: a short machine-readable name: ``"fifth-copy"``, ``"short"``
            (小相公), ``"long"`` (大相公), ``"size"``.
        tile: the tile concerned (an index 0-41) or ``None``.
        count: the count found.
    """

    def __init__(self, message: str, *, kind: str, tile: int | None = None, count: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.tile = tile
        self.count = count


class MeldError(MajiangError):
    """A declared meld that cannot exist (e.g. a chow of honours, a pung of mixed tiles)."""


class SeedContractError(MajiangError):
    """An input outside the contract of the seed's ``TestHu`` (seed ``000_*``)."""

"""From physical tiles to what the solver takes: natural counts plus a number of wildcards.

RULES.md §1.3 keeps three identities per tile: *physical* (the printed face), *natural* (a fixed
mapping such as the White dragon playing the wildcard's face, 白板代) and *logical* (what it plays in
one decomposition — see :mod:`majiang.analysis.decompose`). This module does the first step:

* every physical copy of a wildcard face (百搭/财神) becomes a wildcard;
* with ``white_stands_in`` the White dragons play the wildcard's own face as natural tiles (seed
  000; Wenzhou, RULES.md §4) — unless White itself is the wildcard face;
* :data:`~majiang.tiles.WILD` entries (``*`` in compact notation) are wildcards as they stand.
"""

from __future__ import annotations

from collections.abc import Iterable

from majiang.errors import MajiangError, TileCountError
from majiang.tiles import NUM_KINDS, WHITE, WILD, format_compact


def split_wildcards(tiles: Iterable[int], wild_faces: Iterable[int] = (),
                    white_stands_in: bool = False) -> tuple[list[int], int]:
    """Return ``(counts, wilds)``: a count vector of the natural tiles and the number of wildcards.

    ``wild_faces``: tile faces (0-33) whose copies are wild. ``white_stands_in`` needs exactly one
    wildcard face. Raises :class:`~majiang.errors.MajiangError` for a flower or a bad face and
    :class:`~majiang.errors.TileCountError` for more than four copies of a printed face (wildcard
    faces and Whites included) or more than four natural copies of a face (a White standing in for
    a face held four times). ``*`` entries are wildcards without a printed face and are not limited.
    """
    faces = set(wild_faces)
    for f in faces:
        if not 0 <= f < NUM_KINDS:
            raise MajiangError(f"wildcard face {f!r} is not one of the 34 tile kinds")
    stand_in = None
    if white_stands_in:
        if len(faces) != 1:
            raise MajiangError(f"the White stand-in needs exactly one wildcard face, got {len(faces)}")
        (stand_in,) = faces
        if stand_in == WHITE:
            stand_in = None  # White is itself the wildcard: its copies are wild
    tiles = list(tiles)
    physical = [0] * NUM_KINDS
    for t in tiles:
        if 0 <= t < NUM_KINDS:
            physical[t] += 1
    for t, n in enumerate(physical):
        if n > 4:  # a wildcard face or a White standing in is still a printed tile: four copies
            raise TileCountError(f"{n} copies of {format_compact([t])}: there are only four",
                                 kind="fifth-copy", tile=t, count=n)
    counts = [0] * NUM_KINDS
    wilds = 0
    for t in tiles:
        if t == WILD or t in faces:
            wilds += 1
        elif not 0 <= t < NUM_KINDS:
            raise MajiangError(f"tile {t!r} cannot be in a concealed hand (flowers are set aside)")
        elif t == WHITE and stand_in is not None:
            counts[stand_in] += 1
        else:
            counts[t] += 1
    for t, n in enumerate(counts):
        if n > 4:
            raise TileCountError(f"{n} natural copies of {format_compact([t])}: there are only four",
                                 kind="fifth-copy", tile=t, count=n)
    return counts, wilds


def split_counts(counts: list[int], wild_face: int | None, white_stands_in: bool) -> tuple[list[int], int]:
    """The same step on a count vector, in place: copies of ``wild_face`` become the returned number of
    wildcards, and with ``white_stands_in`` the Whites count as that face (unless White is the wildcard).
    Returns ``(counts, wilds)``; ``counts`` is the list passed in, changed."""
    wilds = 0
    if wild_face is not None:
        wilds = counts[wild_face]
        counts[wild_face] = 0
        if white_stands_in and wild_face != WHITE:
            counts[wild_face] += counts[WHITE]
            counts[WHITE] = 0
    return counts, wilds


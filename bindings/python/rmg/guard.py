"""Guards (rmg/guard.h): strength index, totals and whole guards, usable without a map."""

from __future__ import annotations

from ctypes import byref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Union

from . import _lib
from . import _structs as S
from .enums import GuardChoice, MapMonsters, MonsterStrength, Mood, coerce
from .errors import invalid_argument

if TYPE_CHECKING:
    from .context import Context

GUARD_MIN_TOTAL = 2000  # RMG_GUARD_MIN_TOTAL (GRD-05)


@dataclass(frozen=True)
class GuardStrength:
    """GRD-01..05 for one value: ``index`` (the strength index, 0 when the zone is unguarded),
    ``total`` (the exact total), and ``guarded`` (whether a guard stands: total >= 2000)."""

    index: int
    total: float
    guarded: bool


def guard_strength(
    value: int,
    zone_strength: Union[str, int, MonsterStrength],
    map_strength: Union[str, int, MapMonsters],
    connection: bool = False,
) -> GuardStrength:
    """The guard strength of ``value`` in a zone of ``zone_strength`` ("none", "weak",
    "medium", "strong") on a map of ``map_strength`` ("weak", "normal", "strong"); a
    connection guard ignores the zone's strength (ZON-23)."""
    lib = _lib.lib()
    zone = coerce(MonsterStrength, zone_strength, "zone monster strength")
    world = coerce(MapMonsters, map_strength, "map monster strength")
    index = int(lib.rmg_guard_strength_index(zone, world, 1 if connection else 0))
    if index < 0:
        raise invalid_argument(f"invalid strength combination {zone_strength!r}/{map_strength!r}")
    if index == 0:
        return GuardStrength(0, 0.0, False)
    total = float(lib.rmg_guard_total(int(value), index))
    if total < 0:
        raise invalid_argument(f"value {value} is out of range")
    return GuardStrength(index, total, int(lib.rmg_guard_needed(int(value), index)) == 1)


@dataclass(frozen=True)
class GuardResult:
    """A computed guard (rmg_guard), or ``guarded`` False. Attributes: ``strength_index``,
    ``total`` (GRD-03), ``value`` (the guarded value), ``creature`` (content index) and
    ``creature_key``, ``ai_value`` (one creature's AI value), ``mean`` and ``count`` (the mean
    and the drawn number of creatures), ``disposition`` (0..10), ``join_percent``,
    ``join_for_money`` and ``choice`` (:class:`rmg.GuardChoice`: how the creature was chosen)."""

    guarded: bool
    strength_index: int
    total: float
    value: int
    creature: int
    creature_key: Optional[str]
    ai_value: int
    mean: int
    count: int
    disposition: int
    join_percent: int
    join_for_money: int
    choice: Union[GuardChoice, int]


def compute_guard(
    context: "Context",
    value: int,
    zone_strength: Union[str, int, MonsterStrength],
    map_strength: Union[str, int, MapMonsters],
    connection: bool,
    monster_factions: int,
    mood: Union[str, int, Mood, None],
    stream: int,
) -> GuardResult:
    """rmg_guard_compute with the creatures of the context's content (see Context.guard)."""
    lib = context._lib
    request = S.GuardRequest()
    lib.rmg_guard_request_init(byref(request))
    request.value = int(value)
    request.zone_strength = coerce(MonsterStrength, zone_strength, "zone monster strength")
    request.map_strength = coerce(MapMonsters, map_strength, "map monster strength")
    request.connection = 1 if connection else 0
    request.monster_factions = int(monster_factions)
    if mood is not None:
        request.mood = coerce(Mood, mood, "mood")
    request.stream = int(stream)
    out = S.sized(S.Guard)
    context.check(lib.rmg_guard_compute(context.handle, byref(request), None, byref(out)))
    return S.to_dataclass(GuardResult, out, {"choice": GuardChoice}, guarded=bool(out.guarded))

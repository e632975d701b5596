"""The context: allocator, RNG, log and progress hooks, errors, seeds; generation entry point."""

from __future__ import annotations

import ctypes
import os
import weakref
from ctypes import byref, c_size_t, c_void_p
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Tuple, Union

from . import _callbacks as cb
from . import _lib
from . import _structs as S
from .enums import (
    MAP_SIZES,
    Faction,
    LogLevel,
    MapMonsters,
    MonsterStrength,
    Mood,
    PluginPolicy,
    Stage,
    Status,
    TemplateFormat,
    Water,
    coerce,
)
from .errors import Error, InvalidArgumentError, as_int, bad_name, error_class, invalid_argument

#: What ``towns=`` takes for a player: a town type (the factions that have towns) or "random".
TOWN_NAMES = [f.name.lower() for f in Faction if f not in (Faction.NONE, Faction.NEUTRAL)] + ["random"]

if TYPE_CHECKING:
    from .map import Map
    from .stage import StageView
    from .template import Template
    from .guard import GuardResult

PathLike = Union[str, "os.PathLike[str]"]
SizeSpec = Union[None, str, int, Tuple[int, int]]
StageCallable = Callable[["StageView"], Optional[int]]


def _map_side(size: SizeSpec) -> Tuple[int, int]:
    if size is None:
        return 0, 0
    if isinstance(size, str):
        key = size.strip().upper()
        if key not in MAP_SIZES:
            raise bad_name("map size", size, list(MAP_SIZES) + ["a side length", "(width, height)"])
        return MAP_SIZES[key], MAP_SIZES[key]
    if isinstance(size, tuple):
        if len(size) != 2:
            raise invalid_argument(f"size: expected (width, height), got {size!r}")
        return as_int(size[0], "size: width"), as_int(size[1], "size: height")
    side = as_int(size, "size")
    return side, side



def _set_towns(opts: "S.GenerateOptions", towns: Dict[int, Union[str, int, Faction]]) -> None:
    """Each player's town choice into the options (towns_chosen bit p-1, towns[p-1])."""
    for player, town in towns.items():
        if not isinstance(player, int) or isinstance(player, bool) or not 1 <= player <= 8:
            raise invalid_argument(f"towns: player {player!r} is not within 1..8")
        if isinstance(town, str) and town.strip().lower() == "random":
            opts.towns_chosen &= ~(1 << (player - 1))
            continue
        try:
            faction = coerce(Faction, town, "town")
        except InvalidArgumentError:
            faction = Faction.NONE
        if faction in (Faction.NONE, Faction.NEUTRAL):
            raise bad_name(f"town for player {player}", town, TOWN_NAMES)
        opts.towns_chosen |= 1 << (player - 1)
        opts.towns[player - 1] = int(faction)

class Context:
    """A librmg context: every allocation, random draw and error of the work done through it.

    ``seed`` seeds the built-in generator. ``allocator`` is a callable in the shape of
    lua_Alloc, ``allocator(ptr, osize, nsize) -> address or None`` (ptr None to allocate,
    nsize 0 to free; see :class:`rmg.CountingAllocator`). ``rng`` is a callable returning
    uniformly random 64-bit integers (the library derives every stream from its words).
    ``log(level, message)`` receives messages up to ``log_level``; ``progress(stage, fraction)``
    is called between stages and cancels the work when it returns true. ``game`` is the game
    the maps are for, ``"hota"`` (default) or ``"sod"`` (Shadow of Death content only: its towns,
    creatures, objects, artifacts, heroes and spells; the CLI's ``--game``).

    A callback that raises does not crash the interpreter: the C work stops with an error and
    the exception is re-raised by the method that started it. Maps and templates made through
    a context keep it alive; :meth:`close` (or ``with``) releases it and everything made with it.
    """

    def __init__(
        self,
        seed: int = 0,
        allocator: Optional[cb.Allocator] = None,
        rng: Optional[cb.RngSource] = None,
        *,
        log: Optional[cb.LogHandler] = None,
        log_level: Union[str, int, LogLevel] = LogLevel.WARNING,
        progress: Optional[cb.ProgressHandler] = None,
        game: str = "hota",
    ) -> None:
        games = {"hota": 0, "sod": 1}  # rmg_content_variant
        if game not in games:
            raise bad_name("game", game, list(games))
        self._lib = _lib.lib()
        self._ptr: Optional[int] = None
        self._state = cb.CallbackState(self._lib)
        self._children: "weakref.WeakSet[Any]" = weakref.WeakSet()
        self._stages: Dict[Stage, Tuple[Any, ...]] = {}
        self._generating = False
        opts = S.ContextOptions()
        self._lib.rmg_context_options_init(byref(opts))
        opts.seed = int(seed) & cb.MASK64
        opts.log_level = coerce(LogLevel, log_level, "log level")
        if allocator is not None:
            opts.alloc = cb.allocator_trampoline(self._state, allocator)
        if rng is not None:
            opts.rng = cb.rng_trampoline(self._state, rng)
        if log is not None:
            opts.log = cb.log_trampoline(self._state, log)
        if progress is not None:
            opts.progress = cb.progress_trampoline(self._state, progress)
        out = c_void_p()
        status = self._lib.rmg_context_create(byref(out), byref(opts))
        pending = self._state.take()
        if status != Status.OK or not out.value:
            err = error_class(status)(status, "rmg_context_create failed")
            if pending is not None:
                raise pending from err
            raise err
        self._ptr = out.value
        self._state.ctx = self._ptr
        if pending is not None:
            raise pending
        self.game = game
        if game != "hota":
            self.check(self._lib.rmg_context_set_content_variant(self._ptr, games[game]))

    # ---- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        """Destroys the context and every map and template made with it. Idempotent."""
        if self._ptr is None:
            return
        for child in list(self._children):
            child.close()
        ptr, self._ptr = self._ptr, None
        self._state.ctx = None
        self._lib.rmg_context_destroy(ptr)
        self._stages.clear()
        pending = self._state.take()
        if pending is not None:
            raise pending

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - nothing to report to from a finalizer
            pass

    @property
    def handle(self) -> int:
        """The rmg_context* (raises once closed)."""
        if self._ptr is None:
            raise invalid_argument("the context is closed")
        return self._ptr

    def _adopt(self, child: Any) -> None:
        self._children.add(child)

    # ---- errors --------------------------------------------------------------------------

    def last_error(self, status: Optional[int] = None) -> Error:
        """The context's last error as an exception object (not raised)."""
        info = S.sized(S.ErrorInfo)
        self._lib.rmg_context_error_get(self.handle, byref(info))
        code = status if status is not None else info.status
        message = S.decode(info.message) or S.decode(self._lib.rmg_status_name(code)) or ""
        return error_class(code)(
            code,
            message,
            file=S.decode(info.file),
            line=info.line,
            column=info.column,
            zone=info.zone,
            connection=info.connection,
            stage=S.decode(info.stage),
        )

    def check(self, status: int) -> None:
        """Raises for a failed call (or a callback that raised during it); no-op otherwise.

        A Python exception raised by a callback is re-raised as is, with the C error as its
        ``__cause__``.
        """
        pending = self._state.take()
        if status != Status.OK:
            err = self.last_error(status)
            if pending is not None:
                raise pending from err
            raise err
        if pending is not None:
            raise pending

    def raise_pending(self) -> None:
        """Re-raises an exception a callback stored during a call that reports no status."""
        self.check(Status.OK)

    def adopt_result(self, status: int, out: c_void_p, wrap: Callable[["Context", Optional[int]], Any]) -> Any:
        """Wraps a handle a C constructor returned, then checks the call: a callback that raised
        during a call that still succeeded must not leak the object it made."""
        made = wrap(self, out.value) if out.value else None
        self.check(status)
        return made

    @property
    def errmsg(self) -> str:
        """rmg_context_errmsg: the message of the last failing call ("" when none)."""
        return S.decode(self._lib.rmg_context_errmsg(self.handle)) or ""

    # ---- seeds, cancellation, streams ------------------------------------------------------

    @property
    def seed(self) -> int:
        """Root seed of the built-in generator (ignored when a host rng is given)."""
        return int(self._lib.rmg_context_seed(self.handle))

    @seed.setter
    def seed(self, value: int) -> None:
        self.check(self._lib.rmg_context_set_seed(self.handle, int(value) & cb.MASK64))

    def cancel(self) -> None:
        """Asks the generation under way to stop (safe from another thread). Each generation
        starts uncancelled, so a cancel requested between generations has no effect."""
        self._lib.rmg_context_cancel(self.handle)

    @property
    def cancelled(self) -> bool:
        """True from a cancel (this method, a progress callback returning true, a raising
        callback) until the next generation starts."""
        return bool(self._lib.rmg_context_cancelled(self.handle))

    def stream(self, label: str, index: int = 0) -> "Rng":
        """The context's random stream (label, index): see rmg_context_stream."""
        from .rng import Rng

        out = Rng(0)
        self.check(self._lib.rmg_context_stream(self.handle, label.encode(), int(index) & cb.MASK64, out.pointer))
        return out

    # ---- templates -----------------------------------------------------------------------

    def load_template(self, path: PathLike, format: Union[str, int, TemplateFormat] = "auto") -> "Template":
        """Reads a template pack file (YAML, HotA h3t, SoD rmg.txt, VCMI JSON)."""
        from .template import Template

        out = c_void_p()
        fmt = coerce(TemplateFormat, format, "template format")
        status = self._lib.rmg_pack_load(self.handle, os.fsencode(path), fmt, byref(out))
        return self.adopt_result(status, out, Template._wrap)

    def template_from_string(
        self, text: Union[str, bytes], name: Optional[str] = None, format: Union[str, int, TemplateFormat] = "yaml"
    ) -> "Template":
        """Reads a template pack from memory; ``name`` is used in error messages."""
        from .template import Template

        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        out = c_void_p()
        fmt = coerce(TemplateFormat, format, "template format")
        label = name.encode("utf-8") if name is not None else None
        status = self._lib.rmg_pack_load_string(self.handle, data, len(data), label, fmt, byref(out))
        return self.adopt_result(status, out, Template._wrap)

    def builtin_template(self) -> "Template":
        """The library's built-in template pack."""
        from .template import Template

        out = c_void_p()
        return self.adopt_result(self._lib.rmg_pack_builtin(self.handle, byref(out)), out, Template._wrap)

    # ---- generation ----------------------------------------------------------------------

    def generate(
        self,
        template: Optional["Template"] = None,
        size: SizeSpec = None,
        underground: Optional[bool] = None,
        players: Optional[int] = None,
        humans: Optional[int] = None,
        water: Union[None, str, int, Water] = None,
        monsters: Union[None, str, int, MapMonsters] = None,
        template_name: Optional[str] = None,
        *,
        seed: Optional[int] = None,
        max_attempts: int = 0,
        time_budget_ms: int = 0,
        towns: Optional[Dict[int, Union[str, int, Faction]]] = None,
        best_of: int = 1,
        threads: int = 0,
        day_points: int = 0,
    ) -> "Map":
        """Generates a map from ``template`` (None: the built-in pack).

        Every option left at None takes the library's default, as ``rmg_generate_options_init``
        and ``rmg generate`` without options do, so the same template and seed give the same map
        here, in C and from the command: the template's choice of size (M when it accepts M),
        levels, players and water level (the first level its filter accepts, else the one its
        name says; docs/template-format.md), 1 human, normal monsters. ``size`` is "S", "M", "L", "XL",
        "H", "XH", "G", a side length or a (width, height) pair; ``underground`` True or False
        asks for two levels or one; ``players`` the total players (0 is the template's choice
        too), ``humans`` the human ones; ``water`` "none", "normal", "islands" or "template" (the
        default); ``monsters``
        "weak", "normal" or "strong". ``template_name`` picks a template of the pack by name
        (else one that fits is drawn at random). ``seed`` re-seeds the context first;
        ``max_attempts`` bounds the retries (0: the library's default) and ``time_budget_ms``
        the time (0: none). Raises :class:`rmg.Error` (e.g. ImpossibleError, PluginError) with
        the library's message naming the stage, zone and rule; a bad option raises
        :class:`rmg.InvalidArgumentError` (a ValueError).
        ``towns`` maps a player (1..8) to the town it plays ("castle", a :class:`Faction`, or
        "random"); the pack's allowed towns limit the choice (MIS-37), other players get a random
        town.

        ``best_of=N`` (N > 1) generates N candidates from sub-seeds of the seed and returns the
        fairest by the balance score (rmg_generate_best_of, docs/balance.md), ``threads`` of them
        at once (0: one after the other); the map's :attr:`Map.best_of` says which won and its
        score. ``day_points`` is the balance report's day (0: 1500).
        """
        from .map import Map

        if seed is not None:
            self.seed = seed
        opts = S.GenerateOptions()
        self._lib.rmg_generate_options_init(byref(opts))
        opts.width, opts.height = _map_side(size)
        if underground is not None:
            opts.levels = 2 if underground else 1
        if players is not None:
            opts.players = as_int(players, "players")
        if humans is not None:
            opts.humans = as_int(humans, "humans")
        if water is not None:
            opts.water = coerce(Water, water, "water level")
        if monsters is not None:
            opts.monsters = coerce(MapMonsters, monsters, "monster strength")
        name = template_name.encode("utf-8") if template_name is not None else None
        opts.template_name = name
        opts.max_attempts = as_int(max_attempts, "max_attempts")
        opts.time_budget_ms = as_int(time_budget_ms, "time_budget_ms")
        _set_towns(opts, towns or {})
        pack = template.handle if template is not None else None
        out = c_void_p()
        if self._generating:
            raise RuntimeError("generate() called from a callback of a generation on the same context; use another Context")
        # No rmg_context_reset_cancel: each generation starts uncancelled in C (core.h, "Cancel").
        info = S.sized(S.BestOfInfo)
        best_of = as_int(best_of, "best_of")
        self._generating = True
        try:
            if best_of > 1:
                best = S.BestOfOptions()
                self._lib.rmg_best_of_options_init(byref(best))
                best.candidates, best.threads, best.day_points = best_of, as_int(threads, "threads"), as_int(
                    day_points, "day_points")
                status = self._lib.rmg_generate_best_of(self.handle, pack, byref(opts), byref(best), byref(out),
                                                        byref(info))
            else:
                status = self._lib.rmg_generate(self.handle, pack, byref(opts), byref(out))
        finally:
            self._generating = False
        made = self.adopt_result(status, out, Map._wrap)
        if best_of > 1:
            made._best_of = {"candidate": info.candidate, "seed": info.seed, "score": info.score,
                             "candidates": info.candidates, "failed": info.failed}
        return made

    def load_h3m(self, path: "os.PathLike[str] | str") -> "Map":
        """Reads an .h3m map file (SoD, or HotA up to 1.8 without scripts) into a Map: terrain,
        roads, objects with their footprints; no zones (rmg_map_load_h3m). Raises
        :class:`rmg.Error` with the byte offset of a malformed file."""
        from .map import Map

        out = c_void_p()
        status = self._lib.rmg_map_load_h3m(self.handle, os.fsencode(path), byref(out))
        return self.adopt_result(status, out, Map._wrap)

    # ---- stage plugins -------------------------------------------------------------------

    def set_stage(
        self,
        stage: Union[str, int, Stage],
        run: Optional[StageCallable],
        policy: Union[str, int, PluginPolicy] = "fail",
    ) -> None:
        """Replaces a generation stage ("solve", "place", "connect", "objects", "guard", "finish").

        ``run(view)`` receives a :class:`rmg.StageView`, the only way to read and write the map
        during the stage; it may call ``view.run_builtin()`` to wrap the built-in stage. It
        returns None (or 0) for success or a status code. When it raises or fails, ``policy``
        decides: "fail" makes generate() raise (the callable's exception, chained to the C
        error), "fallback" runs the built-in stage instead and records a map warning.
        ``run=None`` restores the built-in stage.
        """
        from .stage import stage_trampoline

        sid = coerce(Stage, stage, "stage")
        pol = coerce(PluginPolicy, policy, "plugin policy")
        if run is None:
            self.check(self._lib.rmg_context_set_stage(self.handle, sid, None, pol))
            self._stages.pop(sid, None)
            return
        if not callable(run):
            raise TypeError("the stage must be a callable taking a StageView")
        plugin = S.StagePlugin()
        self._lib.rmg_stage_plugin_init(byref(plugin))
        trampoline = stage_trampoline(weakref.ref(self), self._state, run, pol)
        plugin.run = trampoline
        self.check(self._lib.rmg_context_set_stage(self.handle, sid, byref(plugin), pol))
        # C copied the table but calls the function pointer: keep it while it is registered.
        self._stages[sid] = (trampoline, run)

    # ---- guards --------------------------------------------------------------------------

    def guard(
        self,
        value: int,
        zone_strength: Union[str, int, MonsterStrength] = "medium",
        map_strength: Union[str, int, MapMonsters] = "normal",
        connection: bool = False,
        *,
        monster_factions: int = 0,
        mood: Union[str, int, Mood, None] = None,
        stream: int = 0,
    ) -> "GuardResult":
        """The whole guard of a value (rmg_guard_compute): creature, count, mood."""
        from .guard import compute_guard

        return compute_guard(self, value, zone_strength, map_strength, connection, monster_factions, mood, stream)

    # ---- memory --------------------------------------------------------------------------

    def free(self, address: Optional[int]) -> None:
        """rmg_free: releases memory the library handed out through this context."""
        if address:
            self._lib.rmg_free(self.handle, address)

    def take_string(self, call: Callable[..., int], *args: Any) -> str:
        """Runs a C function with (char **out, size_t *len) last, returns the text and frees it."""
        out, length = c_void_p(), c_size_t()
        status = call(*args, byref(out), byref(length))
        try:
            self.check(status)
            return ctypes.string_at(out.value, length.value).decode("utf-8") if out.value else ""
        finally:
            self.free(out.value)


if TYPE_CHECKING:
    from .rng import Rng

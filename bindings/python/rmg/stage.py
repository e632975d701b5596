"""Stage plugins from Python: the StageView handed to a replaced stage, and its trampoline."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Callable, Optional

from . import _structs as S
from ._callbacks import CallbackState
from .enums import PluginPolicy, Stage, Status, maybe
from .errors import Error, invalid_argument
from .map import Map
from .rng import Rng

if TYPE_CHECKING:
    from .context import Context


class StageView:
    """What a replaced stage may read and write (rmg_stage_view), valid while the stage runs.

    Reading: ``stage``, ``map`` (every Map accessor works on the map built so far), ``rng``
    (the plugin's own stream), ``template_index``. Writing, each allowed only in the stages
    the C API names (a forbidden write raises :class:`rmg.Error`): ``place_zone`` and
    ``set_tile_zone`` (place), ``set_blocked`` and ``reserve_path`` (connect, objects),
    ``warn`` (any). ``run_builtin()`` runs the built-in implementation of this stage.
    """

    def __init__(self, context: "Context", handle: int) -> None:
        self._ctx = context
        self._ptr: Optional[int] = handle
        lib = context._lib
        self.stage = maybe(Stage, lib.rmg_stage_view_stage(handle))
        self.map = Map._wrap(context, lib.rmg_stage_view_map(handle), owned=False)
        self.rng = Rng._borrow(lib.rmg_stage_view_rng(handle))

    def _invalidate(self) -> None:
        self._ptr = None
        self.map.close()
        self.rng._invalidate()

    @property
    def handle(self) -> int:
        """The rmg_stage_view* (raises once the stage returned)."""
        if self._ptr is None:
            raise invalid_argument("the stage view is used after its stage returned")
        return self._ptr

    @property
    def context(self) -> "Context":
        """The context generating the map."""
        return self._ctx

    @property
    def template_index(self) -> int:
        """Index in the pack of the template being generated."""
        return int(self._ctx._lib.rmg_stage_view_template_index(self.handle))

    def _do(self, status: int) -> None:
        if status != Status.OK:
            raise self._ctx.last_error(status)

    def run_builtin(self) -> None:
        """Runs the built-in implementation of this stage (wrap rather than rewrite)."""
        self._do(self._ctx._lib.rmg_stage_run_builtin(self.handle))

    def place_zone(self, zone_index: int, level: int, cx: int, cy: int) -> None:
        """place: a zone's level and centre (zone_index = map zone id - 1)."""
        self._do(self._ctx._lib.rmg_stage_place_zone(self.handle, zone_index, level, cx, cy))

    def set_tile_zone(self, x: int, y: int, z: int, zone_id: int) -> None:
        """place: the zone owning a tile (tiles left at 0 become rock)."""
        self._do(self._ctx._lib.rmg_stage_set_tile_zone(self.handle, x, y, z, zone_id))

    def fill_zone(self, zone_id: int, x0: int, y0: int, x1: int, y1: int, z: int = 0) -> None:
        """place: set_tile_zone over the rectangle [x0, x1) x [y0, y1) on level z."""
        set_tile = self._ctx._lib.rmg_stage_set_tile_zone
        handle = self.handle
        for y in range(y0, y1):
            for x in range(x0, x1):
                self._do(set_tile(handle, x, y, z, zone_id))

    def set_blocked(self, x: int, y: int, z: int, blocked: bool = True) -> None:
        """connect, objects (before the built-in objects run): make a land tile an obstacle or open it."""
        self._do(self._ctx._lib.rmg_stage_set_blocked(self.handle, x, y, z, 1 if blocked else 0))

    def reserve_path(self, x: int, y: int, z: int) -> None:
        """connect, objects: reserve a tile as a free path later stages keep passable."""
        self._do(self._ctx._lib.rmg_stage_reserve_path(self.handle, x, y, z))

    def warn(self, message: str) -> None:
        """Adds a warning to the map (any stage)."""
        self._do(self._ctx._lib.rmg_stage_warn(self.handle, message.encode("utf-8")))


def stage_trampoline(
    context_ref: "weakref.ReferenceType[Context]",
    state: CallbackState,
    run: Callable[[StageView], Optional[int]],
    policy: PluginPolicy,
) -> Any:
    """rmg_stage_run_fn calling run(view); exceptions never cross into C.

    Failure statuses: an :class:`rmg.Error` from a view call keeps its status (so a retryable
    failure of a wrapped built-in stage stays retryable); any other exception becomes
    RMG_ERR_PLUGIN; KeyboardInterrupt and other non-Exception BaseExceptions cancel the
    generation (no fallback). Under policy "fail" the exception is stored and generate()
    re-raises it; under "fallback" it is recorded as a map warning and the built-in stage runs.
    """

    def trampoline(_user: Optional[int], handle: int) -> int:
        context = context_ref()
        if context is None:  # the context is being destroyed: nothing to call back into
            return int(Status.ERR_CANCELLED)
        view = StageView(context, handle)
        try:
            result = run(view)
            return int(result) if result else int(Status.OK)
        except Exception as exc:  # noqa: BLE001 - nothing may cross into C
            status = exc.status if isinstance(exc, Error) and exc.status != Status.OK else Status.ERR_PLUGIN
            if policy == PluginPolicy.FALLBACK:
                _record(context, handle, exc)
            else:
                state.store(exc)
            return int(status)
        except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt, SystemExit
            state.store(exc)
            return int(Status.ERR_CANCELLED)
        finally:
            view._invalidate()

    return state.keep(S.STAGE_RUN_FN(trampoline))


def _record(context: "Context", handle: int, exc: BaseException) -> None:
    """Puts a handled plugin exception into the map's warnings (the built-in stage takes over)."""
    text = f"Python {type(exc).__name__}: {exc}".encode("utf-8", "replace")
    context._lib.rmg_stage_warn(handle, text)

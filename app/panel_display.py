"""The panel's Display section: how frames reach the screen and how the panel itself looks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.panel_widgets import WARNING, tip
from app.settings import TEXTURE_FILTERS
from render.core.limits import UI_SCALE
from render.core.nvtx import nvtx_on, set_nvtx

if TYPE_CHECKING:
    from app.window import App


def draw_display(app: App) -> None:
    """vsync, the display path, the enlargement filter and the UI scale."""
    settings = app.session.settings
    changed, vsync = imgui.checkbox("vsync", settings.vsync)
    if changed:
        app.set_vsync(vsync)
    tip("wait for the monitor's refresh between frames; off shows how fast the loop can go")
    # What only the GPU has: on the CPU reference they are shown, disabled, with the reason.
    on_gpu = app.session.backend == "cuda"
    imgui.same_line()
    imgui.begin_disabled(not on_gpu)
    changed, force = imgui.checkbox("force host copy", settings.force_host_copy)
    if changed:
        app.set_force_host_copy(force)
    tip(
        "copy each frame through host memory instead of CUDA-OpenGL interop, to compare the two paths"
        if on_gpu
        else "the CPU reference's frames always reach the screen through host memory"
    )
    imgui.end_disabled()
    imgui.text(f"display path: {app.display.path}")
    imgui.begin_disabled(not on_gpu)
    changed, marked = imgui.checkbox("NVTX ranges", nvtx_on())
    if changed:
        set_nvtx(marked)
    tip(
        "mark each frame's GPU stages (clear, advance, binning, blending, display) with NVTX ranges, so that "
        "Nsight Systems shows the frame's structure (docs/profiling.md)"
        if on_gpu
        else "NVTX ranges mark the GPU's stages: the CPU reference has none"
    )
    changed, dev = imgui.checkbox("reload built-in shaders", app.kernel_watch.dev)
    if changed:
        app.kernel_watch.set_dev(dev)
    tip(
        "--dev: when a file of shaders/ changes, compile it again and reload the running variant (kernel work on "
        "rasterlab itself)"
        if on_gpu
        else "the CPU reference runs no shader of shaders/"
    )
    imgui.end_disabled()
    if app.display.notice:
        imgui.text_colored(WARNING, "interop unavailable: host copy")
        tip(app.display.notice)
    filters = list(TEXTURE_FILTERS)
    changed, index = imgui.combo("pixels", filters.index(settings.texture_filter), filters)
    if changed:
        app.set_texture_filter(filters[index])
    tip("how an image smaller than the view is enlarged: nearest keeps every pixel sharp, linear smooths")
    changed, follow = imgui.checkbox("UI scale of the monitor", settings.ui_scale_follows_monitor)
    if changed:
        app.set_ui_scale(None if follow else app.ui_scale())
    tip("size text and controls by the monitor's content scale (its DPI setting)")
    imgui.begin_disabled(settings.ui_scale_follows_monitor)
    changed, scale = imgui.slider_float(
        "UI scale", settings.ui_scale, UI_SCALE.low, UI_SCALE.high, "%.2f", imgui.SliderFlags_.always_clamp
    )
    if imgui.is_item_deactivated_after_edit():
        app.set_ui_scale(scale)
    tip("text and control size, applied when you let go")
    imgui.end_disabled()

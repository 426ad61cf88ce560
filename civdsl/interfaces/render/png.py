"""The picture as PNG: the SVG rasterised by cairosvg (imported only when a PNG is asked for)."""
from __future__ import annotations

from .page import render_svg


def render_png(scene: dict, *, scale: float = 1.0, sheets: bool | None = None) -> bytes:
    """PNG bytes of the scene's picture (`scale`: pixels per SVG unit)."""
    import cairosvg

    return cairosvg.svg2png(bytestring=render_svg(scene, sheets=sheets).encode("utf-8"), scale=scale)

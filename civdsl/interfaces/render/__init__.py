"""Pictures of a game: `render_svg(scene)` and `render_png(scene)` draw a scene (see
`civdsl.tools.scene`) — the board from its map geometry with every player's pieces, the table's tracks,
the players' sheets — as SVG text or PNG bytes. Same scene, same bytes. See docs/render.md."""
from .page import render_svg
from .png import render_png

__all__ = ["render_svg", "render_png"]

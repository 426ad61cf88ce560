"""Plain-text and Markdown tables for the lab's reports: one block model, two renderings, so the
terminal and a pasted report say the same thing."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Block:
    title: str
    headers: list[str] = field(default_factory=list)
    rows: list[list] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def num(value, digits: int = 3) -> str:
    """A cell: integers as they are, floats rounded, None as a dash."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def interval(low, high, digits: int = 3) -> str:
    if low is None or high is None:
        return "-"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def _numeric(cell) -> bool:
    return isinstance(cell, int | float) and not isinstance(cell, bool)


def render_text(blocks: list[Block]) -> str:
    out: list[str] = []
    for block in blocks:
        out.append(block.title)
        out.append("-" * len(block.title))
        out.extend(block.notes)
        if block.headers:
            cells = [block.headers] + [[num(c) for c in row] for row in block.rows]
            widths = [max(len(r[i]) for r in cells) for i in range(len(block.headers))]
            right = [any(_numeric(row[i]) for row in block.rows) for i in range(len(block.headers))]
            for r in cells:
                out.append("  ".join(c.rjust(w) if ra else c.ljust(w)
                                     for c, w, ra in zip(r, widths, right)).rstrip())
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def render_markdown(blocks: list[Block]) -> str:
    out: list[str] = []
    for block in blocks:
        out.append(f"### {block.title}")
        out.append("")
        if block.notes:
            out.extend(block.notes)
            out.append("")
        if block.headers:
            right = [any(_numeric(row[i]) for row in block.rows) for i in range(len(block.headers))]
            out.append("| " + " | ".join(block.headers) + " |")
            out.append("|" + "|".join("---:" if r else "---" for r in right) + "|")
            for row in block.rows:
                out.append("| " + " | ".join(num(c).replace("|", "\\|") for c in row) + " |")
            out.append("")
    return "\n".join(out).rstrip() + "\n"

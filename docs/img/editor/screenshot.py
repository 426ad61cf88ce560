#!/usr/bin/env python3
"""The picture of docs/editor.md: what `civdsl lsp` sends an editor, drawn as an editor would show it.

This is an HTML mock-up of an editor, not a screenshot of VS Code: the text, the squiggle, the problems
list and the hover box are filled from a real session — a client (`civdsl.interfaces.lsp.probe`) starts
`civdsl lsp`, opens the Avalon Hill edition's `game.civ` and `calamities.civ`, misspells a name in the
Famine (as a user typing would), and asks for the hover of the procedure the Famine calls. Headless
Chromium (Playwright, `/usr/bin/chromium`) renders the page to `diagnostics-hover.png`.

    python docs/img/editor/screenshot.py
"""
from __future__ import annotations

import html
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from civdsl.interfaces.lsp.probe import Probe  # noqa: E402

HERE = Path(__file__).resolve().parent
OUT = HERE / "diagnostics-hover.png"
CHROMIUM = os.environ.get("CIVDSL_CHROMIUM", "/usr/bin/chromium")
TYPO = ("famine_relief(p)", "famine_releif(p)")
SHOWN = 22   # lines of the file shown


def session() -> dict:
    game = ROOT / "rulesets/avalon-hill-1981/game.civ"
    calamities = ROOT / "rulesets/avalon-hill-1981/calamities.civ"
    text = calamities.read_text(encoding="utf-8")
    typo = text.replace(*TYPO, 1)
    lines = typo.split("\n")
    at = next(i for i, line in enumerate(lines) if TYPO[1] in line)
    hover_line = next(i for i in range(at, len(lines)) if "lose_points(" in lines[i])
    with Probe(cwd=str(ROOT)) as lsp:
        lsp.initialize(ROOT)
        lsp.diagnostics(game, lsp.open(game))
        lsp.diagnostics(calamities, lsp.open(calamities, text))
        since = lsp.change(calamities, typo)
        diags = lsp.diagnostics(calamities, since, version=lsp.versions[lsp.uri(calamities)])
        hover = lsp.hover(calamities, hover_line, lines[hover_line].index("lose_points(") + 3)
    first = max(0, at - 6)
    return {"file": "rulesets/avalon-hill-1981/calamities.civ", "first": first, "lines": lines[first:first + SHOWN],
            "diagnostics": diags, "hover": hover, "hover_line": hover_line}


KEYWORDS = json.loads((ROOT / "editors/vscode/syntaxes/civdsl.tmLanguage.json").read_text(encoding="utf-8"))


def _words(scope: str) -> list[str]:
    for p in KEYWORDS["repository"]["keyword"]["patterns"]:
        if p["name"] == scope:
            return re.search(r"\((.*)\)", p["match"]).group(1).split("|")
    return []


CLASSES = {w: "kw" for w in _words("keyword.control.civdsl") + _words("keyword.operator.word.civdsl")}
CLASSES.update({w: "decl" for w in _words("storage.type.civdsl")})
CLASSES.update({w: "const" for w in _words("constant.language.civdsl")})


def colour(line: str) -> str:
    """A line of civdsl as HTML, coloured as the TextMate grammar scopes it."""
    out, i = [], 0
    for m in re.finditer(r'#.*$|"(?:[^"\\]|\\.)*"|\b[0-9]+\b|\b[A-Za-z_][A-Za-z0-9_]*\b', line):
        out.append(html.escape(line[i:m.start()]))
        tok = m.group(0)
        cls = ("comment" if tok.startswith("#") else "string" if tok.startswith('"') else
               "number" if tok[0].isdigit() else CLASSES.get(tok) or
               ("call" if line[m.end():m.end() + 1] == "(" else ""))
        out.append(f'<span class="{cls}">{html.escape(tok)}</span>' if cls else html.escape(tok))
        i = m.end()
    out.append(html.escape(line[i:]))
    return "".join(out)


def markdown(text: str) -> str:
    """The hover's Markdown as HTML (code blocks, inline code, bold, paragraphs)."""
    parts = []
    for block in re.split(r"\n\n+", text.strip()):
        if block.startswith("```"):
            code = "\n".join(block.split("\n")[1:-1])
            parts.append(f"<pre>{colour(code)}</pre>")
            continue
        b = html.escape(block)
        b = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", b)
        b = re.sub(r"`([^`]+)`", r"<code>\1</code>", b)
        parts.append("<hr>" if block.strip() == "---" else f"<p>{b}</p>")
    return "".join(parts)


def page(s: dict) -> str:
    rows = []
    diags = {}
    for d in s["diagnostics"]:
        diags.setdefault(d["range"]["start"]["line"], []).append(d)
    for k, line in enumerate(s["lines"]):
        n = s["first"] + k
        body = colour(line)
        for d in diags.get(n, []):
            a, b = d["range"]["start"]["character"], d["range"]["end"]["character"]
            cls = "error" if d["severity"] == 1 else "warning"
            body = (colour(line[:a]) + f'<span class="squiggle {cls}">{colour(line[a:b])}</span>' + colour(line[b:]))
            body += f'<span class="inline {cls}">  {html.escape(d["message"].splitlines()[0])}</span>'
        hover = ""
        if n == s["hover_line"] and s["hover"]:
            hover = f'<div class="hover">{markdown(s["hover"]["contents"]["value"])}</div>'
        rows.append(f'<div class="row"><span class="gutter">{n + 1}</span><span class="code">{body}</span>'
                    f'{hover}</div>')
    problems = "".join(
        f'<div class="problem"><span class="icon {"error" if d["severity"] == 1 else "warning"}">●</span> '
        f'{html.escape(d["message"].replace(chr(10), " — "))} <span class="where">civdsl({d["code"]}) '
        f'[Ln {d["range"]["start"]["line"] + 1}, Col {d["range"]["start"]["character"] + 1}]</span></div>'
        for d in s["diagnostics"])
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
body {{ margin: 0; background: #1e1e1e; color: #d4d4d4; font: 13px/19px "DejaVu Sans Mono", monospace; width: 1180px; }}
.tab {{ background: #252526; padding: 6px 14px; color: #ccc; border-bottom: 1px solid #333; font-family: sans-serif; }}
.tab b {{ color: #fff; font-weight: normal; background: #1e1e1e; padding: 6px 12px; }}
.editor {{ padding: 8px 0; position: relative; }}
.row {{ position: relative; white-space: pre; }}
.gutter {{ display: inline-block; width: 44px; text-align: right; color: #858585; padding-right: 16px; }}
.kw {{ color: #c586c0; }} .decl {{ color: #569cd6; }} .const {{ color: #569cd6; }} .string {{ color: #ce9178; }}
.number {{ color: #b5cea8; }} .comment {{ color: #6a9955; }} .call {{ color: #dcdcaa; }}
.squiggle.error {{ text-decoration: underline wavy #f14c4c; text-underline-offset: 3px; }}
.squiggle.warning {{ text-decoration: underline wavy #cca700; text-underline-offset: 3px; }}
.inline.error {{ color: #f14c4c; opacity: .85; }} .inline.warning {{ color: #cca700; opacity: .85; }}
.hover {{ position: absolute; left: 230px; top: 20px; z-index: 2; width: 640px; white-space: normal;
  background: #252526; border: 1px solid #454545; padding: 4px 12px; box-shadow: 0 4px 12px #000a;
  font-family: sans-serif; font-size: 13px; }}
.hover pre {{ background: #1e1e1e; padding: 6px; white-space: pre-wrap;
  font: 12px/17px "DejaVu Sans Mono", monospace; }}
.hover code {{ font-family: "DejaVu Sans Mono", monospace; color: #d7ba7d; }}
.hover hr {{ border: 0; border-top: 1px solid #454545; }}
.panel {{ border-top: 1px solid #444; background: #1e1e1e; padding: 6px 14px 10px; font-family: sans-serif; }}
.panel h3 {{ font-size: 11px; letter-spacing: 1px; color: #ccc; margin: 4px 0 8px; font-weight: normal; }}
.problem {{ padding: 2px 0; }} .icon.error {{ color: #f14c4c; }} .icon.warning {{ color: #cca700; }}
.where {{ color: #888; }}
</style></head><body>
<div class="tab"><b>calamities.civ</b> &nbsp; {html.escape(s["file"])}</div>
<div class="editor">{"".join(rows)}</div>
<div class="panel"><h3>PROBLEMS</h3>{problems}</div>
</body></html>"""


def main() -> int:
    s = session()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        tab = browser.new_page(viewport={"width": 1180, "height": 600})
        tab.set_content(page(s))
        tab.screenshot(path=str(OUT), full_page=True)
        browser.close()
    print(f"wrote {OUT.relative_to(ROOT)}: {len(s['diagnostics'])} diagnostic(s), hover of "
          f"line {s['hover_line'] + 1}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

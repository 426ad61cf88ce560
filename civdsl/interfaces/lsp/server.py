"""`civdsl lsp`: the language server, over stdio, for any editor that speaks the Language Server Protocol.

It owns the wire (pygls) and little else: every request is answered from `analysis` (diagnostics) and
`index` (names), run one at a time on a worker thread, so that the editor's messages are read while a
file is checked and civdsl's caches are never used by two threads at once. A change is checked after a
short pause (`DEBOUNCE`), with the texts of every open document; a request that fails answers nothing
and is logged — the server never takes the editor's session down.
"""
from __future__ import annotations

import asyncio
import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import unquote, urlparse

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from ... import __version__
from ...language.diagnostics import CivError, Diagnostic, Span
from ...language.formatter import format_file_text
from .analysis import Analyzer, resolved
from .index import completions, definitions, hover, outline, references, target_at
from .scenarios import is_scenario_text, scenario_diagnostics

DEBOUNCE = 0.02          # seconds of quiet after a change before it is checked
LANGUAGE_ID = "civdsl"
log = logging.getLogger("civdsl.lsp")

SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "information": T.DiagnosticSeverity.Information, "hint": T.DiagnosticSeverity.Hint}
COMPLETION_KINDS = {"keyword": T.CompletionItemKind.Keyword, "function": T.CompletionItemKind.Function,
                    "variable": T.CompletionItemKind.Variable, "field": T.CompletionItemKind.Field,
                    "constant": T.CompletionItemKind.Constant, "class": T.CompletionItemKind.Class,
                    "value": T.CompletionItemKind.Value, "event": T.CompletionItemKind.Event,
                    "struct": T.CompletionItemKind.Struct, "enum": T.CompletionItemKind.Enum,
                    "module": T.CompletionItemKind.Module}
SYMBOL_KINDS = {"constant": T.SymbolKind.Constant, "variable": T.SymbolKind.Variable, "array": T.SymbolKind.Array,
                "function": T.SymbolKind.Function, "class": T.SymbolKind.Class, "struct": T.SymbolKind.Struct,
                "enum": T.SymbolKind.Enum, "module": T.SymbolKind.Module, "namespace": T.SymbolKind.Namespace,
                "operator": T.SymbolKind.Operator, "boolean": T.SymbolKind.Boolean, "string": T.SymbolKind.String,
                "interface": T.SymbolKind.Interface, "file": T.SymbolKind.File, "key": T.SymbolKind.Key,
                "event": T.SymbolKind.Event, "method": T.SymbolKind.Method, "object": T.SymbolKind.Object,
                "package": T.SymbolKind.Package}


def uri_to_path(uri: str) -> str | None:
    """The file a `file:` URI names; None for other schemes (an unsaved buffer is `untitled:`)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if os.name == "nt" and path.startswith("/") and len(path) > 2 and path[2] == ":":
        path = path[1:]
    return path


def _units(line: str, col0: int) -> int:
    """Characters → UTF-16 code units (the protocol's columns) on a line."""
    return len(line[:col0].encode("utf-16-le")) // 2


def _chars(line: str, units: int) -> int:
    """UTF-16 code units → characters on a line."""
    n = 0
    for i, ch in enumerate(line):
        if n >= units:
            return i
        n += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


class CivProtocol(LanguageServerProtocol):
    """pygls' protocol, answering a request whose parameters do not fit the protocol's types with an
    `InvalidParams` error (instead of no answer, which leaves an editor waiting)."""

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcInvalidParams as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                self._send_response(data["id"], None, exc.to_response_error())
            return SimpleNamespace(jsonrpc="(ignored: invalid parameters)")


class CivServer(LanguageServer):
    """The server's state: the analyzer, the worker thread, the documents' URIs by path."""

    def __init__(self):
        super().__init__("civdsl", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental,
                         protocol_cls=CivProtocol)
        self.analyzer = Analyzer()
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="civdsl-lsp")
        self.uris: dict[str, str] = {}       # resolved path -> the URI the editor uses
        self.pending: dict[str, asyncio.Task] = {}
        self.timings: list[float] = []       # seconds per check (for `civdsl.stats`)
        self.init_options: dict = {}

    def path_of(self, uri: str) -> str:
        path = uri_to_path(uri)
        if path is None:  # an unsaved buffer: checked on its own, under a name no file has
            path = str(Path("/nonexistent-civdsl-buffer") / uri.replace(":", "_").replace("/", "_"))
        key = resolved(path)
        self.uris[key] = uri
        return key

    def uri_of(self, path: str) -> str:
        return self.uris.get(resolved(path)) or Path(path).absolute().as_uri()

    async def run(self, fn, *args):
        """`fn(*args)` on the worker thread; None (logged) if it fails."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.worker, fn, *args)
        except Exception:  # never take the editor's session down
            log.exception("civdsl lsp: %s failed", getattr(fn, "__name__", fn))
            return None

    def lines(self, path: str) -> list[str]:
        text = self.analyzer.text(path)
        return text.split("\n") if text is not None else []

    def to_range(self, span: Span | None) -> T.Range:
        if span is None:
            return T.Range(T.Position(0, 0), T.Position(0, 0))
        lines = self.lines(span.file)
        row = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        start = T.Position(max(span.line - 1, 0), _units(row, max(span.col - 1, 0)))
        if span.end_line and (span.end_line, span.end_col) > (span.line, span.col):
            end_row = lines[span.end_line - 1] if 0 < span.end_line <= len(lines) else ""
            end = T.Position(span.end_line - 1, _units(end_row, max(span.end_col - 1, 0)))
        else:  # a point: the word there
            k = span.col - 1
            while k < len(row) and (row[k].isalnum() or row[k] == "_"):
                k += 1
            end = T.Position(start.line, _units(row, max(k, span.col)))
        return T.Range(start, end)

    def to_lsp(self, d: Diagnostic) -> T.Diagnostic:
        related = [T.DiagnosticRelatedInformation(T.Location(self.uri_of(s.file), self.to_range(s)), note)
                   for s, note in d.related]
        message = d.message + (f"\nhelp: {d.hint}" if d.hint else "")
        return T.Diagnostic(range=self.to_range(d.span), message=message, severity=SEVERITY.get(d.severity),
                            code=d.code, source="civdsl", related_information=related or None)

    def publish(self, found: dict[str, list[Diagnostic]]) -> None:
        for path, diags in found.items():
            doc = self.analyzer.docs.get(resolved(path))
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
                uri=self.uri_of(path), diagnostics=[self.to_lsp(d) for d in diags],
                version=doc.version if doc is not None else None))

    def position(self, path: str, pos: T.Position) -> tuple[int, int]:
        lines = self.lines(path)
        row = lines[pos.line] if 0 <= pos.line < len(lines) else ""
        return pos.line + 1, _chars(row, pos.character) + 1

    def location(self, span: Span) -> T.Location:
        return T.Location(self.uri_of(span.file), self.to_range(span))


server = CivServer()


def _is_civ(uri: str) -> bool:
    return uri.endswith(".civ")


def _is_yaml(uri: str) -> bool:
    return uri.endswith((".yaml", ".yml"))


# ---- set-up -----------------------------------------------------------------------------------------

@server.feature(T.INITIALIZED)
def _initialized(ls: CivServer, params: T.InitializedParams) -> None:
    ws = ls.workspace
    roots = [uri_to_path(f.uri) for f in (ws.folders or {}).values()]
    if ws.root_uri and not roots:
        roots = [uri_to_path(ws.root_uri)]
    options = ls.init_options
    ls.analyzer.roots = [Path(resolved(r)) for r in roots if r]
    ls.analyzer.configured = _entries(options, ls.analyzer.roots)


@server.feature(T.INITIALIZE)
def _initialize(ls: CivServer, params: T.InitializeParams) -> None:
    options = params.initialization_options
    ls.init_options = options if isinstance(options, dict) else {}


def _entries(options: dict, roots: list[Path]) -> list[str]:
    """The `civdsl.entries` setting: edition entry files (or their folders), relative to the first
    workspace folder; only those inside a workspace folder are used."""
    raw = options.get("entries") if isinstance(options, dict) else None
    if isinstance(options, dict) and isinstance(options.get("civdsl"), dict):
        raw = options["civdsl"].get("entries", raw)
    out = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, str) or "\0" in item or not roots:
            continue
        p = Path(item) if Path(item).is_absolute() else roots[0] / item
        if p.is_dir():
            p = p / "game.civ"
        key = resolved(p)
        if any(Path(key).is_relative_to(r) for r in roots) and key.endswith(".civ") and Path(key).is_file():
            out.append(key)
    return out


@server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
def _configuration(ls: CivServer, params: T.DidChangeConfigurationParams) -> None:
    if isinstance(params.settings, dict):
        ls.analyzer.configured = _entries(params.settings, ls.analyzer.roots)


# ---- documents --------------------------------------------------------------------------------------

async def _check(ls: CivServer, path: str, saved: bool = False, wait: bool = True) -> None:
    if wait:
        await asyncio.sleep(DEBOUNCE)
    started = time.perf_counter()
    found = await ls.run(ls.analyzer.diagnostics, [path], saved)
    if found is not None:
        ls.publish(found)
        ls.timings.append(time.perf_counter() - started)
        del ls.timings[:-100]


def _schedule(ls: CivServer, path: str, saved: bool = False) -> None:
    old = ls.pending.get(path)
    if old is not None and not old.done():
        old.cancel()
    ls.pending[path] = asyncio.ensure_future(_check(ls, path, saved, wait=not saved))


async def _scenario(ls: CivServer, uri: str) -> None:
    path = ls.path_of(uri)
    text = ls.workspace.get_text_document(uri).source
    if not is_scenario_text(text):
        return
    found = await ls.run(scenario_diagnostics, path, text)
    if found is not None:
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, diagnostics=[ls.to_scenario_lsp(d, text) for d in found]))


def _scenario_lsp(self: CivServer, d: Diagnostic, text: str) -> T.Diagnostic:
    lines = text.split("\n")
    s = d.span or Span("", 1, 1)
    row = lines[s.line - 1] if 0 < s.line <= len(lines) else ""
    start = T.Position(s.line - 1, _units(row, s.col - 1))
    end_line = s.end_line if s.end_line and s.end_line >= s.line else s.line
    end_row = lines[end_line - 1] if 0 < end_line <= len(lines) else ""
    end = T.Position(end_line - 1, _units(end_row, (s.end_col - 1) if s.end_line else len(row)))
    message = d.message + (f"\nhelp: {d.hint}" if d.hint else "")
    return T.Diagnostic(range=T.Range(start, end), message=message, severity=SEVERITY.get(d.severity),
                        code=d.code, source="civdsl test")


CivServer.to_scenario_lsp = _scenario_lsp


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
async def _did_open(ls: CivServer, params: T.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    if _is_yaml(uri):
        await _scenario(ls, uri)
        return
    if not _is_civ(uri) and params.text_document.language_id != LANGUAGE_ID:
        return
    path = ls.path_of(uri)
    await ls.run(ls.analyzer.open, path, params.text_document.text, params.text_document.version)
    await _check(ls, path, wait=False)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
async def _did_change(ls: CivServer, params: T.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    if _is_yaml(uri) or uri not in ls.uris.values():
        return
    path = ls.path_of(uri)
    text = ls.workspace.get_text_document(uri).source
    await ls.run(ls.analyzer.change, path, text, params.text_document.version)
    _schedule(ls, path)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
async def _did_save(ls: CivServer, params: T.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if _is_yaml(uri):
        await _scenario(ls, uri)
    elif uri in ls.uris.values():
        _schedule(ls, ls.path_of(uri), saved=True)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
async def _did_close(ls: CivServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    path = uri_to_path(uri)
    if uri in ls.uris.values():
        key = ls.path_of(uri)
        await ls.run(ls.analyzer.close, key)
        found = await ls.run(ls.analyzer.collect)
        if found is not None:
            ls.publish(found)
    if path is None or _is_yaml(uri):
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ---- requests ---------------------------------------------------------------------------------------

def _target(ls: CivServer, uri: str, pos: T.Position):
    path = ls.path_of(uri)
    text = ls.analyzer.text(path)
    if text is None:
        return path, None
    line, col = ls.position(path, pos)
    return path, target_at(text, path, line, col)


@server.feature(T.TEXT_DOCUMENT_HOVER)
async def _hover(ls: CivServer, params: T.HoverParams) -> T.Hover | None:
    def work():
        path, t = _target(ls, params.text_document.uri, params.position)
        if t is None:
            return None
        text = hover(ls.analyzer, path, t)
        if not text:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text), range=ls.to_range(t.span))
    return await ls.run(work)


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
async def _definition(ls: CivServer, params: T.DefinitionParams) -> list[T.Location] | None:
    def work():
        path, t = _target(ls, params.text_document.uri, params.position)
        if t is None:
            return None
        return [ls.location(s) for s in definitions(ls.analyzer, path, t)] or None
    return await ls.run(work)


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
async def _references(ls: CivServer, params: T.ReferenceParams) -> list[T.Location] | None:
    def work():
        path, t = _target(ls, params.text_document.uri, params.position)
        if t is None:
            return None
        return [ls.location(s) for s in references(ls.analyzer, path, t)] or None
    return await ls.run(work)


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", '"']))
async def _completion(ls: CivServer, params: T.CompletionParams) -> T.CompletionList | None:
    def work():
        path = ls.path_of(params.text_document.uri)
        if ls.analyzer.text(path) is None:
            return None
        line, col = ls.position(path, params.position)
        items = [T.CompletionItem(label=c.label, kind=COMPLETION_KINDS.get(c.kind), detail=c.detail or None)
                 for c in completions(ls.analyzer, path, line, col)]
        return T.CompletionList(is_incomplete=False, items=items)
    return await ls.run(work)


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def _symbols(ls: CivServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol] | None:
    def convert(sym) -> T.DocumentSymbol:
        r = ls.to_range(sym.span)
        first = T.Range(r.start, r.start if r.end.line != r.start.line else r.end)
        return T.DocumentSymbol(name=sym.name or "?", kind=SYMBOL_KINDS.get(sym.kind, T.SymbolKind.Object),
                                range=r, selection_range=first, detail=sym.detail or None,
                                children=[convert(c) for c in sym.children] or None)

    def work():
        tree = ls.analyzer.tree(ls.path_of(params.text_document.uri))
        return [convert(s) for s in outline(tree)] if tree is not None else None
    return await ls.run(work)


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
async def _formatting(ls: CivServer, params: T.DocumentFormattingParams) -> list[T.TextEdit] | None:
    def work():
        path = ls.path_of(params.text_document.uri)
        doc = ls.analyzer.docs.get(path)
        if doc is None or doc.too_large:
            return None
        try:
            new = format_file_text(doc.text, path)
        except CivError:
            return None  # a file that does not parse is left alone (its diagnostics say why)
        if new == doc.text:
            return []
        lines = doc.text.split("\n")
        end = T.Position(len(lines) - 1, _units(lines[-1], len(lines[-1])))
        return [T.TextEdit(range=T.Range(T.Position(0, 0), end), new_text=new)]
    return await ls.run(work)


@server.command("civdsl.stats")
async def _stats(ls: CivServer, *args) -> dict:
    """How long the last checks took (seconds), for benchmarks."""
    return {"checks": list(ls.timings), "documents": len(ls.analyzer.docs),
            "editions": sorted(ls.analyzer.results)}


def serve() -> None:
    """Serve one editor session on stdin and stdout."""
    logging.basicConfig(level=logging.WARNING, format="civdsl lsp: %(levelname)s %(message)s")
    server.start_io()

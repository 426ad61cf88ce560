"""`civdsl serve`: the web app to play games in a browser and replay logs (docs/web.md)."""
from __future__ import annotations

import sys

DEFAULT_DATA = "civdsl-data"


def add_parsers(sub) -> None:
    s = sub.add_parser("serve", help="play and replay games in the browser",
                       description="Serve a web app: start games of the shipped editions (people in browsers, "
                       "agents on the server), each person on a private link, and replay any game log. Games are "
                       "kept in an SQLite file in --data, so a restarted server carries on where it stopped.")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    s.add_argument("--data", default=DEFAULT_DATA, metavar="DIR",
                   help=f"folder of the games database and logs (default ./{DEFAULT_DATA})")


def cmd_serve(args) -> int:
    import uvicorn

    from .web.app import make_app
    from .web.store import StoreError
    try:
        app = make_app(args.data)
    except StoreError as exc:
        print(f"civdsl serve: {exc}", file=sys.stderr)
        return 2
    print(f"civdsl serve: http://{args.host}:{args.port}/ (games in {args.data}; Ctrl-C stops, nothing is lost)",
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


COMMANDS = {"serve": cmd_serve}


def main(argv: list[str] | None = None) -> int:
    """`python -m civdsl.interfaces.serve_cli [--port N] [--data DIR]`: the command without the rest of the CLI."""
    import argparse
    parser = argparse.ArgumentParser(prog="civdsl")
    add_parsers(parser.add_subparsers(dest="command", required=True))
    return cmd_serve(parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)]))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

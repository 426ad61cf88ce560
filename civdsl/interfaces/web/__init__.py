"""`civdsl serve`: a small web app to play games in the browser and replay their logs (docs/web.md).

`app.py` assembles it; `store.py` keeps games in SQLite; `live.py` runs each game in its own thread;
`games.py` starts, finds and resumes them; `newgame.py` reads the start forms and uploaded configs;
`pages.py` and `replay.py` are the routes; `present.py` turns views, scenes and events into pages.
"""

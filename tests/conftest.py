"""Test-session settings: the parse cache lives in a folder of the session, never in the user's own
cache, so tests neither read a stale cache nor leave files behind."""
from __future__ import annotations

import os
import tempfile

os.environ.setdefault("CIVDSL_CACHE_DIR", tempfile.mkdtemp(prefix="civdsl-test-cache-"))

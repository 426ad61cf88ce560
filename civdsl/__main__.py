"""`python -m civdsl` runs the command-line interface."""
import sys

from .interfaces.cli import main

sys.exit(main())

"""`python -m limen` is the `limen` command."""

import sys

from limen.cli import main

sys.exit(main())

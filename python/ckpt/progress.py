"""One updating progress line on stderr, for work that takes more than about
a second (importing a model, running an experiment over many models).

Drawn by tqdm, and only when stderr is a terminal: redirected
output, logs and tests never see it. `quiet=True` (the tools' `--quiet`)
turns it off, and without tqdm installed there is none. Usage::

    with progress.Line(total=3, desc="importing resnet50", quiet=q) as line:
        ...; line.step("tracing")
"""

import os
import sys


class Line:
    """A progress line of `total` steps; `step(what)` advances it by one and
    shows `what` next to the count."""

    def __init__(self, total, desc, quiet=False):
        self._bar = None
        if quiet or not sys.stderr.isatty():
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        # A terminal that reports no size (a pseudo-terminal without a
        # window size, as `script` makes) is taken as 80x24: tqdm 4.70 hides
        # a bar below the terminal's last row, and 0 rows hides every bar.
        try:
            size = os.get_terminal_size(sys.stderr.fileno())
            sized = size.columns > 0 and size.lines > 0
        except (OSError, ValueError):
            sized = False
        self._bar = tqdm(total=total, desc=desc, file=sys.stderr, leave=False,
                         dynamic_ncols=sized, ncols=None if sized else 80,
                         nrows=None if sized else 24)

    def step(self, what=""):
        if self._bar is not None:
            self._bar.set_postfix_str(what, refresh=False)
            self._bar.update(1)

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

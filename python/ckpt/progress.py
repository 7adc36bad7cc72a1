"""One updating progress line on stderr, for work that takes more than about
a second (importing a model, running an experiment over many models).

Drawn by python3-tqdm, and only when stderr is a terminal: redirected
output, logs and tests never see it. `quiet=True` (the tools' `--quiet`)
turns it off, and without tqdm installed there is none. Usage::

    with progress.Line(total=3, desc="importing resnet50", quiet=q) as line:
        ...; line.step("tracing")
"""

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
        self._bar = tqdm(total=total, desc=desc, file=sys.stderr, leave=False,
                         dynamic_ncols=True)

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

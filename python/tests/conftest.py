"""pytest configuration of the ckpt Python suite.

Run it with the environment scripts/setup.sh makes (the bindings are built for it):

    .venv/bin/python -m pytest python/tests            # after scripts/setup.sh

`CKPT_BUILD_DIR` (default: build/ at the repository root) names the build
whose Python package (build/python) and tools (build/bin: ckpt-opt, ckpt-run)
the tests use; both are put first on sys.path / PATH here, so the suite tests
this checkout's build whatever else is installed.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("CKPT_BUILD_DIR", os.path.join(ROOT, "build"))

sys.path.insert(0, os.path.join(BUILD, "python"))
os.environ["PATH"] = os.path.join(BUILD, "bin") + os.pathsep + os.environ.get("PATH", "")
os.environ.setdefault("CKPT_BUILD_DIR", BUILD)

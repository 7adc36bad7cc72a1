"""The error model of the end-to-end checks: ckpt.numerics (the package's,
which `python -m ckpt.torch_import ... --check` uses too), under the name
the tests import."""

from ckpt.numerics import *  # noqa: F401,F403
from ckpt.numerics import U32, SAFETY, PRINT_RTOL  # noqa: F401

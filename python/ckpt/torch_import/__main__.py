"""python -m ckpt.torch_import: see ckpt.torch_import."""

import sys

from . import main

sys.exit(main())

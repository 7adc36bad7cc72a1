"""Device profiles for the time of opaque ops.

Part of ckpt.torch_import (see its docstring).
"""

from .. import device_profiles

# {name: (peak FP32 flop/s, bytes/s)}: ckpt-opt's cost model, read from the
# C++ table (include/ckpt/Solver/Support/Devices.h) through the bindings. The time of
# an opaque op is max(flops / peak, bytes / bandwidth).
DEVICES = device_profiles()

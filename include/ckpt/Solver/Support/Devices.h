//===- Devices.h - the device profiles of the roofline cost model -*- C++
//-*-===//
//
// Published peak FP32 (non-tensor-core) throughput and memory bandwidth of the
// devices the cost model knows; the steps we plan are f32. The roofline time
// of an op is max(flops / peakFlops, bytes / bandwidth). One table for every
// user: the MLIR cost model (ckpt/Analysis/CostModel.h) and the Python
// package (ckpt.device_profiles, used by ckpt.torch_import).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SUPPORT_DEVICES_H
#define CKPT_SOLVER_SUPPORT_DEVICES_H

#include <cstddef>

namespace ckpt {
namespace solver {

struct DeviceSpec {
  const char *name;
  double peakFlops; ///< floating-point operations per second
  double bandwidth; ///< bytes per second of main (HBM / DRAM) memory
};

/// Sources: NVIDIA H100 SXM5, A100 SXM4 80GB and V100 SXM2 data sheets;
/// `cpu` is a rough two-core x86 figure.
inline constexpr DeviceSpec kDeviceSpecs[] = {
    {"h100", 67.0e12, 3.35e12},
    {"a100", 19.5e12, 2.039e12},
    {"v100", 15.7e12, 0.9e12},
    {"cpu", 1.0e11, 2.0e10},
};

} // namespace solver
} // namespace ckpt

#endif // CKPT_SOLVER_SUPPORT_DEVICES_H

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
#include <string_view>

namespace ckpt {
namespace solver {

struct DeviceSpec {
  const char *name;        ///< ckpt::Device's spelling (CkptAttrs.td)
  const char *description; ///< for option help
  double peakFlops;        ///< floating-point operations per second
  double bandwidth;        ///< bytes per second of main (HBM / DRAM) memory
  /// The link to host memory (offloading): bytes per second each way, and
  /// the latency of one copy in seconds.
  double linkToHost;
  double linkToDevice;
  double linkLatency;
};

/// Sources: NVIDIA H100 SXM5, A100 SXM4 80GB, V100 SXM2 and GH200 data
/// sheets (GH200: its H100 GPU with 4 TB/s HBM3). Links: PCIe 5.0 x16
/// (h100), 4.0 (a100) and 3.0 (v100) at their per-direction peak (64, 32,
/// 16 GB/s), NVLink-C2C on GH200 (900 GB/s in all, 450 each way), with
/// about 10 us (PCIe) and 2 us (C2C) per copy; `cpu` is a rough two-core
/// x86 figure, its "link" a memcpy (10 GB/s).
inline constexpr DeviceSpec kDeviceSpecs[] = {
    {"h100", "NVIDIA H100", 67.0e12, 3.35e12, 64.0e9, 64.0e9, 10.0e-6},
    {"a100", "NVIDIA A100", 19.5e12, 2.039e12, 32.0e9, 32.0e9, 10.0e-6},
    {"v100", "NVIDIA V100", 15.7e12, 0.9e12, 16.0e9, 16.0e9, 10.0e-6},
    {"cpu", "a CPU core", 1.0e11, 2.0e10, 1.0e10, 1.0e10, 0.0},
    {"gh200", "NVIDIA GH200 (NVLink-C2C to host memory)", 67.0e12, 4.0e12,
     450.0e9, 450.0e9, 2.0e-6},
};

/// The row named `name`, or nullptr: the one lookup of the table.
inline const DeviceSpec *findDeviceSpec(std::string_view name) {
  for (const DeviceSpec &spec : kDeviceSpecs)
    if (name == spec.name)
      return &spec;
  return nullptr;
}

} // namespace solver
} // namespace ckpt

#endif // CKPT_SOLVER_SUPPORT_DEVICES_H

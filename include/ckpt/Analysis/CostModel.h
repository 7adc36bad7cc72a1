//===- CostModel.h - op costs and device profiles ---------------*- C++ -*-===//
//
// The cost model: device-independent work per op (CostOpInterface, with
// external models on upstream dialects) turned into time by a roofline over a
// device profile, or taken from a measured profile or a `ckpt.cost` attribute.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_ANALYSIS_COSTMODEL_H
#define CKPT_ANALYSIS_COSTMODEL_H

#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Solver/Schedule/Offload.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ckpt {

/// A device of the cost model: its peak throughput, for the roofline
/// time = max(flops / peakFlops, bytes / bandwidth), and its link to host
/// memory (offloading).
struct DeviceProfile {
  Device device;
  llvm::StringRef name;
  double peakFlops; ///< floating-point operations per second
  double bandwidth; ///< bytes per second of main (HBM / DRAM) memory
  /// Bytes per second each way and seconds per copy.
  sched::LinkSpec link;

  /// The device's row of the solver's table (ckpt/Solver/Support/Devices.h):
  /// the one place a device is looked up. Every Device has one
  /// (test/Transforms/annotate-costs-devices.mlir plans on each).
  static DeviceProfile get(Device device);

  double time(uint64_t flops, uint64_t bytes) const;
};

/// Measured op times (seconds), keyed by location ("file:line:col" or a
/// NameLoc's name) or by op name ("linalg.matmul"); locations win.
class MeasuredProfile {
public:
  /// Reads a JSON object of key -> seconds from `path`. On failure returns
  /// std::nullopt and sets `error` to a message naming the file and position.
  static std::optional<MeasuredProfile> read(llvm::StringRef path,
                                             std::string &error);
  /// The measured time of `op`, if the profile has one.
  std::optional<double> lookup(mlir::Operation *op) const;
  /// The number under `key`, if the profile has one (e.g. the measured link
  /// of offloading: "link.to_host", "link.to_device", "link.latency").
  std::optional<double> get(llvm::StringRef key) const {
    auto it = times.find(key);
    if (it == times.end())
      return std::nullopt;
    return it->second;
  }

private:
  llvm::StringMap<double> times;
};

/// The key `MeasuredProfile::lookup` tries first for `op`: its location (a
/// file location as "file:line:col", a name location by its name, the first
/// of a fused location), else its op name. `ckpt-profile-ops` times each op
/// under this key.
std::string getProfileKey(mlir::Operation *op);

/// Where a cost came from.
enum class CostSource { Attribute, Profile, Model, Opaque };

/// The cost of one execution of one op.
struct OpCost {
  uint64_t flops = 0;
  uint64_t bytes = 0;
  double time = 0.0;
  CostSource source = CostSource::Opaque;
};

/// The largest value the planner sizes (1 PiB): sums of a few such sizes stay
/// far from 2^64.
constexpr uint64_t kMaxTypeBytes = uint64_t(1) << 50;

/// Bytes of a statically shaped tensor/memref or of a scalar int/float/index;
/// 0 for other types (tokens, functions, ...), std::nullopt for dynamic shapes
/// and for static shapes of more than kMaxTypeBytes bytes.
std::optional<uint64_t> getTypeBytes(mlir::Type type);

/// The cost of `op`: its `ckpt.cost` attribute if present, else the measured
/// profile, else its `ckpt.work` attribute or its CostOpInterface under
/// `device`'s roofline, else the opaque estimate (bytes of tensor operands
/// and results, no flops). Fails with an error at the op for dynamic shapes.
mlir::FailureOr<OpCost> getOpCost(mlir::Operation *op,
                                  const DeviceProfile &device,
                                  const MeasuredProfile *profile = nullptr);

/// What a pass needs to cost ops: a device profile and, optionally, measured
/// times.
struct CostSetup {
  DeviceProfile device;
  std::optional<MeasuredProfile> measured;
  const MeasuredProfile *profile() const {
    return measured ? &*measured : nullptr;
  }
};

/// Resolves the `device` and `profile` options shared by the ckpt passes;
/// emits an error at `loc` (unreadable or corrupt profile) and fails
/// otherwise.
mlir::FailureOr<CostSetup> setUpCosts(mlir::Location loc, Device device,
                                      llvm::StringRef profilePath);

/// Attaches the CostOpInterface external models to the linalg, tensor, arith,
/// math and tosa ops.
void registerCostModelExternalModels(mlir::DialectRegistry &registry);

} // namespace ckpt

#endif // CKPT_ANALYSIS_COSTMODEL_H

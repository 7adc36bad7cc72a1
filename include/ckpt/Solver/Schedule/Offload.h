//===- Offload.h - schedules with copies to host memory ---------*- C++ -*-===//
//
// Offloading trades link bandwidth for device memory: a value is copied to
// host memory after an execution, its device buffer freed once the copy
// ends, and copied back before a later execution reads it. This file gives
// the time and memory of a schedule with such *transfers*, on top of the one
// memory model (MemorySimulator.h: the versions, buffers and last reads are
// its own); time is continuous, memory counted at execution boundaries:
//
//  - the compute stream runs the schedule's executions in order, each for
//    its op's cost; an execution that reads a reloaded version waits until
//    the reload has ended (a *stall*);
//  - copies run on their own streams, one each way (links are full duplex),
//    in the order they are issued, overlapping compute: an offload is issued
//    when execution `after` ends, a reload when execution `reloadAfter` ends
//    (and not before its offload has ended); each takes the link's latency
//    plus bytes / bandwidth;
//  - memory is counted where the step's program allocates and frees, so
//    that the device peak is the one a run measures to the byte (the
//    rewrite places ckpt.offload, ckpt.reload and ckpt.wait there): a buffer
//    is allocated when its defining execution starts and freed when its
//    last reader ends (as in evaluate); an offloaded version's device buffer
//    is freed after the first execution that ends once its offload has
//    ended, or where its reload is issued if that comes first, stalling
//    until the copy ends (where the program waits for the copy:
//    `offloadDone`, or the transfer's `waitAfter` when given, which may be
//    the offload's own boundary: issued, then waited for); a reload
//    allocates its device buffer when it is issued, freed when the
//    version's last reader ends. Host memory: a host copy is allocated when
//    its offload is issued and freed where the program waits for its reload,
//    before the first reader (never, if not reloaded).
//
// With no transfer, the device peak is evaluate's peak and the time the sum
// of the costs (unittests/Solver/OffloadTest.cpp checks both on random
// schedules).
//
// Plain C++17, no MLIR/LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_OFFLOAD_H
#define CKPT_SOLVER_SCHEDULE_OFFLOAD_H

#include "ckpt/Solver/Schedule/MemorySimulator.h"
#include "ckpt/Solver/Schedule/Schedule.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ckpt {
namespace sched {

/// The link between device and host memory.
struct LinkSpec {
  double toHost = 0;   ///< bytes per second, device to host
  double toDevice = 0; ///< bytes per second, host to device
  double latency = 0;  ///< seconds added to every copy
  /// Seconds to copy `bytes` one way.
  double seconds(int64_t bytes, bool toHostWay) const {
    return latency +
           static_cast<double>(bytes) / (toHostWay ? toHost : toDevice);
  }
};

/// No reload: the host copy is never brought back.
inline constexpr size_t kNoReload = std::numeric_limits<size_t>::max();

/// One value moved to host memory and (usually) back.
struct Transfer {
  int value = -1;   ///< its version live when `after` ends is moved
  size_t after = 0; ///< the offload is issued when this execution ends
  /// The reload is issued when this execution ends (>= after); every read
  /// of the version after it reads the reloaded copy. kNoReload: none (then
  /// nothing may read the version after `after`).
  size_t reloadAfter = kNoReload;
  /// Where the program waits for the offload and frees the device buffer:
  /// after this execution (at or after `after`, at or before
  /// `reloadAfter`). Equal to `after`: at once, the compute stalling until
  /// the copy ends, before the boundary's reloads are issued (the buffer is
  /// gone before the next execution allocates). kNoReload: where
  /// evaluateTransfers puts it (`offloadDone`).
  size_t waitAfter = kNoReload;
};

/// The outcome of evaluateTransfers.
struct TransferEvaluation {
  bool valid = false;
  std::string error;          ///< why not (names the transfer or execution)
  double time = 0;            ///< when the last execution or copy ends
  double computeTime = 0;     ///< sum of the executions' costs
  double stallTime = 0;       ///< compute waiting for reloads
  int64_t devicePeak = 0;     ///< most device bytes live at any instant
  double devicePeakTime = 0;  ///< the first instant at the device peak
  int64_t hostPeak = 0;       ///< most host bytes live at any instant
  int64_t offloadedBytes = 0; ///< bytes copied to host
  /// Per execution: when it starts and ends.
  std::vector<double> start, end;
  /// Per transfer: the execution after which the program waits for its
  /// offload (the first that ends once the copy has ended; the last
  /// execution when none does) and frees its device buffer.
  std::vector<size_t> offloadDone;
};

/// The transfers of one schedule, evaluated against the schedule's memory
/// model (versions, buffers, reads), which is simulated once: for searches
/// that try many sets of transfers on the same schedule.
class TransferEvaluator {
public:
  /// Simulates `schedule`; `error()` says why not when it is not valid for
  /// evaluate.
  TransferEvaluator(const Problem &problem, const Schedule &schedule);

  const std::string &error() const { return scheduleError; }
  /// The schedule's memory model (a Detail::Full run).
  const MemorySimulator &tables() const { return simulator; }

  /// `transfers` over `link` (evaluateTransfers).
  TransferEvaluation evaluate(const std::vector<Transfer> &transfers,
                              const LinkSpec &link) const;

  /// save_on_cpu's transfers (saveOnCpuTransfers).
  std::vector<Transfer> saveOnCpu() const;

  /// The buffer of `version` when a transfer may move it: the version is
  /// the last of its buffer (no view or in-place result is made of it
  /// later), its tensor is the whole buffer (a view only with the buffer's
  /// bytes: a reshape, not a slice), and the buffer has bytes; else -1.
  int ownBuffer(int version) const;
  /// Whether `version` may move after execution `after`: ownBuffer, and
  /// the buffer's earlier versions (written over in place by it) are read
  /// at or before `after`.
  bool movableAfter(int version, size_t after) const;

private:
  const Problem &problem;
  const Schedule &schedule;
  MemorySimulator simulator;
  std::string scheduleError;
};

/// Evaluates `schedule` (valid for evaluate) with `transfers` over `link`.
/// A transfer is valid when its value has a version defined at or before
/// `after` that may move then (TransferEvaluator::movableAfter: the whole
/// buffer, nothing else reading it), `reloadAfter` is after `after` (a fresh
/// result, no view or in-place result shares it), nothing reads that version
/// after `after` up to `reloadAfter`, a returned version is reloaded, and no
/// version moves twice.
TransferEvaluation evaluateTransfers(const Problem &problem,
                                     const Schedule &schedule,
                                     const std::vector<Transfer> &transfers,
                                     const LinkSpec &link);

/// PyTorch's save_on_cpu as transfers: every forward value a backward op
/// reads is offloaded when its last forward reader ends, and reloaded when
/// the execution before its first backward reader ends (copies back on
/// demand, so its reload is not overlapped). Values that cannot move
/// (movableAfter: a view, a buffer written over in place later or read
/// through another version, no bytes) stay, and so
/// do values the next execution reads again (no execution between the
/// copies: no byte saved).
std::vector<Transfer> saveOnCpuTransfers(const Problem &problem,
                                         const Schedule &schedule);

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_OFFLOAD_H

//===- ChainModel.h - Heterogeneous chain model and simulator ---*- C++ -*-===//
//
// The chain model of Beaumont et al. 2019, "Optimal checkpointing for
// heterogeneous chains" (Section 3), the operations of its Table 1, the
// memory discretisation of its Section 5.2, and a sequence simulator that
// applies Table 1 operation by operation. Plain C++17, no MLIR/LLVM.
//
// Indexing. A chain has L+1 stages numbered 1..L+1 as in the paper; stage
// L+1 is the loss. Activations a^0..a^{L+1} and gradients delta^0..delta^{L+1}
// are indexed 0..L+1. In the C++ vectors, per-stage quantities for stage l
// live at index l-1; per-activation quantities for a^i live at index i.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_CHAIN_CHAIN_MODEL_H
#define CKPT_SOLVER_CHAIN_CHAIN_MODEL_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {
namespace solver {

/// A heterogeneous chain (paper Section 3.1).
struct Chain {
  /// Per stage l = 1..L+1 (vector index l-1); L+1 entries each.
  std::vector<double> uf;     ///< u_f^l: duration of a forward F^l.
  std::vector<double> ub;     ///< u_b^l: duration of the backward B^l.
  std::vector<int64_t> of;    ///< o_f^l: memory overhead of a forward.
  std::vector<int64_t> ob;    ///< o_b^l: memory overhead of B^l.
  std::vector<int64_t> wabar; ///< omega_abar^l: size of abar^l (incl. a^l).
  /// Per activation index i = 0..L+1; L+2 entries each.
  std::vector<int64_t> wa;     ///< omega_a^i: size of a^i.
  std::vector<int64_t> wdelta; ///< omega_delta^i: size of delta^i.

  /// L, the number of stages before the loss (numStages() - 1).
  int length() const { return static_cast<int>(uf.size()) - 1; }
  /// L+1, the number of stages including the loss.
  int numStages() const { return static_cast<int>(uf.size()); }

  /// 1-based accessors, named as in the paper.
  double ufAt(int l) const { return uf[l - 1]; }
  double ubAt(int l) const { return ub[l - 1]; }
  int64_t ofAt(int l) const { return of[l - 1]; }
  int64_t obAt(int l) const { return ob[l - 1]; }
  int64_t wabarAt(int l) const { return wabar[l - 1]; }

  /// Checks array lengths (L+1 per stage, L+2 per activation, at least one
  /// stage), that every value is finite and non-negative. Returns an empty
  /// string when valid, else a message naming the offending field.
  std::string validate() const;

  /// Sum of all forward and all backward durations: the store-all makespan.
  double storeAllMakespan() const;
};

/// How memory sizes are measured (paper Section 5.2).
///
/// Exact mode (slots == 0): sizes are integers in the unit of the input
/// (typically bytes) and the limit is `memory`. Slot mode (slots = S > 0):
/// the budget `memory` = M is cut into S slots of M/S each; every size is
/// rounded *up* to a whole number of slots, ceil(size * S / M), and the
/// limit is S slots.
struct MemoryModel {
  int64_t memory = 0; ///< The budget M (> 0).
  int64_t slots = 0;  ///< S > 0 for slot mode, 0 for exact sizes.

  bool exact() const { return slots == 0; }
  /// The limit in units: S in slot mode, M in exact mode.
  int64_t limit() const { return exact() ? memory : slots; }
  /// A size in units: itself (exact) or ceil(size * S / M) (slots).
  int64_t toUnits(int64_t size) const;
};

/// The chain with every memory quantity (wa, wdelta, wabar, of, ob)
/// converted to units of `model` (durations unchanged).
Chain toUnits(const Chain &chain, const MemoryModel &model);

/// The kinds of operation of Table 1.
enum class OpKind : uint8_t {
  FAll,    ///< F_all^l: forward, keep input, save abar^l.
  FCk,     ///< F_ck^l: forward, keep (checkpoint) the input, output a^l.
  FNone,   ///< F_none^l: forward, input is freed, output a^l.
  Backward ///< B^l.
};

/// One operation of a sequence, on a 1-based stage.
struct Op {
  OpKind kind = OpKind::FAll;
  int stage = 1;

  friend bool operator==(const Op &a, const Op &b) {
    return a.kind == b.kind && a.stage == b.stage;
  }
  friend bool operator!=(const Op &a, const Op &b) { return !(a == b); }
};

/// "Fall<l>", "Fck<l>", "Fn<l>" or "B<l>".
std::string toString(const Op &op);
/// Space-separated names of a sequence.
std::string toString(const std::vector<Op> &seq);
/// Parses the toString() form of one operation; false on bad input.
bool parseOp(std::string_view text, Op &out);

/// Result of simulate().
struct Simulation {
  bool valid = false;    ///< Every input present, all of delta^0 computed.
  std::string error;     ///< Why not valid (names the operation).
  double makespan = 0;   ///< Sum of the operations' durations.
  int64_t peak = 0;      ///< Highest memory use during an operation.
  size_t errorIndex = 0; ///< Index of the failing operation.
};

/// Applies Table 1 operation by operation, starting with {a^0, delta^{L+1}}
/// in memory, and checks that every operation's inputs are present.
///
/// Memory accounting (exactly the one Theorem 1 assumes):
///  - F^l (any kind) needs a^{l-1} or abar^{l-1}; while it runs, memory is
///    current + (output size) + o_f^l. F_all adds abar^l, F_ck / F_none add
///    a^l; F_none then frees a^{l-1} (if held as a plain a).
///  - B^l needs delta^l, abar^l and a^{l-1} or abar^{l-1}; while it runs,
///    memory is current + o_b^l (o_b covers delta^{l-1} being written).
///    Afterwards delta^l, abar^l and a plain a^{l-1} are freed and
///    delta^{l-1} is held.
///  - An operation producing a value already held is invalid.
/// The sequence is valid when every operation is and delta^0 was produced.
/// Sizes are taken from `chain` as they are (pass toUnits(...) for slots).
Simulation simulate(const Chain &chain, const std::vector<Op> &seq);

} // namespace solver
} // namespace ckpt

#endif // CKPT_SOLVER_CHAIN_CHAIN_MODEL_H

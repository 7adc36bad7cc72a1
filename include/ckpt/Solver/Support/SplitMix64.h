//===- SplitMix64.h - the splitmix64 generator ------------------*- C++ -*-===//
//
// splitmix64 (Steele, Lea, Flood 2014): ckpt-run's input stream (reproduced
// in Python by ckpt.mlir_runner.splitmix_inputs) and the seeded greedy's
// random choices. Header only, plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SUPPORT_SPLIT_MIX64_H
#define CKPT_SOLVER_SUPPORT_SPLIT_MIX64_H

#include <cstdint>

namespace ckpt {

struct SplitMix64 {
  uint64_t state;

  /// The next 64 bits of the stream.
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// A uniform number in [0, 1) (the top 53 bits of next()).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

} // namespace ckpt

#endif // CKPT_SOLVER_SUPPORT_SPLIT_MIX64_H

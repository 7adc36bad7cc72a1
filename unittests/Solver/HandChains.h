//===- HandChains.h - chains computed by hand in docs/SOLVER.md -*- C++ -*-===//

#ifndef CKPT_UNITTESTS_SOLVER_HANDCHAINS_H
#define CKPT_UNITTESTS_SOLVER_HANDCHAINS_H

#include "ckpt/Solver/Chain/ChainModel.h"

namespace ckpt {
namespace solver {

/// The 3-stage chain (L = 2) of test/Solver/Inputs/chain2.json, computed by
/// hand in docs/SOLVER.md ("Worked example").
inline Chain chain2() {
  Chain c;
  c.wa = {2, 2, 2, 1};
  c.wdelta = {2, 2, 2, 1};
  c.uf = {1, 2, 1};
  c.ub = {2, 4, 1};
  c.of = {0, 0, 0};
  c.ob = {0, 0, 0};
  c.wabar = {4, 4, 1};
  return c;
}

} // namespace solver
} // namespace ckpt

#endif // CKPT_UNITTESTS_SOLVER_HANDCHAINS_H

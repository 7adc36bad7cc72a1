//===- GraphFamilies.h - Generated network graph families -------*- C++ -*-===//
//
// Families of training graphs of any depth, for the unit tests and the
// benchmarks (CkptTestingSupport, not part of the solver library): feed-forward
// chain, ResNet, k towers, k global statistics and k-skip connections (the
// table in bulatov-fitting-larger-networks). Each generator builds the forward
// graph -- one step input "x" feeding the first layer, ending in a node "loss"
// -- and, with joint=true, adds the backward mirror with withBackward()
// (Graph.h).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TESTING_GRAPHFAMILIES_H
#define CKPT_TESTING_GRAPHFAMILIES_H

#include "ckpt/Solver/Graph/Graph.h"

namespace ckpt {
namespace graph {

enum class Family { FeedForward, ResNet, Towers, GlobalStats, Skip };

const char *familyName(Family f);

/// x -> f1 -> ... -> f_depth -> loss.
Graph feedForwardGraph(int depth, bool joint = true);
/// x -> stem; `blocks` residual blocks r_i = add(r_{i-1}, conv(conv(r_{i-1})));
/// -> loss.
Graph resNetGraph(int blocks, bool joint = true);
/// x -> stem; k towers of `depth` layers each reading the stem; a merge node
/// reads the k tower ends; -> loss.
Graph towersGraph(int k, int depth, bool joint = true);
/// x -> stem; k statistics g_j computed from the stem; f_i reads f_{i-1} and
/// every g_j; -> loss. With statsGradient=false the statistics are not
/// differentiated through (stop-gradient, as for normalisation statistics):
/// backward nodes read them, but they get no gradient node.
Graph globalStatsGraph(int k, int depth, bool joint = true,
                       bool statsGradient = false);
/// f_0 = stem; f_i reads f_{i-1} and f_{i-k} (i >= k); -> loss.
Graph skipGraph(int k, int depth, bool joint = true);

/// Dispatch; `k` is ignored by FeedForward and ResNet, `depth` is the number
/// of blocks for ResNet.
Graph familyGraph(Family f, int k, int depth, bool joint = true);

} // namespace graph
} // namespace ckpt

#endif // CKPT_TESTING_GRAPHFAMILIES_H

//===- Ilp.cpp - the exact schedule: Checkmate's MILP with CBC ------------===//

#include "ckpt/Solver/Schedule/Ilp.h"
#include "ckpt/Solver/Support/Budget.h"

#include "IlpProgram.h"
#include "ckpt/Solver/Schedule/IlpWorker.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

using namespace ckpt::sched;
using ckpt::sched::ilp::Program;

//===----------------------------------------------------------------------===//
// Status names and the machine's memory
//===----------------------------------------------------------------------===//

const char *ckpt::sched::statusName(IlpResult::Status status) {
  switch (status) {
  case IlpResult::Status::Optimal:
    return "optimal";
  case IlpResult::Status::Feasible:
    return "feasible";
  case IlpResult::Status::Infeasible:
    return "infeasible";
  case IlpResult::Status::Unknown:
    return "unknown";
  }
  return "unknown";
}

int64_t ckpt::sched::physicalMemoryBytes() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && size > 0)
    return static_cast<int64_t>(pages) * static_cast<int64_t>(size);
#endif
  return 0;
}

int64_t ckpt::sched::ilpMemoryLimitBytes(const BudgetSpec &spec) {
  int64_t machine = physicalMemoryBytes();
  if (spec.percent && machine <= 0)
    return 0; // a share of an unknown amount: no limit
  return budgetBytes(spec, static_cast<uint64_t>(machine));
}

#ifndef CKPT_HAVE_CBC

//===----------------------------------------------------------------------===//
// Without CBC
//===----------------------------------------------------------------------===//

bool ckpt::sched::ilpAvailable() { return false; }

std::string ckpt::sched::findIlpWorker(std::string &error) {
  error = "this build of ckpt has no ILP solver";
  return "";
}

IlpResult ckpt::sched::solveIlp(const Problem &, int64_t, const IlpOptions &) {
  IlpResult result;
  result.error = "this build of ckpt has no ILP solver: CBC "
                 "(coinor-libcbc-dev) was not found when it was configured";
  return result;
}

#else

bool ckpt::sched::ilpAvailable() { return true; }

//===----------------------------------------------------------------------===//
// Finding the worker
//===----------------------------------------------------------------------===//

std::string ckpt::sched::findIlpWorker(std::string &error) {
  if (std::optional<std::string> named =
          llvm::sys::Process::GetEnv("CKPT_ILP_WORKER")) {
    if (llvm::sys::fs::can_execute(*named))
      return *named;
    error = "CKPT_ILP_WORKER names '" + *named +
            "', which is not an executable program";
    return "";
  }
  // Beside the running program (ckpt-opt, ckpt-sched, a tool built with
  // ckpt), then where this build put it (a plugin, the Python module).
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<256> beside(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(beside, "ckpt-ilp-worker");
  for (llvm::StringRef candidate :
       {llvm::StringRef(beside), llvm::StringRef(CKPT_ILP_WORKER_PATH)})
    if (!candidate.empty() && llvm::sys::fs::can_execute(candidate))
      return candidate.str();
  error = "strategy=ilp runs CBC in the program ckpt-ilp-worker, which is "
          "neither beside this program nor at " CKPT_ILP_WORKER_PATH
          " (set CKPT_ILP_WORKER to its path)";
  return "";
}

//===----------------------------------------------------------------------===//
// Figures for messages
//===----------------------------------------------------------------------===//

namespace {

/// "1610612736 B (1.50 GiB)"-style figure for messages.
std::string gib(int64_t bytes) {
  return ckpt::formatBytes(static_cast<uint64_t>(std::max<int64_t>(0, bytes)));
}

} // namespace

//===----------------------------------------------------------------------===//
// The model: each op's bytes, what it needs, its columns
//===----------------------------------------------------------------------===//

namespace {

/// A term of a constraint: a column with a coefficient, or a constant.
struct Term {
  int col = -1; ///< -1: constant
  double constant = 0;
};

/// The program's view of a problem: op i's bytes and the ops each op
/// needs in memory while it runs.
struct Model {
  int n = 0;
  std::vector<double> mem; ///< bytes / budget
  std::vector<std::vector<int>> preds, succs;
  std::vector<char> returned, recomputable;
  double costScale = 1;
  std::vector<double> cost; ///< cost / costScale

  // Columns, the matrices of Checkmate's program (-1: fixed 0), for i < t:
  // runCol[t][i] is R[t][i] (op i runs in stage t), keepCol[t][i] is
  // S[t][i] (op i's results are kept in memory into stage t).
  std::vector<std::vector<int>> runCol, keepCol;
  std::vector<std::vector<std::pair<int, int>>> edgesOf; // per k: (i, eidx)
  int numEdges = 0;
  /// FREE[t][i,k]: op i's results are freed after op k runs in stage t,
  /// per edge (i, k) = edgeList[eidx] (-1: none).
  std::vector<std::vector<int>> freeCol;     // [t][eidx]
  std::vector<std::vector<int>> memCol;      // U[t][k], in budgets
  std::vector<std::pair<int, int>> edgeList; // eidx -> (i, k)

  // Paging (IlpOptions::paging; POET's variables on Checkmate's stages).
  bool paging = false;
  /// Per op: the value a transfer moves (its one result, a whole buffer of
  /// its own that no view or in-place result shares), or -1: not paged.
  std::vector<int> pageValue;
  /// Per op: seconds of its copy to the host and back, / costScale.
  std::vector<double> outTime, inTime;
  /// OUT[t][i]: op i's results go to the host during stage t (issued when
  /// stage t-1 ends, waited for when stage t ends); HOST[t][i]: a host copy
  /// exists in stage t; IN[t][i]: it comes back during stage t (issued when
  /// stage t-1 ends), read from stage t+1 on; LATE[t][i]: the same, read in
  /// stage t already (its readers wait for it). -1: none.
  std::vector<std::vector<int>> outCol, hostCol, inCol, lateCol;
  /// E[t]: the time stage t's copies take beyond its executions.
  std::vector<int> stallCol;

  /// R[t][i] as a term: 1 for the stage's own op, 0 when fixed.
  Term runTerm(int t, int i) const {
    if (i == t)
      return {-1, 1};
    if (i > t || runCol[t][i] < 0)
      return {-1, 0};
    return {runCol[t][i], 0};
  }
  /// S[t][i] as a term: 0 when fixed (and for t = n, past the last stage).
  Term keepTerm(int t, int i) const {
    if (t >= n || i >= t || keepCol[t][i] < 0)
      return {-1, 0};
    return {keepCol[t][i], 0};
  }
  /// OUT, HOST and IN columns (-1 when none or without paging).
  int pagingCol(const std::vector<std::vector<int>> &cols, int t, int i) const {
    if (!paging || t < 0 || t >= n || i >= t)
      return -1;
    return cols[t][i];
  }
};

/// The root op whose buffer value `v` shares (through View results), or -1
/// for an input.
int rootProducer(const Problem &problem, int v) {
  while (v >= 0 && problem.values[v].rule == BufferRule::View &&
         problem.values[v].source >= 0)
    v = problem.values[v].source;
  return v >= 0 ? problem.values[v].producer : -1;
}

Model buildModel(const Problem &problem, int64_t budget) {
  Model m;
  m.n = problem.numOps();
  const int n = m.n;
  m.mem.assign(n, 0);
  m.preds.assign(n, {});
  m.succs.assign(n, {});
  m.returned.assign(n, 0);
  m.recomputable.assign(n, 0);
  m.cost.assign(n, 0);
  double maxCost = 0;
  for (const Op &op : problem.ops)
    maxCost = std::max(maxCost, op.cost);
  m.costScale = maxCost > 0 ? maxCost : 1;
  for (int k = 0; k < n; ++k) {
    const Op &op = problem.ops[k];
    m.cost[k] = op.cost / m.costScale;
    m.recomputable[k] = op.recomputable;
    int64_t bytes = 0;
    for (int r : op.results) {
      const Value &value = problem.values[r];
      if (value.rule != BufferRule::View)
        bytes += value.bytes;
      if (value.returned)
        m.returned[k] = 1;
    }
    m.mem[k] = static_cast<double>(bytes) / static_cast<double>(budget);
    for (int r : op.reads) {
      for (int p : {problem.values[r].producer, rootProducer(problem, r)}) {
        if (p < 0 || p == k)
          continue;
        if (std::find(m.preds[k].begin(), m.preds[k].end(), p) ==
            m.preds[k].end())
          m.preds[k].push_back(p);
      }
    }
    std::sort(m.preds[k].begin(), m.preds[k].end());
    for (int p : m.preds[k])
      m.succs[p].push_back(k);
  }
  for (int k = 0; k < n; ++k)
    for (int i : m.preds[k]) {
      m.edgesOf.resize(n);
      m.edgesOf[k].push_back({i, m.numEdges});
      m.edgeList.push_back({i, k});
      ++m.numEdges;
    }
  m.edgesOf.resize(n);
  return m;
}

/// Adds paging over `link` to `m`: which op's results may move, and how
/// long their copies take.
void addPagingModel(Model &m, const Problem &problem, const LinkSpec &link) {
  m.paging = true;
  m.pageValue.assign(m.n, -1);
  m.outTime.assign(m.n, 0);
  m.inTime.assign(m.n, 0);
  std::vector<char> shared(problem.values.size(), 0);
  for (const Value &value : problem.values)
    if (value.rule != BufferRule::Fresh && value.source >= 0)
      shared[value.source] = 1;
  for (int i = 0; i < m.n; ++i) {
    const Op &op = problem.ops[i];
    if (op.results.size() != 1)
      continue;
    int v = op.results[0];
    const Value &value = problem.values[v];
    if (value.rule != BufferRule::Fresh || value.bytes <= 0 || shared[v])
      continue;
    m.pageValue[i] = v;
    m.outTime[i] = link.seconds(value.bytes, true) / m.costScale;
    m.inTime[i] = link.seconds(value.bytes, false) / m.costScale;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Building the MILP (Checkmate's constraints)
//===----------------------------------------------------------------------===//

namespace {

/// Adds the R and S columns: stage t may recompute op i < t (runCol) and
/// keep its result from stage t - 1 (keepCol).
void addRunKeepCols(Model &m, Program &p) {
  const int n = m.n;
  // Which results may be worth keeping into stage t: read at stage t or
  // later, read by an op that may be recomputed later, or returned.
  std::vector<int> lastReader(n, -1);
  std::vector<char> recomputableReader(n, 0);
  for (int i = 0; i < n; ++i)
    for (int j : m.succs[i]) {
      lastReader[i] = std::max(lastReader[i], j);
      if (m.recomputable[j])
        recomputableReader[i] = 1;
    }
  m.runCol.assign(n, {});
  m.keepCol.assign(n, {});
  for (int t = 0; t < n; ++t) {
    m.runCol[t].assign(t, -1);
    m.keepCol[t].assign(t, -1);
    for (int i = 0; i < t; ++i) {
      if (m.recomputable[i] && !m.succs[i].empty())
        m.runCol[t][i] = p.addCol(0, 1, m.cost[i], true);
      bool useful =
          m.returned[i] || lastReader[i] >= t || recomputableReader[i];
      if (useful)
        m.keepCol[t][i] = p.addCol(0, 1, 0, true);
    }
  }
}

/// Adds the rows that tie S to the previous stage and keep returned results.
void addKeepRows(Model &m, Program &p) {
  const int n = m.n;
  // Keeping needs a copy in the previous stage:
  // S[t+1][i] <= S[t][i] + R[t][i] (+ IN[t][i]).
  for (int t = 0; t + 1 < n; ++t) {
    for (int i = 0; i < t; ++i) {
      Term next = m.keepTerm(t + 1, i);
      if (next.col < 0)
        continue;
      Term keep = m.keepTerm(t, i), run = m.runTerm(t, i);
      int row = p.addRow(-1e30, 0);
      p.add(row, next.col, 1);
      if (keep.col >= 0)
        p.add(row, keep.col, -1);
      if (run.col >= 0)
        p.add(row, run.col, -1);
      // ... or a copy brought back from the host in stage t.
      for (int in : {m.pagingCol(m.inCol, t, i), m.pagingCol(m.lateCol, t, i)})
        if (in >= 0)
          p.add(row, in, -1);
    }
  }
  // A returned result is in memory in the last stage (kept or recomputed
  // there) and stays to the end; earlier copies may be dropped.
  for (int i = 0; i + 1 < n; ++i) {
    if (!m.returned[i])
      continue;
    Term keep = m.keepTerm(n - 1, i), run = m.runTerm(n - 1, i);
    int row = p.addRow(1, 1e30);
    if (keep.col >= 0)
      p.add(row, keep.col, 1);
    if (run.col >= 0)
      p.add(row, run.col, 1);
  }
}

/// Adds the rows that let an op run only when its operands are in memory.
void addOperandRows(Model &m, Program &p) {
  const int n = m.n;
  // An op runs only when what it reads is in memory:
  // R[t][k] <= R[t][i] + S[t][i] (+ LATE[t][i]).
  for (int t = 0; t < n; ++t) {
    for (int k = 0; k <= t; ++k) {
      Term run = m.runTerm(t, k);
      if (run.col < 0 && run.constant == 0)
        continue;
      for (int i : m.preds[k]) {
        Term ri = m.runTerm(t, i), si = m.keepTerm(t, i);
        // run - ri - si <= 0
        double rhs = -run.constant;
        int row = p.addRow(-1e30, rhs);
        if (run.col >= 0)
          p.add(row, run.col, 1);
        if (ri.col >= 0)
          p.add(row, ri.col, -1);
        if (si.col >= 0)
          p.add(row, si.col, -1);
        int late = m.pagingCol(m.lateCol, t, i); // brought back in stage t
        if (late >= 0)
          p.add(row, late, -1);
      }
    }
  }
}

/// Adds FREE[t][e] for edge e = (i, k) run in stage t, and its two rows.
void addFreeCol(Model &m, Program &p, int t, int e, Term rk) {
  const int n = m.n;
  auto [i, k] = m.edgeList[e];
  // hazards h = (1 - rk) + S[t+1][i] + sum R[t][j], j in succ(i), k < j <=
  // t
  std::vector<std::pair<int, double>> terms; // columns of h
  double constant = 1 - rk.constant;
  if (rk.col >= 0)
    terms.push_back({rk.col, -1});
  Term keep = m.keepTerm(t + 1, i);
  if (keep.col >= 0)
    terms.push_back({keep.col, 1});
  if (t + 1 == n && m.returned[i])
    constant += 1; // returned: never freed in the last stage
  for (int j : m.succs[i]) {
    if (j <= k || j > t)
      continue;
    Term rj = m.runTerm(t, j);
    if (rj.col >= 0)
      terms.push_back({rj.col, 1});
    else
      constant += rj.constant;
  }
  // The largest value h takes (every positive term at 1, rk at 0).
  int maxHazards = static_cast<int>(constant);
  for (auto [col, coef] : terms)
    if (coef > 0)
      ++maxHazards;
  int f = p.addCol(0, 1, 0, true);
  m.freeCol[t][e] = f;
  // 1 - f <= h  <=>  -f - terms <= constant - 1
  int row = p.addRow(-1e30, constant - 1);
  p.add(row, f, -1);
  for (auto [col, coef] : terms)
    p.add(row, col, -coef);
  // maxH (1 - f) >= h  <=>  -maxH f - terms >= constant - maxH
  if (maxHazards == 0) {
    // h is the constant: f = 1 exactly when it is 0.
    p.fix(f, constant > 0 ? 0 : 1);
    return;
  }
  int row2 = p.addRow(constant - maxHazards, 1e30);
  p.add(row2, f, -maxHazards);
  for (auto [col, coef] : terms)
    p.add(row2, col, -coef);
}

/// Adds the FREE columns and their rows.
void addFreeCols(Model &m, Program &p) {
  const int n = m.n;
  // Freeing: FREE[t][i,k] = 1 exactly when op k runs in stage t, op i's
  // results are not kept into stage t+1 and no later reader of i runs in
  // stage t (Checkmate's hazard constraints).
  m.freeCol.assign(n, std::vector<int>(m.numEdges, -1));
  for (int t = 0; t < n; ++t) {
    for (int e = 0; e < m.numEdges; ++e) {
      int k = m.edgeList[e].second;
      if (k > t)
        continue;
      Term rk = m.runTerm(t, k);
      if (rk.col < 0 && rk.constant == 0)
        continue;
      addFreeCol(m, p, t, e, rk);
    }
  }
}

/// Adds the U columns (the memory in use) and the rows that define them.
void addMemoryCols(Model &m, Program &p) {
  const int n = m.n;
  // Memory: U[t][0] = R[t][0] m0 + sum (S[t][i] + IN + LATE[t][i]) mi;
  // U[t][k+1] = U[t][k] + R[t][k+1] m(k+1) - sum of what is freed after k.
  m.memCol.assign(n, {});
  for (int t = 0; t < n; ++t) {
    m.memCol[t].assign(t + 1, -1);
    for (int k = 0; k <= t; ++k)
      m.memCol[t][k] = p.addCol(0, 1, 0, false);
    {
      Term r0 = m.runTerm(t, 0);
      double rhs = r0.constant * m.mem[0];
      int row = p.addRow(rhs, rhs);
      p.add(row, m.memCol[t][0], 1);
      if (r0.col >= 0 && m.mem[0] != 0)
        p.add(row, r0.col, -m.mem[0]);
      for (int i = 0; i < t; ++i) {
        Term si = m.keepTerm(t, i);
        if (si.col >= 0 && m.mem[i] != 0)
          p.add(row, si.col, -m.mem[i]);
        // A reload's buffer is allocated when it is issued, as stage t
        // starts.
        for (int in :
             {m.pagingCol(m.inCol, t, i), m.pagingCol(m.lateCol, t, i)})
          if (in >= 0 && m.mem[i] != 0)
            p.add(row, in, -m.mem[i]);
      }
    }
    for (int k = 0; k < t; ++k) {
      Term rk = m.runTerm(t, k + 1);
      double rhs = rk.constant * m.mem[k + 1];
      int row = p.addRow(rhs, rhs);
      p.add(row, m.memCol[t][k + 1], 1);
      p.add(row, m.memCol[t][k], -1);
      if (rk.col >= 0 && m.mem[k + 1] != 0)
        p.add(row, rk.col, -m.mem[k + 1]);
      for (auto [i, e] : m.edgesOf[k]) {
        int f = m.freeCol[t][e];
        if (f >= 0 && m.mem[i] != 0)
          p.add(row, f, m.mem[i]);
      }
    }
  }
}

/// Adds the OUT, HOST, IN, LATE and E columns of paging. Op i may go to
/// the host in stage t when its results are kept into stage t, op t does
/// not read them, and they are worth keeping into stage t+2 (the earliest a
/// reload serves); a host copy lives from the stage after its offload while
/// a reload can serve, which one in stage t does when its next stage keeps
/// the results (IN) or a reader may run in stage t (LATE).
void addPagingCols(Model &m, Program &p) {
  const int n = m.n;
  for (auto *cols : {&m.outCol, &m.hostCol, &m.inCol, &m.lateCol})
    cols->assign(n, {});
  m.stallCol.assign(n, -1);
  std::vector<char> anyOut(n, 0);
  for (int t = 0; t < n; ++t) {
    for (auto *cols : {&m.outCol, &m.hostCol, &m.inCol, &m.lateCol})
      (*cols)[t].assign(t, -1);
    bool copies = false;
    for (int i = 0; i < t; ++i) {
      if (m.pageValue[i] < 0)
        continue;
      bool readByT =
          std::binary_search(m.preds[t].begin(), m.preds[t].end(), i);
      bool readable = readByT;
      for (int k : m.succs[i])
        readable = readable || (k < t && m.runCol[t][k] >= 0);
      bool keptOn = m.keepTerm(t + 1, i).col >= 0;
      if (anyOut[i] && (keptOn || readable)) {
        m.hostCol[t][i] = p.addCol(0, 1, 0, true);
        if (keptOn)
          m.inCol[t][i] = p.addCol(0, 1, 0, true);
        if (readable)
          m.lateCol[t][i] = p.addCol(0, 1, 0, true);
        copies = true;
      }
      if (t >= 1 && !readByT && m.keepTerm(t, i).col >= 0 &&
          m.keepTerm(t + 2, i).col >= 0) {
        m.outCol[t][i] = p.addCol(0, 1, 0, true);
        anyOut[i] = 1;
        copies = true;
      }
    }
    if (copies)
      m.stallCol[t] = p.addCol(0, 1e30, 1, false);
  }
}

/// Adds `a + b <= 1`-style rows: sum of `cols` (with coefficients) <= rhs.
void addAtMost(Program &p, std::initializer_list<std::pair<int, double>> terms,
               double rhs) {
  int row = p.addRow(-1e30, rhs);
  for (auto [col, coef] : terms)
    if (col >= 0)
      p.add(row, col, coef);
}

/// Adds the rows of one op's copies in stage t.
void addPagingRowsAt(Model &m, Program &p, int t, int i) {
  int out = m.outCol[t][i], host = m.hostCol[t][i], in = m.inCol[t][i];
  if (out >= 0) {
    // Offloaded from device memory, which it then leaves; nothing reads it
    // in that stage (the offload is issued as the stage starts).
    addAtMost(p, {{out, 1}, {m.keepTerm(t, i).col, -1}}, 0);
    addAtMost(p, {{out, 1}, {m.keepTerm(t + 1, i).col, 1}}, 1);
    addAtMost(p, {{out, 1}, {m.runTerm(t, i).col, 1}}, 1);
    for (int k : m.succs[i])
      if (k < t && m.runTerm(t, k).col >= 0)
        addAtMost(p, {{out, 1}, {m.runTerm(t, k).col, 1}}, 1);
  }
  if (host >= 0) {
    // A host copy comes from an offload, and its op is not recomputed while
    // it exists (a recomputation is a new version).
    addAtMost(p,
              {{host, 1},
               {m.pagingCol(m.hostCol, t - 1, i), -1},
               {m.pagingCol(m.outCol, t - 1, i), -1}},
              0);
    addAtMost(p, {{host, 1}, {m.runTerm(t, i).col, 1}}, 1);
    // A reload needs the host copy; IN's is kept into the next stage.
    int late = m.lateCol[t][i];
    addAtMost(p, {{in, 1}, {late, 1}, {host, -1}}, 0);
    if (in >= 0)
      addAtMost(p, {{in, 1}, {m.keepTerm(t + 1, i).col, -1}}, 0);
  }
}

/// Adds a row: at most one of the columns `cols` of op i, over the stages.
void addOncePerOp(
    Program &p, int n, int i,
    std::initializer_list<const std::vector<std::vector<int>> *> cols) {
  int row = -1;
  for (int t = i + 1; t < n; ++t)
    for (const auto *c : cols)
      if ((*c)[t][i] >= 0) {
        if (row < 0)
          row = p.addRow(-1e30, 1);
        p.add(row, (*c)[t][i], 1);
      }
}

/// Adds the stall rows of stage t. LATE reloads are issued first, so the
/// stage's executions end by its start plus their copies plus the
/// executions; its other copies end by its start plus their own times:
/// E[t] >= sum LATE d, E[t] >= sum (IN + LATE) d - executions,
/// E[t] >= sum OUT d - executions.
void addStallRows(Model &m, Program &p, int t) {
  int row = p.addRow(0, 1e30); // E - sum LATE d >= 0
  p.add(row, m.stallCol[t], 1);
  for (int i = 0; i < t; ++i)
    if (m.lateCol[t][i] >= 0)
      p.add(row, m.lateCol[t][i], -m.inTime[i]);
  for (bool out : {true, false}) {
    // E[t] + sum R[t][i] c_i - sum COPY[t][i] d_i >= -c_t
    row = p.addRow(-m.cost[t], 1e30);
    p.add(row, m.stallCol[t], 1);
    for (int i = 0; i < t; ++i) {
      if (m.runCol[t][i] >= 0 && m.cost[i] != 0)
        p.add(row, m.runCol[t][i], m.cost[i]);
      int copies[2] = {out ? m.outCol[t][i] : m.inCol[t][i],
                       out ? -1 : m.lateCol[t][i]};
      for (int copy : copies)
        if (copy >= 0)
          p.add(row, copy, -(out ? m.outTime[i] : m.inTime[i]));
    }
  }
}

/// Adds paging's rows: how OUT, HOST, IN and LATE follow each other, one
/// offload and one reload per op, and the stall of each stage.
void addPagingRows(Model &m, Program &p) {
  const int n = m.n;
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < t; ++i)
      addPagingRowsAt(m, p, t, i);
  for (int i = 0; i < n; ++i) {
    addOncePerOp(p, n, i, {&m.outCol});
    addOncePerOp(p, n, i, {&m.inCol, &m.lateCol});
  }
  for (int t = 0; t < n; ++t)
    if (m.stallCol[t] >= 0)
      addStallRows(m, p, t);
}

/// Adds the columns of `m` (runCol, keepCol, freeCol, memCol; with paging
/// outCol, hostCol, inCol, stallCol) and Checkmate's constraints to `p`:
/// stage t runs op t, after the ops it recomputes; the memory in use never
/// exceeds the budget (1).
void buildProgram(Model &m, Program &p) {
  addRunKeepCols(m, p);
  if (m.paging)
    addPagingCols(m, p);
  addKeepRows(m, p);
  addOperandRows(m, p);
  addFreeCols(m, p);
  addMemoryCols(m, p);
  if (m.paging)
    addPagingRows(m, p);
}

} // namespace

//===----------------------------------------------------------------------===//
// From columns to schedules and back
//===----------------------------------------------------------------------===//

namespace {

/// The schedule of an R matrix: per stage, the recomputed ops in order, then
/// the stage's op.
Schedule scheduleOf(const Model &m, const double *solution) {
  Schedule schedule;
  for (int t = 0; t < m.n; ++t) {
    for (int i = 0; i < t; ++i) {
      int col = m.runCol[t][i];
      if (col >= 0 && solution[col] > 0.5)
        schedule.push_back(i);
    }
    schedule.push_back(t);
  }
  return schedule;
}

/// Whether an execution after `x` reads value `v` of op `i` before `i`
/// runs again (or `v` is returned).
bool readAfter(const Problem &problem, const Schedule &schedule, int i, int v,
               size_t x) {
  for (size_t y = x + 1; y < schedule.size(); ++y) {
    if (schedule[y] == i)
      return false;
    const std::vector<int> &reads = problem.ops[schedule[y]].reads;
    if (std::find(reads.begin(), reads.end(), v) != reads.end())
      return true;
  }
  return problem.values[v].returned;
}

/// A solution's copies as transfers on scheduleOf's schedule, and the
/// program's time of the stages (the executions' costs, or a stage's
/// copies one way when they take longer). An offload in stage t is issued
/// when stage t-1's last execution (its op) ends and waited for when stage
/// t's does; a reload in stage t is issued when stage t-1's ends. An
/// offload never brought back, or brought back for no reader (kept in case
/// a recomputation needs it), is dropped: the device buffer then goes at its
/// last read, no later, and the reload's is never allocated.
std::vector<Transfer> transfersOf(const Problem &problem, const Model &m,
                                  const Schedule &schedule,
                                  const double *solution, double &programTime) {
  const int n = m.n;
  std::vector<size_t> stageEnd(n, 0);
  for (size_t x = 0, t = 0; x < schedule.size(); ++x)
    if (schedule[x] == static_cast<int>(t))
      stageEnd[t++] = x;
  auto on = [&](int col) { return col >= 0 && solution[col] > 0.5; };
  std::vector<Transfer> transfers, lateOnes;
  programTime = 0;
  for (int t = 0; t < n; ++t) {
    double compute = m.cost[t], out = 0, in = 0;
    for (int i = 0; i < t; ++i) {
      if (on(m.runCol[t][i]))
        compute += m.cost[i];
      if (on(m.pagingCol(m.inCol, t, i)) || on(m.pagingCol(m.lateCol, t, i)))
        in += m.inTime[i];
      if (!on(m.pagingCol(m.outCol, t, i)))
        continue;
      out += m.outTime[i];
      for (int b = t + 1; b < n; ++b) {
        bool late = on(m.pagingCol(m.lateCol, b, i));
        if ((late || on(m.pagingCol(m.inCol, b, i))) &&
            readAfter(problem, schedule, i, m.pageValue[i], stageEnd[b - 1])) {
          Transfer transfer;
          transfer.value = m.pageValue[i];
          transfer.after = stageEnd[t - 1];
          transfer.waitAfter = stageEnd[t];
          transfer.reloadAfter = stageEnd[b - 1];
          (late ? lateOnes : transfers).push_back(transfer);
        }
      }
    }
    double lateIn = 0;
    for (int i = 0; i < t; ++i)
      if (on(m.pagingCol(m.lateCol, t, i)))
        lateIn += m.inTime[i];
    programTime += std::max({compute + lateIn, out, in}) * m.costScale;
  }
  // Reloads read in their own stage are issued before the others.
  lateOnes.insert(lateOnes.end(), transfers.begin(), transfers.end());
  return lateOnes;
}

/// The values of the integer columns for `schedule`, or false when it is
/// not of the program's form (stages in the problem's order, recomputations
/// in it too).
bool startOf(const Problem &problem, const Model &m, const Program &p,
             const Schedule &schedule,
             std::vector<std::pair<int, double>> &start) {
  const int n = m.n;
  // Stage of each execution; check the form.
  std::vector<std::vector<int>> recomputed(n);
  int stage = 0;
  std::vector<int> pending;
  std::vector<char> seen(n, 0);
  for (int op : schedule) {
    if (!seen[op]) {
      if (op != stage)
        return false;
      seen[op] = 1;
      recomputed[stage] = pending;
      pending.clear();
      ++stage;
    } else {
      if (!pending.empty() && pending.back() >= op)
        return false;
      pending.push_back(op);
    }
  }
  if (stage != n || !pending.empty())
    return false;
  std::vector<std::vector<char>> runs(n), kept(n);
  for (int t = 0; t < n; ++t) {
    runs[t].assign(n, 0);
    kept[t].assign(n, 0);
    runs[t][t] = 1;
    for (int i : recomputed[t]) {
      if (m.runCol[t][i] < 0)
        return false;
      runs[t][i] = 1;
    }
  }
  // kept[t][i]: the results of i computed before stage t are read in stage t
  // or later before i runs again (or returned).
  // Walk stages backwards: needed[i] = some later read happens before the
  // next recomputation of i.
  std::vector<char> needed(n, 0);
  for (int i = 0; i < n; ++i)
    needed[i] = m.returned[i];
  for (int t = n - 1; t >= 0; --t) {
    // kept[t+1] = needed at the end of stage t.
    if (t + 1 < n)
      for (int i = 0; i <= t; ++i)
        kept[t + 1][i] = needed[i];
    // Go back through stage t's executions, last first.
    std::vector<int> execs(recomputed[t]);
    execs.push_back(t);
    for (auto it = execs.rbegin(); it != execs.rend(); ++it) {
      int op = *it;
      needed[op] = 0; // computed here: earlier copies are not needed for it
      for (int i : m.preds[op])
        needed[i] = 1;
    }
  }
  (void)problem;
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < t; ++i) {
      if (kept[t][i] && m.keepCol[t][i] < 0)
        return false;
    }
  auto put = [&](int col, double value) {
    if (col >= 0)
      start.push_back({col, value});
  };
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < t; ++i) {
      put(m.runCol[t][i], runs[t][i]);
      put(m.keepCol[t][i], kept[t][i]);
    }
  if (m.paging) // no copies
    for (const auto *cols : {&m.outCol, &m.hostCol, &m.inCol, &m.lateCol})
      for (const std::vector<int> &stage : *cols)
        for (int col : stage)
          put(col, 0);
  for (int t = 0; t < n; ++t)
    for (int e = 0; e < m.numEdges; ++e) {
      int f = m.freeCol[t][e];
      if (f < 0)
        continue;
      auto [i, k] = m.edgeList[e];
      bool freed = runs[t][k] && !(t + 1 < n && kept[t + 1][i]);
      for (int j : m.succs[i])
        if (j > k && j <= t && runs[t][j])
          freed = false;
      put(f, freed ? 1 : 0);
    }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// The warm start
//===----------------------------------------------------------------------===//

namespace {

/// The warm start in the program's form (recomputations of a stage in the
/// problem's order) with its column values, when it fits the budget.
bool programStart(const Problem &problem, int64_t budget, const Model &m,
                  const Program &p, const Schedule &schedule, Schedule &normal,
                  std::vector<std::pair<int, double>> &start) {
  normal.clear();
  std::vector<char> seen(problem.numOps(), 0);
  std::vector<int> pending;
  for (int op : schedule) {
    if (seen[op]) {
      pending.push_back(op);
      continue;
    }
    seen[op] = 1;
    std::sort(pending.begin(), pending.end());
    pending.erase(std::unique(pending.begin(), pending.end()), pending.end());
    normal.insert(normal.end(), pending.begin(), pending.end());
    pending.clear();
    normal.push_back(op);
  }
  normal = prune(problem, normal);
  Evaluation e = evaluate(problem, normal);
  return e.valid && e.peak <= budget && startOf(problem, m, p, normal, start);
}

} // namespace

//===----------------------------------------------------------------------===//
// Collecting the reports
//===----------------------------------------------------------------------===//

namespace {

/// Keeps what the worker reported: its incumbents as schedules, checked in
/// the exact simulation (with paging: as schedules and transfers, in
/// evaluateTransfers, ranked by the program's time).
struct Collect : ilp::ReportHandler {
  std::optional<Schedule> best;
  double bestCost = 0;
  std::vector<Transfer> bestTransfers;
  TransferEvaluation bestEvaluation;
  double bestProgramTime = 0;
  double lowerBound = -1e300;
  std::optional<IlpResult::Status> status;
  bool nodes = false;
  /// The last incumbent reported (CBC's own best when it finishes): whether
  /// it fits the budget in the exact simulation, and its cost (with
  /// paging, its program time).
  bool lastFits = false;
  double lastCost = 0;
  bool finalFits = false;
  double finalCost = 0;
  const Problem &problem;
  int64_t budget;
  /// The model and its program's width: turn columns into schedules.
  const Model &m;
  size_t numCols;
  const std::optional<LinkSpec> &link;
  bool ranOutOfMemory = false;
  Collect(const Problem &problem, int64_t budget, const Model &m,
          size_t numCols, const std::optional<LinkSpec> &link)
      : problem(problem), budget(budget), m(m), numCols(numCols), link(link) {}

  void incumbent(const std::vector<int> &ones) override {
    std::vector<double> solution(numCols, 0.0);
    for (int c : ones)
      if (c >= 0 && static_cast<size_t>(c) < numCols)
        solution[c] = 1;
    Schedule schedule = scheduleOf(m, solution.data());
    if (!m.paging)
      return found(schedule);
    double programTime = 0;
    std::vector<Transfer> transfers =
        transfersOf(problem, m, schedule, solution.data(), programTime);
    if (transfers.empty())
      return found(schedule);
    foundPaged(std::move(schedule), std::move(transfers), programTime);
  }
  /// A schedule found (the worker's, or the warm start).
  void found(const Schedule &schedule) {
    Schedule pruned = prune(problem, schedule);
    if (m.paging)
      return foundPaged(pruned, {}, -1);
    Evaluation e = evaluate(problem, pruned);
    lastFits = e.valid && e.peak <= budget;
    lastCost = e.cost;
    if (!lastFits)
      return;
    if (!best || e.cost < bestCost) {
      best = std::move(pruned);
      bestCost = e.cost;
    }
  }
  /// A schedule with transfers, and its time in the program (< 0: the
  /// evaluated time, for a schedule without copies).
  void foundPaged(Schedule schedule, std::vector<Transfer> transfers,
                  double programTime) {
    TransferEvaluation e =
        evaluateTransfers(problem, schedule, transfers, *link);
    lastFits = e.valid && e.devicePeak <= budget;
    lastCost = programTime < 0 ? e.time : programTime;
    if (!lastFits)
      return;
    if (!best || lastCost < bestProgramTime ||
        (lastCost == bestProgramTime && e.time < bestCost)) {
      best = std::move(schedule);
      bestTransfers = std::move(transfers);
      bestCost = e.time;
      bestProgramTime = lastCost;
      bestEvaluation = std::move(e);
    }
  }
  void bound(double value) override {
    lowerBound = std::max(lowerBound, value);
  }
  void finished(int s, double value, bool stoppedByNodes) override {
    status = static_cast<IlpResult::Status>(s);
    nodes = stoppedByNodes;
    finalFits = lastFits;
    finalCost = lastCost;
    bound(value);
  }
  void outOfMemory() override { ranOutOfMemory = true; }
};

} // namespace

//===----------------------------------------------------------------------===//
// solveIlp: the program, CBC in the worker process, the result
//===----------------------------------------------------------------------===//

namespace {

using Clock = std::chrono::steady_clock;

/// Wall-clock seconds since `t0`.
double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Records the program's size in `result`; false, with result.error, when
/// CBC would need more than the memory limit for it.
bool fitsMemoryLimit(const Problem &problem, Model &m,
                     const IlpOptions &options, IlpResult &result) {
  {
    // Its size first: a program too large for the memory limit is refused
    // before it is built.
    Program count;
    count.countOnly = true;
    buildProgram(m, count);
    result.variables = count.numCols;
    result.constraints = count.numRows;
    result.nonzeros = count.numNonzeros;
    result.estimatedBytes = ilp::estimatedCbcBytes(count);
  }
  if (options.memoryLimit > 0 && result.estimatedBytes > options.memoryLimit) {
    result.error = "the ILP of " + std::to_string(problem.numOps()) +
                   " ops has " + std::to_string(result.variables) +
                   " variables, " + std::to_string(result.constraints) +
                   " constraints and " + std::to_string(result.nonzeros) +
                   " nonzeros: CBC would need about " +
                   gib(result.estimatedBytes) + ", over its memory limit of " +
                   gib(options.memoryLimit) +
                   " (ilp-memory=); use strategy=optimal, or raise ilp-memory";
    return false;
  }
  return true;
}

/// CBC's command line: its own time limit, the node limit, threads.
std::vector<std::string> cbcArguments(const IlpOptions &options,
                                      double seconds) {
  std::vector<std::string> args;
  if (seconds > 0) {
    // Wall-clock seconds (CBC counts CPU time by default, which runs slower
    // than the clock on a loaded machine).
    args.push_back("-timeMode");
    args.push_back("elapsed");
    args.push_back("-sec");
    args.push_back(std::to_string(seconds));
  }
  if (options.nodeLimit > 0) {
    args.push_back("-maxNodes");
    args.push_back(std::to_string(options.nodeLimit));
  }
  if (options.threads > 1) {
    args.push_back("-threads");
    args.push_back(std::to_string(options.threads));
  }
  // Debian's CBC is built with assertions, and one of its heuristics trips
  // on preprocessed models of this program: no preprocessing.
  args.push_back("-preprocess");
  args.push_back("off");
  args.push_back("-ratioGap");
  args.push_back("1e-6");
  args.push_back("-log");
  args.push_back(options.log ? "1" : "0");
  args.push_back("-solve");
  args.push_back("-quit");
  return args;
}

/// A temporary file, removed when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  bool make(llvm::StringRef suffix) {
    return !llvm::sys::fs::createTemporaryFile("ckpt-ilp", suffix, path);
  }
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

/// Runs CBC in the worker on `request`, collecting its reports; false, with
/// result.error, when the worker cannot be started. `failure`: why CBC
/// stopped early, if it did.
bool runWorker(const IlpOptions &options, const ilp::Request &request,
               Collect &collect, IlpResult &result, std::string &failure) {
  std::string worker = findIlpWorker(result.error);
  if (worker.empty())
    return false;
  TempFile requestFile, reportFile;
  if (!requestFile.make("request") || !reportFile.make("report")) {
    result.error = "cannot create the ILP solver's temporary files";
    return false;
  }
  if (!ilp::writeRequest(requestFile.path.str().str(), request, result.error))
    return false;
  // The worker's stdout and stderr: CBC's log when it is asked for.
  std::optional<llvm::StringRef> quiet = llvm::StringRef();
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(), options.log ? std::nullopt : quiet,
      options.log ? std::nullopt : quiet};
  llvm::StringRef args[] = {worker, requestFile.path, reportFile.path};
  std::string message;
  bool failedToStart = false;
  std::optional<llvm::sys::ProcessStatistics> stats;
  int code = llvm::sys::ExecuteAndWait(worker, args, std::nullopt, redirects,
                                       /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                       &message, &failedToStart, &stats);
  if (failedToStart) {
    result.error = "cannot start the ILP solver " + worker + ": " + message;
    return false;
  }
  if (stats)
    result.peakBytes = static_cast<int64_t>(stats->PeakMemory) * 1024;
  ilp::readReport(reportFile.path.str().str(), collect);
  collect.nodes = collect.nodes && options.nodeLimit > 0; // CBC's own cap
  bool stopped = code == kIlpWorkerStoppedExitCode;
  if (collect.ranOutOfMemory)
    failure = "CBC ran out of its memory limit of " + gib(options.memoryLimit) +
              " (ilp-memory=); use strategy=optimal, or raise ilp-memory";
  else if (code == -2)
    failure = "CBC stopped: " + message +
              (options.memoryLimit > 0
                   ? " (its memory limit is " + gib(options.memoryLimit) +
                         ", ilp-memory=)"
                   : std::string());
  else if (code != 0 && !stopped)
    failure = "the ILP solver " + worker + " failed with exit code " +
              std::to_string(code);
  if ((stopped || collect.ranOutOfMemory) && !collect.status)
    collect.status = IlpResult::Status::Unknown;
  return true;
}

/// Fills `result` from what the solver reported: the best schedule, its
/// status, the lower bound, and `failure` as an error or a warning.
void reportResult(const Problem &problem, const Model &m,
                  const Collect &collect, bool warmStarted,
                  const std::string &failure, IlpResult &result) {
  result.warmStarted = warmStarted;
  result.stoppedByNodes = collect.nodes;
  double fixedCost = 0;
  for (const Op &op : problem.ops)
    fixedCost += op.cost;
  if (collect.lowerBound > -1e299)
    result.lowerBound =
        fixedCost + std::max(0.0, collect.lowerBound) * m.costScale;
  else
    result.lowerBound = fixedCost; // no recomputation at all
  IlpResult::Status status =
      collect.status ? *collect.status : IlpResult::Status::Unknown;
  if (collect.best) {
    result.schedule = *collect.best;
    result.cost = collect.bestCost;
    result.transfers = collect.bestTransfers;
    result.evaluation = collect.bestEvaluation;
    result.programTime = m.paging ? collect.bestProgramTime : collect.bestCost;
    // CBC's proof is about its own schedule: optimal only when that one
    // fits in the exact simulation and is the best schedule kept (a cheaper
    // warm start lies outside the program's form, where the proof says
    // nothing).
    bool ownOptimum = status == IlpResult::Status::Optimal &&
                      collect.finalFits &&
                      collect.finalCost <= result.programTime * (1 + 1e-9);
    status =
        ownOptimum ? IlpResult::Status::Optimal : IlpResult::Status::Feasible;
  } else if (status == IlpResult::Status::Optimal ||
             status == IlpResult::Status::Feasible) {
    status = IlpResult::Status::Unknown;
  }
  result.status = status;
  if (status == IlpResult::Status::Optimal)
    result.lowerBound = result.programTime;
  if (!result.schedule.empty() && result.lowerBound > result.programTime)
    result.lowerBound = result.programTime;
  if (!failure.empty() && result.schedule.empty())
    result.error = failure;
  else if (!failure.empty())
    result.warning = failure + "; the plan is the best schedule found before";
}

} // namespace

IlpResult ckpt::sched::solveIlp(const Problem &problem, int64_t budget,
                                const IlpOptions &options) {
  IlpResult result;
  const Clock::time_point t0 =
      options.started ? *options.started : Clock::now();
  auto finish = [&]() -> IlpResult & {
    result.seconds = secondsSince(t0);
    return result;
  };
  std::string why = problem.validate();
  if (!why.empty()) {
    result.error = why;
    return finish();
  }
  if (budget <= 0) {
    result.error = "the budget must be positive";
    return finish();
  }
  if (options.paging &&
      !(options.paging->toHost > 0 && options.paging->toDevice > 0 &&
        options.paging->latency >= 0)) {
    result.error = "paging needs a link with positive bandwidths";
    return finish();
  }
  if (problem.numOps() == 0) {
    result.status = IlpResult::Status::Optimal;
    return finish();
  }
  Model m = buildModel(problem, budget);
  if (options.paging)
    addPagingModel(m, problem, *options.paging);
  if (!fitsMemoryLimit(problem, m, options, result))
    return finish();
  Program p;
  buildProgram(m, p);

  Collect collect(problem, budget, m, p.colLo.size(), options.paging);
  Schedule startSchedule;
  std::vector<std::pair<int, double>> start;
  bool warmStarted = options.warmStart &&
                     programStart(problem, budget, m, p, *options.warmStart,
                                  startSchedule, start);
  if (options.warmStart) // it is an incumbent even if CBC cannot use it
    collect.found(*options.warmStart);
  // CBC stops itself at 90% of what is left of the limit (it finishes the
  // node or round of cuts it is in); the worker ends itself at 105%.
  double cbcSeconds = 0;
  bool noTimeLeft = false;
  if (options.timeLimit > 0) {
    double left = options.timeLimit - secondsSince(t0);
    cbcSeconds = 0.9 * left;
    noTimeLeft = cbcSeconds < 0.05;
  }
  std::string failure;
  if (noTimeLeft) {
    // The warm start and the program used the whole limit.
    collect.status = IlpResult::Status::Unknown;
  } else {
    if (warmStarted) // the first incumbent, as CBC would report it
      collect.found(startSchedule);
    ilp::Request request;
    request.cbcArgs = cbcArguments(options, cbcSeconds);
    if (warmStarted)
      request.start = std::move(start);
    if (options.timeLimit > 0)
      request.stopAfterSeconds = 1.05 * options.timeLimit - secondsSince(t0);
    request.memoryLimit = options.memoryLimit;
    request.log = options.log;
    request.program = std::move(p);
    if (!runWorker(options, request, collect, result, failure))
      return finish();
  }
  reportResult(problem, m, collect, warmStarted, failure, result);
  return finish();
}

#endif

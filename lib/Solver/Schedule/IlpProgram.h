//===- IlpProgram.h - the ILP as the CBC worker reads it --------*- C++ -*-===//
//
// The program of solveIlp (Ilp.cpp) in triplet form, and the two files it
// shares with the CBC worker (ckpt-ilp-worker, IlpWorker.cpp), which runs CBC
// in its own process so that the compiler never forks:
//
// - the request (binary, written by solveIlp): the program, CBC's
//   arguments, a start, and the worker's own limits (wall-clock seconds
//   until it stops itself, bytes of memory);
// - the report (text, written by the worker as CBC runs, one line each, so
//   that what was found before a stop stands):
//     S k c1 .. ck   an incumbent: the integer columns at 1
//     B v            a lower bound, in the objective's units
//     E s v n        the end: status (IlpResult::Status), bound, whether the
//                    node limit stopped CBC (0/1)
//     M              CBC ran out of the memory limit
//
// Private to lib/Solver/Schedule.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_SOLVER_SCHEDULE_ILPPROGRAM_H
#define CKPT_LIB_SOLVER_SCHEDULE_ILPPROGRAM_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ckpt {
namespace sched {
namespace ilp {

/// The program in triplet form. With `countOnly`, only its size is kept
/// (to estimate the memory CBC needs before anything large is built).
struct Program {
  std::vector<double> colLo, colHi, obj;
  std::vector<char> integer;
  std::vector<double> rowLo, rowHi;
  std::vector<int> rows, cols;
  std::vector<double> values;
  bool countOnly = false;
  int64_t numCols = 0, numRows = 0, numNonzeros = 0;

  int addCol(double lo, double hi, double cost, bool isInteger) {
    if (!countOnly) {
      colLo.push_back(lo);
      colHi.push_back(hi);
      obj.push_back(cost);
      integer.push_back(isInteger);
    }
    return static_cast<int>(numCols++);
  }
  int addRow(double lo, double hi) {
    if (!countOnly) {
      rowLo.push_back(lo);
      rowHi.push_back(hi);
    }
    return static_cast<int>(numRows++);
  }
  void add(int row, int col, double value) {
    ++numNonzeros;
    if (countOnly)
      return;
    rows.push_back(row);
    cols.push_back(col);
    values.push_back(value);
  }
  void fix(int col, double value) {
    if (!countOnly)
      colLo[col] = colHi[col] = value;
  }
};

/// The memory CBC needs for a program of this size before its search tree
/// grows, fitted to its measured peak resident memory after 20 s
/// (docs/PLANNING.md, "The exact ILP": 2.30 GiB measured for 2.65 GiB
/// estimated on the 1000-node random layered graph's 8.7 M nonzeros): per
/// nonzero, its copies in CBC's and Clp's matrices and factorization; per
/// column and row, bounds, solutions and branching objects. The tree grows
/// past it on long runs: the worker's address-space cap catches that.
int64_t estimatedCbcBytes(const Program &p);

/// What the worker is asked to do.
struct Request {
  Program program;
  /// CBC's command line after the program name (CbcMain1's arguments).
  std::vector<std::string> cbcArgs;
  /// Values of some integer columns to start from (column, value).
  std::vector<std::pair<int, double>> start;
  /// The worker stops itself this many wall-clock seconds after it starts,
  /// whatever CBC is doing (<= 0: never).
  double stopAfterSeconds = 0;
  /// Bytes the worker may map beyond what it maps at its start (0: no cap).
  int64_t memoryLimit = 0;
  bool log = false; ///< CBC's log on the worker's stdout
};

/// Writes `request` to `path`; false with `error` when it cannot.
bool writeRequest(const std::string &path, const Request &request,
                  std::string &error);
/// Reads a request written by writeRequest; false with `error` when the
/// file is not one.
bool readRequest(const std::string &path, Request &request, std::string &error);

/// The report's lines, as the worker writes them.
std::string incumbentLine(const Program &program, const double *solution);
std::string boundLine(double value);
std::string endLine(int status, double bound, bool stoppedByNodes);
inline const char *outOfMemoryLine() { return "M\n"; }

/// Receives a report's lines, in order.
class ReportHandler {
public:
  virtual ~ReportHandler() = default;
  /// The integer columns at 1 of an incumbent.
  virtual void incumbent(const std::vector<int> &ones) = 0;
  virtual void bound(double value) = 0;
  virtual void finished(int status, double bound, bool stoppedByNodes) = 0;
  virtual void outOfMemory() = 0;
};

/// Feeds the lines of the report at `path` to `handler` (a line cut short
/// by a stop is skipped); false when the file cannot be read.
bool readReport(const std::string &path, ReportHandler &handler);

} // namespace ilp
} // namespace sched
} // namespace ckpt

#endif // CKPT_LIB_SOLVER_SCHEDULE_ILPPROGRAM_H

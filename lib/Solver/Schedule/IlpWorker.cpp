//===- IlpWorker.cpp - CBC in a process of its own ------------------------===//
//
// ckpt-ilp-worker's body: reads a request (IlpProgram.h), runs CBC on it and
// writes what CBC finds to the report as it finds it. It stops itself at the
// request's wall-clock limit, whatever CBC is doing (CBC's own time limit
// does not cover the first LP, which can take far longer on large
// programs), and caps its address space at the request's memory limit.
// Debian's CBC aborts on failed assertions: in this process, that ends the
// worker, not the compiler.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/IlpWorker.h"
#include "IlpProgram.h"
#include "ckpt/Solver/Schedule/Ilp.h"

#include "CbcEventHandler.hpp"
#include "CbcModel.hpp"
#include "CbcSolver.hpp"
#include "CoinPackedMatrix.hpp"
#include "OsiClpSolverInterface.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <thread>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h>
#include <unistd.h>
#endif

using namespace ckpt::sched;
using namespace ckpt::sched::ilp;

namespace {

/// The report file, written line by line and flushed, so that a stop keeps
/// every line written before it.
class Report {
public:
  explicit Report(std::FILE *f) : f(f) {}
  void line(const std::string &text) {
    std::fputs(text.c_str(), f);
    std::fflush(f);
  }

private:
  std::FILE *f;
};

/// Writes CBC's new incumbents and bounds to the report.
class Events : public CbcEventHandler {
public:
  Events(const Program &p, Report &report) : p(p), report(report) {}
  CbcAction event(CbcEvent which) override {
    if (!model_ || model_->parentModel())
      return noAction; // a sub-tree of a heuristic
    if (which == solution || which == heuristicSolution) {
      if (const double *best = model_->bestSolution())
        report.line(incumbentLine(p, best));
    }
    // Any event: the bound may have moved (root cuts, nodes).
    double value = model_->getBestPossibleObjValue();
    if (value > lastBound) {
      lastBound = value;
      report.line(boundLine(value));
    }
    return noAction;
  }
  CbcEventHandler *clone() const override { return new Events(*this); }

private:
  const Program &p;
  Report &report;
  double lastBound = -1e300;
};

/// Loads the program into Clp (and frees the request's copy of it).
void loadProgram(Request &request, OsiClpSolverInterface &solver) {
  Program &p = request.program;
  CoinPackedMatrix matrix(false, p.rows.data(), p.cols.data(), p.values.data(),
                          static_cast<CoinBigIndex>(p.values.size()));
  matrix.setDimensions(static_cast<int>(p.rowLo.size()),
                       static_cast<int>(p.colLo.size()));
  solver.loadProblem(matrix, p.colLo.data(), p.colHi.data(), p.obj.data(),
                     p.rowLo.data(), p.rowHi.data());
  for (size_t c = 0; c < p.colLo.size(); ++c)
    if (p.integer[c])
      solver.setInteger(static_cast<int>(c));
  std::vector<int>().swap(p.rows);
  std::vector<int>().swap(p.cols);
  std::vector<double>().swap(p.values);
  solver.messageHandler()->setLogLevel(0);
}

/// Runs CBC on the request, reporting as it goes.
void runCbc(Request &request, Report &report) {
  OsiClpSolverInterface solver;
  solver.setIntParam(OsiNameDiscipline, 2);
  loadProgram(request, solver);
  std::vector<std::pair<std::string, double>> start;
  if (!request.start.empty()) {
    // CBC takes a start by column names.
    for (int c = 0; c < solver.getNumCols(); ++c)
      solver.setColName(c, "c" + std::to_string(c));
    for (auto [col, value] : request.start)
      start.push_back({"c" + std::to_string(col), value});
  }

  CbcModel model(solver);
  CbcMain0(model);
  model.setLogLevel(request.log ? 1 : 0);
  model.messageHandler()->setLogLevel(request.log ? 1 : 0);
  Events events(request.program, report);
  model.passInEventHandler(&events);
  if (!start.empty())
    model.setMIPStart(start);

  std::vector<const char *> argv = {"ckpt-ilp-worker"};
  for (const std::string &arg : request.cbcArgs)
    argv.push_back(arg.c_str());
  CbcMain1(static_cast<int>(argv.size()), argv.data(), model);

  const double *best = model.bestSolution();
  if (best)
    report.line(incumbentLine(request.program, best));
  IlpResult::Status status = IlpResult::Status::Unknown;
  if (model.isProvenOptimal() && best)
    status = IlpResult::Status::Optimal;
  else if (model.isProvenInfeasible() && !best)
    status = IlpResult::Status::Infeasible;
  else if (best)
    status = IlpResult::Status::Feasible;
  report.line(endLine(static_cast<int>(status), model.getBestPossibleObjValue(),
                      model.isNodeLimitReached()));
}

/// Caps this process's address space at what it maps now plus `bytes`.
void capMemory(int64_t bytes) {
#if defined(__unix__) || defined(__APPLE__)
  long pages = 0;
  std::ifstream statm("/proc/self/statm");
  statm >> pages;
  rlim_t cap = static_cast<rlim_t>(pages) *
                   static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) +
               static_cast<rlim_t>(bytes);
  struct rlimit limit = {cap, cap};
  ::setrlimit(RLIMIT_AS, &limit);
#else
  (void)bytes;
#endif
}

/// Ends the process `seconds` from now, whatever CBC is doing then.
void stopAfter(double seconds) {
  std::thread([seconds] {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    std::fflush(nullptr);
    std::_Exit(kIlpWorkerStoppedExitCode);
  }).detach();
}

/// What a request asks, for people and tests (--describe).
void describe(const Request &request) {
  const Program &p = request.program;
  int64_t integers = 0;
  for (char isInteger : p.integer)
    integers += isInteger != 0;
  std::printf(
      "program: %lld columns (%lld integer), %lld rows, %lld "
      "nonzeros\n",
      static_cast<long long>(p.numCols), static_cast<long long>(integers),
      static_cast<long long>(p.numRows), static_cast<long long>(p.numNonzeros));
  std::printf("start: %zu columns\n", request.start.size());
  std::printf("cbc arguments:");
  for (const std::string &arg : request.cbcArgs)
    std::printf(" %s", arg.c_str());
  std::printf("\n");
  if (request.stopAfterSeconds > 0)
    std::printf("stops itself after: %.3f s\n", request.stopAfterSeconds);
  else
    std::printf("stops itself after: never\n");
  std::printf("memory limit: %lld B\n",
              static_cast<long long>(request.memoryLimit));
  std::printf("log: %s\n", request.log ? "on" : "off");
}

const char *kUsage = "usage: ckpt-ilp-worker REQUEST REPORT\n"
                     "       ckpt-ilp-worker --describe REQUEST\n";

} // namespace

int ckpt::sched::ilpWorkerMain(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--help") == 0) {
    std::printf("%s\nRuns CBC on an ILP request written by ckpt's "
                "strategy=ilp and writes what\nit finds to REPORT as it "
                "finds it; --describe prints what REQUEST asks.\n",
                kUsage);
    return 0;
  }
  bool describeOnly = argc == 3 && std::strcmp(argv[1], "--describe") == 0;
  if (argc != 3) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  Request request;
  std::string error;
  if (!readRequest(argv[describeOnly ? 2 : 1], request, error)) {
    std::fprintf(stderr, "ckpt-ilp-worker: error: %s\n", error.c_str());
    return 2;
  }
  if (describeOnly) {
    describe(request);
    return 0;
  }
  std::FILE *out = std::fopen(argv[2], "w");
  if (!out) {
    std::fprintf(stderr, "ckpt-ilp-worker: error: cannot write %s\n", argv[2]);
    return 2;
  }
  if (request.stopAfterSeconds > 0)
    stopAfter(request.stopAfterSeconds);
  if (request.memoryLimit > 0)
    capMemory(request.memoryLimit);
  Report report(out);
  try {
    runCbc(request, report);
  } catch (const std::bad_alloc &) {
    report.line(outOfMemoryLine());
  }
  std::fclose(out);
  return 0;
}

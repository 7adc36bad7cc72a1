//===- IlpWorker.h - CBC in a process of its own ----------------*- C++ -*-===//
//
// strategy=ilp runs CBC in a separate program, ckpt-ilp-worker, started with
// llvm::sys::ExecuteAndWait: the compiler, which may be multithreaded, never
// forks, a failed assertion in CBC ends the worker rather than the compiler,
// and the worker's memory and time are capped by the worker itself
// (lib/Solver/Schedule/IlpProgram.h describes the files they share).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_ILPWORKER_H
#define CKPT_SOLVER_SCHEDULE_ILPWORKER_H

#include <string>

namespace ckpt {
namespace sched {

/// The worker's exit code when it stopped itself at the request's
/// wall-clock limit.
constexpr int kIlpWorkerStoppedExitCode = 124;

/// The worker program that solveIlp starts: the environment's
/// CKPT_ILP_WORKER, else ckpt-ilp-worker beside the running program, else
/// the one this build made; empty, with `error`, when there is none.
std::string findIlpWorker(std::string &error);

/// ckpt-ilp-worker's main: `ckpt-ilp-worker REQUEST REPORT`. 0 when CBC ran
/// (the report says what it found), 2 for bad arguments or a bad request.
int ilpWorkerMain(int argc, char **argv);

} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_ILPWORKER_H

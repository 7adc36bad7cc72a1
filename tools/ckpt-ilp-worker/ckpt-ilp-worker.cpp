//===- ckpt-ilp-worker.cpp - CBC in a process of its own ------------------===//
//
// The program strategy=ilp starts to run CBC
// (ckpt/Solver/Schedule/IlpWorker.h).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/IlpWorker.h"

int main(int argc, char **argv) {
  return ckpt::sched::ilpWorkerMain(argc, argv);
}

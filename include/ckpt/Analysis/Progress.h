//===- Progress.h - one updating progress line on stderr --------*- C++ -*-===//
//
// Work that may take seconds (planning a large step, the ILP) shows one
// line on stderr that a background thread rewrites in place
// ("\rckpt-plan: @step: searching the least feasible budget, 3.2 s"), with a
// percentage where the work has a known end (the ILP's time limit). Nothing is
// drawn unless stderr is a terminal, before the work has run for a second, or
// once setProgressQuiet(true) was called (ckpt-opt --quiet); the line is erased
// when the work ends, before any diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_ANALYSIS_PROGRESS_H
#define CKPT_ANALYSIS_PROGRESS_H

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace ckpt {

/// Silences every progress line of the process (ckpt-opt --quiet).
void setProgressQuiet(bool quiet);

class ProgressLine {
public:
  /// A line labelled `label` ("ckpt-plan: @resnet_step"), drawn only when
  /// stderr is a terminal and progress is not quiet.
  explicit ProgressLine(std::string label);
  ~ProgressLine();
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;

  /// The work now under way; `limitSeconds` > 0 when it ends by then (the
  /// line then shows the percentage of that time spent).
  void phase(std::string what, double limitSeconds = 0);

private:
  void loop();
  void draw(std::unique_lock<std::mutex> &lock);

  using Clock = std::chrono::steady_clock;
  std::string label;
  std::string what;
  double limit = 0;
  Clock::time_point start;
  Clock::time_point phaseStart;
  size_t drawn = 0; ///< Width of the line on the terminal (0: nothing).
  bool done = false;
  std::mutex mutex;
  std::condition_variable wake;
  std::thread thread;
};

} // namespace ckpt

#endif // CKPT_ANALYSIS_PROGRESS_H

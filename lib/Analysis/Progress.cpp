//===- Progress.cpp - one updating progress line on stderr ----------------===//

#include "ckpt/Analysis/Progress.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace ckpt;

namespace {
std::atomic<bool> quietProgress{false};

/// Nothing is drawn before the work has run this long.
constexpr std::chrono::milliseconds kDelay(1000);
/// How often the line is redrawn.
constexpr std::chrono::milliseconds kTick(200);
} // namespace

void ckpt::setProgressQuiet(bool quiet) { quietProgress = quiet; }

ProgressLine::ProgressLine(std::string label)
    : label(std::move(label)), start(Clock::now()), phaseStart(start) {
  if (quietProgress || !llvm::sys::Process::StandardErrIsDisplayed())
    return;
  thread = std::thread([this] { loop(); });
}

ProgressLine::~ProgressLine() {
  if (!thread.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
  }
  wake.notify_all();
  thread.join();
  if (drawn) {
    llvm::errs() << '\r' << std::string(drawn, ' ') << '\r';
    llvm::errs().flush();
  }
}

void ProgressLine::phase(std::string now, double limitSeconds) {
  std::lock_guard<std::mutex> lock(mutex);
  what = std::move(now);
  limit = limitSeconds;
  phaseStart = Clock::now();
}

void ProgressLine::loop() {
  std::unique_lock<std::mutex> lock(mutex);
  if (wake.wait_until(lock, start + kDelay, [this] { return done; }))
    return;
  while (!done) {
    draw(lock);
    wake.wait_for(lock, kTick, [this] { return done; });
  }
}

void ProgressLine::draw(std::unique_lock<std::mutex> &) {
  using Seconds = std::chrono::duration<double>;
  Clock::time_point now = Clock::now();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << label << ": " << what << ", "
     << llvm::format("%.1f s", Seconds(now - start).count());
  if (limit > 0) {
    double spent = Seconds(now - phaseStart).count();
    double percent = std::min(100.0, 100.0 * spent / limit);
    os << llvm::format(" (%.0f%% of the %.0f s limit)", percent, limit);
  }
  size_t width = text.size();
  if (width < drawn)
    text.append(drawn - width, ' ');
  llvm::errs() << '\r' << text;
  llvm::errs().flush();
  drawn = std::max(drawn, width);
}

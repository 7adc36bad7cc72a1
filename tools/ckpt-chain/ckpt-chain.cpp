//===- ckpt-chain.cpp - Checkpointing schedules for a chain ---------------===//
//
// Reads a chain (JSON, see ChainJson.h), runs a strategy under a memory
// budget and prints the result as JSON, or a makespan/memory sweep as CSV
// or JSON lines. Errors: a message on stderr and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Chain/ChainJson.h"
#include "ckpt/Solver/Chain/ChainStrategies.h"
#include "ckpt/Solver/Support/JsonReader.h"
#include "ckpt/Solver/Support/JsonWriter.h"

#include <charconv>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

using namespace ckpt;
using namespace ckpt::solver;

namespace {

const char *kUsage =
    "usage: ckpt-chain FILE.json [options]\n"
    "\n"
    "Computes a checkpointing schedule for a heterogeneous chain (Beaumont et\n"
    "al. 2019). FILE.json ('-' for stdin) holds {\"memory\": M, \"slots\": S,\n"
    "\"wa\": [L+2], \"wdelta\": [L+2], \"uf\": [L+1], \"ub\": [L+1], \"of\": "
    "[L+1],\n"
    "\"ob\": [L+1], \"wabar\": [L+1]}; without slots sizes are exact "
    "integers.\n"
    "\n"
    "options:\n"
    "  --strategy=NAME  strategy (default: optimal), one of:\n"
    "%s"
    "  --memory=M       memory budget, overrides the file's \"memory\"\n"
    "  --slots=S        discretise memory into S slots of M/S (rounding sizes\n"
    "                   up), overrides the file's \"slots\"; 0 = exact sizes\n"
    "  --sweep=N        print the makespan for N budgets from the least\n"
    "                   feasible one to the store-all peak, instead of one\n"
    "                   schedule\n"
    "  --format=F       sweep output: csv (default) or jsonl\n"
    "  --threads=N      DP worker threads (default: all cores)\n"
    "  --help           print this help\n"
    "\n"
    "Output: JSON {\"strategy\", \"feasible\", \"memory\", \"makespan\", "
    "\"peak\",\n"
    "\"min_feasible_memory\", \"sequence\"} (plus \"slots\", \"peak_slots\" in "
    "slot mode);\n"
    "for an infeasible budget feasible is false and makespan/peak are null.\n";

int fail(const std::string &msg) {
  std::fprintf(stderr, "ckpt-chain: error: %s\n", msg.c_str());
  return 1;
}

bool parseInt(std::string_view text, int64_t &out) {
  if (text.empty() || text[0] == '+')
    return false;
  auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

} // namespace

int main(int argc, char **argv) {
  std::string file;
  bool haveFile = false;
  std::string strategyText = "optimal";
  std::optional<int64_t> memory, slots;
  int64_t sweepCount = 0, threads = 0;
  std::string format = "csv";

  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf(kUsage, strategyHelp().c_str());
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-' && arg != "-") {
      size_t eq = arg.find('=');
      std::string_view name = arg.substr(0, eq);
      if (eq == std::string_view::npos) {
        if (name == "--strategy" || name == "--memory" || name == "--slots" ||
            name == "--sweep" || name == "--format" || name == "--threads")
          return fail("option '" + std::string(name) +
                      "' needs a value: " + std::string(name) + "=VALUE");
        return fail("unknown option '" + std::string(arg) + "' (see --help)");
      }
      std::string_view value = arg.substr(eq + 1);
      int64_t n = 0;
      if (name == "--strategy") {
        strategyText = std::string(value);
      } else if (name == "--format") {
        if (value != "csv" && value != "jsonl")
          return fail("invalid --format '" + std::string(value) +
                      "' (expected csv or jsonl)");
        format = std::string(value);
      } else if (name == "--memory" || name == "--slots" || name == "--sweep" ||
                 name == "--threads") {
        bool allowZero = name == "--slots" || name == "--threads";
        if (!parseInt(value, n) || n < 0 || (n == 0 && !allowZero))
          return fail("invalid value '" + std::string(value) + "' for " +
                      std::string(name) + ": expected a " +
                      (allowZero ? "non-negative" : "positive") + " integer");
        if (name == "--memory")
          memory = n;
        else if (name == "--slots")
          slots = n;
        else if (name == "--sweep")
          sweepCount = n;
        else
          threads = n;
      } else {
        return fail("unknown option '" + std::string(arg) + "' (see --help)");
      }
      continue;
    }
    if (haveFile)
      return fail("more than one input file given ('" + file + "' and '" +
                  std::string(arg) + "')");
    file = std::string(arg);
    haveFile = true;
  }
  if (!haveFile)
    return fail("no input file (usage: ckpt-chain FILE.json [options], see "
                "--help)");

  Strategy strategy;
  std::string error;
  if (!parseStrategy(strategyText, strategy, error))
    return fail(error);

  ChainInput input;
  if (file == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)),
                     std::istreambuf_iterator<char>());
    if (!parseChain(text, input, error))
      return fail(withSource("<stdin>", error));
  } else if (!readChainFile(file, input, error)) {
    return fail(error);
  }
  if (memory)
    input.memory = memory;
  if (slots)
    input.slots = *slots == 0 ? std::nullopt : slots;
  const int64_t S = input.slots.value_or(0);

  if (sweepCount > 0) {
    if (sweepCount > 100000)
      return fail("--sweep=N: N must be at most 100000");
    std::vector<SweepPoint> points;
    if (!sweep(input.chain, strategy, S, static_cast<int>(sweepCount), points,
               error, static_cast<unsigned>(threads)))
      return fail(error);
    if (format == "csv")
      std::printf("memory,feasible,makespan,peak\n");
    for (const SweepPoint &p : points) {
      const StrategyResult &r = p.result;
      if (format == "csv") {
        std::printf("%lld,%s,%s,%lld\n", static_cast<long long>(p.memory),
                    r.feasible ? "true" : "false",
                    formatNumber(r.makespan).c_str(),
                    static_cast<long long>(r.peak));
      } else {
        std::string line = writeJson(0, [&](JsonWriter &json) {
          json.object([&] {
            json.attribute("memory", p.memory);
            json.attribute("feasible", r.feasible);
            json.attribute("makespan", r.makespan);
            json.attribute("peak", r.peak);
          });
        });
        std::printf("%s\n", line.c_str());
      }
    }
    return 0;
  }

  if (!input.memory)
    return fail("missing field 'memory' in " + file + " (or pass --memory=M)");
  SolveOptions opts;
  opts.threads = static_cast<unsigned>(threads);
  StrategyResult r =
      runStrategy(input.chain, strategy, MemoryModel{*input.memory, S}, opts);
  if (!r.error.empty())
    return fail(r.error);
  std::printf("%s\n", resultToJson(r, 2).c_str());
  return 0;
}

//===- IlpProgram.cpp - the ILP as the CBC worker reads it ----------------===//

#include "IlpProgram.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

using namespace ckpt::sched::ilp;

int64_t ckpt::sched::ilp::estimatedCbcBytes(const Program &p) {
  return 64 * 1024 * 1024 + p.numNonzeros * 256 + p.numCols * 256 +
         p.numRows * 128;
}

//===----------------------------------------------------------------------===//
// The request: a binary file (the worker runs on the same machine)
//===----------------------------------------------------------------------===//

namespace {

constexpr char kMagic[8] = {'C', 'K', 'P', 'T', 'I', 'L', 'P', '1'};

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

/// Writes plain values and arrays; `ok` turns false at the first failure.
struct Writer {
  std::FILE *f;
  bool ok = true;
  void bytes(const void *data, size_t size) {
    if (ok && size && std::fwrite(data, 1, size, f) != size)
      ok = false;
  }
  template <typename T> void value(T v) { bytes(&v, sizeof(T)); }
  template <typename T> void array(const std::vector<T> &v) {
    value<uint64_t>(v.size());
    bytes(v.data(), v.size() * sizeof(T));
  }
};

/// Reads what Writer wrote; `ok` turns false at the first short read or an
/// array longer than the file could hold.
struct Reader {
  std::FILE *f;
  bool ok = true;
  void bytes(void *data, size_t size) {
    if (ok && size && std::fread(data, 1, size, f) != size)
      ok = false;
  }
  template <typename T> T value() {
    T v{};
    bytes(&v, sizeof(T));
    return v;
  }
  template <typename T> void array(std::vector<T> &v) {
    uint64_t n = value<uint64_t>();
    if (!ok || n > (uint64_t(1) << 40) / sizeof(T)) {
      ok = false;
      return;
    }
    v.resize(n);
    bytes(v.data(), n * sizeof(T));
  }
};

/// Calls `f` on each array of the program `p`, in the request's order.
template <typename P, typename F> void programArrays(P &p, F &&f) {
  f(p.colLo);
  f(p.colHi);
  f(p.obj);
  f(p.integer);
  f(p.rowLo);
  f(p.rowHi);
  f(p.rows);
  f(p.cols);
  f(p.values);
}

} // namespace

bool ckpt::sched::ilp::writeRequest(const std::string &path,
                                    const Request &request,
                                    std::string &error) {
  File f(std::fopen(path.c_str(), "wb"));
  if (!f) {
    error = "cannot write the ILP request " + path;
    return false;
  }
  Writer w{f.get()};
  const Program &p = request.program;
  w.bytes(kMagic, sizeof(kMagic));
  w.value(request.stopAfterSeconds);
  w.value(request.memoryLimit);
  w.value<uint8_t>(request.log);
  w.value<uint64_t>(request.cbcArgs.size());
  for (const std::string &arg : request.cbcArgs) {
    w.value<uint64_t>(arg.size());
    w.bytes(arg.data(), arg.size());
  }
  programArrays(p, [&](const auto &array) { w.array(array); });
  std::vector<int> startCols;
  std::vector<double> startValues;
  for (auto [col, value] : request.start) {
    startCols.push_back(col);
    startValues.push_back(value);
  }
  w.array(startCols);
  w.array(startValues);
  if (!w.ok || std::fflush(f.get()) != 0) {
    error = "cannot write the ILP request " + path;
    return false;
  }
  return true;
}

namespace {

/// Whether the arrays of `p` agree in length and its triplets name its rows
/// and columns.
bool consistent(const Program &p) {
  size_t cols = p.colLo.size(), rows = p.rowLo.size();
  if (p.colHi.size() != cols || p.obj.size() != cols ||
      p.integer.size() != cols || p.rowHi.size() != rows ||
      p.rows.size() != p.values.size() || p.cols.size() != p.values.size())
    return false;
  for (size_t k = 0; k < p.values.size(); ++k)
    if (p.rows[k] < 0 || static_cast<size_t>(p.rows[k]) >= rows ||
        p.cols[k] < 0 || static_cast<size_t>(p.cols[k]) >= cols)
      return false;
  return true;
}

} // namespace

bool ckpt::sched::ilp::readRequest(const std::string &path, Request &request,
                                   std::string &error) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) {
    error = "cannot read the ILP request " + path;
    return false;
  }
  Reader r{f.get()};
  char magic[sizeof(kMagic)] = {};
  r.bytes(magic, sizeof(magic));
  if (!r.ok || !std::equal(magic, magic + sizeof(magic), kMagic)) {
    error = path + " is not an ILP request of this version of ckpt";
    return false;
  }
  request.stopAfterSeconds = r.value<double>();
  request.memoryLimit = r.value<int64_t>();
  request.log = r.value<uint8_t>() != 0;
  uint64_t numArgs = r.value<uint64_t>();
  for (uint64_t i = 0; r.ok && i < numArgs && i < 4096; ++i) {
    uint64_t size = r.value<uint64_t>();
    if (size > 4096) {
      r.ok = false;
      break;
    }
    std::string arg(size, '\0');
    r.bytes(arg.data(), size);
    request.cbcArgs.push_back(std::move(arg));
  }
  Program &p = request.program;
  programArrays(p, [&](auto &array) { r.array(array); });
  std::vector<int> startCols;
  std::vector<double> startValues;
  r.array(startCols);
  r.array(startValues);
  p.numCols = static_cast<int64_t>(p.colLo.size());
  p.numRows = static_cast<int64_t>(p.rowLo.size());
  p.numNonzeros = static_cast<int64_t>(p.values.size());
  bool startFits = startCols.size() == startValues.size();
  for (int col : startCols)
    startFits = startFits && col >= 0 && col < p.numCols;
  if (!r.ok || numArgs != request.cbcArgs.size() || !consistent(p) ||
      !startFits) {
    error = path + " is cut short or damaged";
    return false;
  }
  for (size_t i = 0; i < startCols.size(); ++i)
    request.start.push_back({startCols[i], startValues[i]});
  return true;
}

//===----------------------------------------------------------------------===//
// The report: text lines
//===----------------------------------------------------------------------===//

std::string ckpt::sched::ilp::incumbentLine(const Program &program,
                                            const double *solution) {
  std::vector<int> ones;
  for (size_t c = 0; c < program.integer.size(); ++c)
    if (program.integer[c] && solution[c] > 0.5)
      ones.push_back(static_cast<int>(c));
  std::string text = "S " + std::to_string(ones.size());
  for (int c : ones)
    text += " " + std::to_string(c);
  return text + "\n";
}

std::string ckpt::sched::ilp::boundLine(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "B %.17g\n", value);
  return buffer;
}

std::string ckpt::sched::ilp::endLine(int status, double bound,
                                      bool stoppedByNodes) {
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "E %d %.17g %d\n", status, bound,
                stoppedByNodes ? 1 : 0);
  return buffer;
}

bool ckpt::sched::ilp::readReport(const std::string &path,
                                  ReportHandler &handler) {
  std::ifstream file(path);
  if (!file)
    return false;
  std::string text;
  while (std::getline(file, text)) {
    if (file.eof())
      break; // no newline: the worker stopped while writing it
    std::istringstream in(text);
    char kind = 0;
    in >> kind;
    if (kind == 'S') {
      size_t n = 0;
      in >> n;
      std::vector<int> ones(n);
      for (size_t i = 0; i < n && in; ++i)
        in >> ones[i];
      if (in)
        handler.incumbent(ones);
    } else if (kind == 'B') {
      double value;
      if (in >> value)
        handler.bound(value);
    } else if (kind == 'E') {
      int status, nodes = 0;
      double value;
      if (in >> status >> value >> nodes)
        handler.finished(status, value, nodes != 0);
    } else if (kind == 'M') {
      handler.outOfMemory();
    }
  }
  return true;
}

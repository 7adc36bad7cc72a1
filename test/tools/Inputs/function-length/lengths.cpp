// Two functions: five lines and six lines from signature to closing brace.
int five(int x) {
  int y = x + 1;
  y *= 2;
  return y;
}

namespace {
struct S {
  int six(int x) const {
    int y = x;
    y += 1;
    y *= 3;
    return y;
  }
};
} // namespace

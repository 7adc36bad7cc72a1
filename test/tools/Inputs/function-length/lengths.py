# Two functions: `outer` is six lines (def to last line) and holds `inner`,
# three lines.
@staticmethod
def outer(x):
    def inner(y):
        z = y + 1
        return z
    w = inner(x)
    return w

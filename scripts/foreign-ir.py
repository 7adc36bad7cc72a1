#!.venv/bin/python
"""Runs the ckpt passes over .mlir files we did not write.

For every .mlir file under the given paths, splits it on `// -----` lines (as
-split-input-file does) and, for each chunk, runs ckpt-opt (timeout each):

  (a) baseline  ckpt-opt --allow-unregistered-dialect CHUNK
  (b) plan      ... --ckpt-wrap-step --ckpt-plan=budget=B --ckpt-rematerialize
                    --ckpt-insert-frees
  (c) lower     (b) plus --ckpt-lower-to-cpu

(b) and (c) run only when (a) succeeds. A chunk with a top-level func.func
whose result 0 is a float, a 0-d float tensor or a one-element float tensor
gets (when it holds no step already) a second, "loss" variant: (a)'s output with `ckpt.loss = 0 : i64` added
to the first such function (--loss-all: one variant for each such function),
run through (a), (b) and (c) again, which pushes foreign IR through the
planner.

Classes:
  does not parse  (a) exits 1: upstream negative tests, unknown dialects
  unchanged       (b) output identical to (a): no step, nothing touched
  planned         (b) succeeded on a chunk with a step, and every top-level
                  op other than the step prints as in (a); "planned (retry)"
                  when the budget was infeasible and (b), (c) ran again under
                  --retry-budget (100%) so that the rewrites still run
  CHANGED         (b) changed the output of a chunk without a step, or an op
                  outside the step: a silent change, always a bug
  lowered         (c) succeeded
  diagnostic      exit 1 with a located `FILE:LINE:COL: error:` message
  UNLOCATED       exit 1 without one
  CRASH           a signal, 'Stack dump', 'LLVM ERROR', 'Assertion',
                  'UNREACHABLE', an exit code other than 0/1, or the timeout

Prints a summary table (per source directory and in all), the distinct
diagnostics of (b), and every CHANGED/UNLOCATED/CRASH case with a reproducer
command. --keep DIR copies the chunks of those cases there. Exits 1 when any
CRASH or CHANGED was found. Standard library only.

  scripts/foreign-ir.py [--ckpt-opt BIN] [--keep DIR] [-j N] PATH...
"""

import argparse
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPLIT_RE = re.compile(r"^// -----", re.M)
LOCATED_RE = re.compile(r"^[^\s:][^:\n]*:\d+:\d+: error: ", re.M)
CRASH_MARKERS = ("Stack dump", "LLVM ERROR", "Assertion", "UNREACHABLE",
                 "AddressSanitizer", "UndefinedBehaviorSanitizer",
                 "runtime error:")
FLOAT_RE = r"(?:f16|bf16|f32|f64|f80|f128|tf32|f8E\w+|f6E\w+|f4E\w+)"
LOSS_TYPE_RE = re.compile(r"^(?:%s|tensor<(?:1x)*%s>)$" % (FLOAT_RE, FLOAT_RE))
# Local scope: no attribute/type aliases, so that an op's text does not
# depend on what else is in the module.
PRINT = ["--allow-unregistered-dialect", "--mlir-print-local-scope"]

BAD = ("CRASH", "CHANGED", "UNLOCATED")


def split_chunks(text):
    """Chunks as -split-input-file makes them."""
    return SPLIT_RE.split(text) if SPLIT_RE.search(text) else [text]


def run(cmd, timeout):
    """(kind, rc, stdout, stderr): kind is ok, error or crash."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return "crash", "timeout", "", "timeout after %ss" % timeout
    rc, err = p.returncode, p.stderr
    if rc not in (0, 1) or any(m in err for m in CRASH_MARKERS):
        return "crash", rc, p.stdout, err
    return ("ok" if rc == 0 else "error"), rc, p.stdout, err


def error_class(kind, err):
    if kind == "crash":
        return "CRASH"
    return "diagnostic" if LOCATED_RE.search(err) else "UNLOCATED"


def first_error(err):
    m = LOCATED_RE.search(err)
    line = err[m.start():].split("\n", 1)[0] if m else err.strip()[:200]
    # Drop the location and SSA names/numbers so equal messages group.
    line = LOCATED_RE.sub("", line)
    line = re.sub(r"%[\w#]+", "%v", line)
    line = re.sub(r"( of )'[^']+'", r"\1'F'", line)
    return re.sub(r"\d+", "N", line)[:160]


def top_level_ops(text):
    """{key: text} of the ops in the printed top-level module body, keyed by
    symbol name where there is one (printed form: two-space indent)."""
    ops, cur = {}, None
    lines = text.split("\n")
    for ln in lines:
        if re.match(r"^  \S", ln) and not ln.startswith("  }"):
            cur = [ln]
            m = re.match(r"^  [\w.]+(?: (?:private|public|nested))? @([\w$.\"-]+)",
                         ln)
            key = m.group(1) if m else "#%d:%s" % (len(ops), ln[:60])
            ops[key] = cur
        elif cur is not None and ln.startswith("   "):
            cur.append(ln)
        elif cur is not None and ln.startswith("  }"):
            cur.append(ln)
    return {k: "\n".join(v) for k, v in ops.items()}


def has_step(text):
    return "ckpt.step" in text or "ckpt.loss" in text


def _match_paren(s, i):
    """Index after the parenthesis group opening at s[i]."""
    depth = 0
    in_str = False
    while i < len(s):
        c = s[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _first_result(rest):
    """Type of result 0 in the text after a function's argument list."""
    rest = rest.strip()
    if not rest.startswith("->"):
        return None
    rest = rest[2:].strip()
    if rest.startswith("("):
        end = _match_paren(rest, 0)
        body = rest[1:end - 1].replace("->", "~~")
        depth, out = 0, ""
        for c in body:
            if c in "(<[{":
                depth += 1
            elif c in ")>]}":
                depth -= 1
            elif c == "," and depth == 0:
                break
            out += c
        return re.sub(r"\s*\{.*$", "", out.strip())
    m = re.match(r"(\S+)", rest)
    return m.group(1) if m else None


def add_loss(printed, nth=0):
    """(a)'s output with ckpt.loss = 0 on the nth (0: first) top-level
    function with a float-like result 0 and a body, and the function's name;
    (None, None) when there is no such function."""
    lines = printed.split("\n")
    seen = 0
    for n, ln in enumerate(lines):
        m = re.match(r"^  func\.func (?:(?:public|private|nested) )?@([\w$.\"-]+)\(",
                     ln)
        if not m or not ln.endswith(" {"):
            continue
        end = _match_paren(ln, m.end() - 1)
        if end < 0:
            continue
        rest = ln[end:-2]
        attrs = rest.find(" attributes {")
        res = _first_result(rest[:attrs] if attrs >= 0 else rest)
        if not res or not LOSS_TYPE_RE.match(res):
            continue
        seen += 1
        if seen <= nth:
            continue
        if attrs >= 0:
            k = end + attrs + len(" attributes {")
            lines[n] = ln[:k] + "ckpt.loss = 0 : i64, " + ln[k:]
        else:
            lines[n] = ln[:-2] + " attributes {ckpt.loss = 0 : i64} {"
        return "\n".join(lines), m.group(1)
    return None, None


class Runner:
    def __init__(self, args):
        self.opt = args.ckpt_opt
        self.timeout = args.timeout
        self.plan = ["--ckpt-wrap-step", "--ckpt-plan=budget=" + args.budget,
                     "--ckpt-rematerialize", "--ckpt-insert-frees"]
        self.lower = self.plan + ["--ckpt-lower-to-cpu"]
        self.loss_max = 1000 if args.loss_all else 1
        self.retry = args.retry_budget
        self.retry_plan = [a if not a.startswith("--ckpt-plan=") else
                           "--ckpt-plan=budget=" + args.retry_budget
                           for a in self.plan]
        self.retry_lower = self.retry_plan + ["--ckpt-lower-to-cpu"]
        self.tmp = tempfile.mkdtemp(prefix="foreign-ir-")

    def cmd(self, path, extra):
        return [self.opt] + PRINT + [path] + extra

    def variant(self, path, step_name):
        """Runs (a), (b), (c) on one file. Returns a list of
        (stage, class, message, command)."""
        out = []
        kind, rc, base, err = run(self.cmd(path, []), self.timeout)
        if kind != "ok":
            cls = "CRASH" if kind == "crash" else "does not parse"
            out.append(("parse", cls, first_error(err), self.cmd(path, [])))
            return out, None
        out.append(("parse", "parses", "", self.cmd(path, [])))
        plan, lower, retry = self.plan, self.lower, ""
        kind, rc, planned, err = run(self.cmd(path, plan), self.timeout)
        if kind == "error" and "is infeasible" in err and self.retry:
            # The budget is below the least feasible one: plan again under
            # the retry budget so that the rewrite passes still run.
            plan, lower, retry = self.retry_plan, self.retry_lower, " (retry)"
            kind, rc, planned, err = run(self.cmd(path, plan), self.timeout)
        c = self.cmd(path, plan)
        if kind != "ok":
            out.append(("plan", error_class(kind, err), first_error(err), c))
        elif planned == base:
            out.append(("plan", "unchanged", "", c))
        elif not has_step(base):
            out.append(("plan", "CHANGED", "output changed without a step", c))
        else:
            before, after = top_level_ops(base), top_level_ops(planned)
            steps = {k for k, v in before.items()
                     if re.match(r"^  ckpt\.step ", v)
                     or "ckpt.loss" in v.split("\n", 1)[0]}
            diff = [k for k in set(before) | set(after)
                    if k not in steps and before.get(k) != after.get(k)]
            if diff:
                out.append(("plan", "CHANGED",
                            "ops outside the step changed: " +
                            ", ".join(sorted(diff)[:5]), c))
            else:
                out.append(("plan", "planned" + retry, "", c))
        kind, rc, _, err = run(self.cmd(path, lower), self.timeout)
        c = self.cmd(path, lower)
        if kind != "ok":
            out.append(("lower", error_class(kind, err), first_error(err), c))
        else:
            out.append(("lower", "lowered" + retry, "", c))
        return out, base

    def chunk(self, job):
        """All results of one chunk: list of (variant, stage, class, msg,
        cmd, chunk path)."""
        src, idx, text = job
        name = re.sub(r"[^\w.-]", "_", src.lstrip("/"))
        path = os.path.join(self.tmp, "%s.%d.mlir" % (name, idx))
        with open(path, "w") as f:
            f.write(text)
        results = []
        res, base = self.variant(path, None)
        results += [("plain",) + r + (path,) for r in res]
        if base is not None and "func.func" in base and not has_step(base):
            for nth in range(self.loss_max):
                with_loss, fname = add_loss(base, nth)
                if with_loss is None:
                    break
                lpath = path[:-5] + ".loss%d.mlir" % nth
                with open(lpath, "w") as f:
                    f.write(with_loss)
                res, _ = self.variant(lpath, fname)
                results += [("loss",) + r + (lpath,) for r in res]
        return src, idx, results


def collect(paths):
    files = []
    for p in paths:
        if os.path.isfile(p):
            files.append(p)
            continue
        for d, _, names in os.walk(p):
            files += [os.path.join(d, n) for n in names if n.endswith(".mlir")]
    return sorted(files)


def group_of(path, roots):
    """The source a file belongs to: the first directory under its root."""
    for r in roots:
        r = os.path.abspath(r)
        ap = os.path.abspath(path)
        if ap.startswith(r + os.sep):
            rel = os.path.relpath(ap, r).split(os.sep)
            return rel[0] if len(rel) > 1 else os.path.basename(r)
        if ap == r:
            return os.path.basename(os.path.dirname(r))
    return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", help=".mlir files or directories")
    ap.add_argument("--ckpt-opt", default=os.path.join(ROOT, "build", "bin",
                                                       "ckpt-opt"))
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--budget", default="70%")
    ap.add_argument("--retry-budget", default="100%",
                    help="when --budget is infeasible, plan again under this "
                         "budget ('' for no retry)")
    ap.add_argument("--loss-all", action="store_true",
                    help="a loss variant for every eligible function of a "
                         "chunk, not only the first")
    ap.add_argument("--keep", help="copy chunks of bad cases here")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--max-bytes", type=int, default=0,
                    help="skip files larger than this (default 0: none; "
                         "every chunk has --timeout anyway)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print every chunk's classes")
    args = ap.parse_args()

    runner = Runner(args)
    jobs, skipped = [], []
    files = collect(args.paths)
    for f in files:
        if args.max_bytes and os.path.getsize(f) > args.max_bytes:
            skipped.append(f)
            continue
        with open(f, errors="replace") as fh:
            for i, text in enumerate(split_chunks(fh.read())):
                jobs.append((f, i, text))

    # table[group][(variant, stage, class)] = count
    table = collections.defaultdict(collections.Counter)
    totals = collections.Counter()
    diags = collections.Counter()
    bad = []
    files_per_group = collections.Counter(group_of(f, args.paths)
                                          for f in files if f not in skipped)
    chunks_per_group = collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for src, idx, results in pool.map(runner.chunk, jobs):
            g = group_of(src, args.paths)
            chunks_per_group[g] += 1
            for variant, stage, cls, msg, cmd, path in results:
                key = (variant, stage, cls)
                table[g][key] += 1
                totals[key] += 1
                if stage in ("plan", "lower") and cls == "diagnostic":
                    diags[(stage, variant, msg)] += 1
                if cls in BAD or (stage == "parse" and cls == "CRASH"):
                    bad.append((src, idx, variant, stage, cls, msg, cmd, path))
                if args.verbose:
                    print("%s#%d %s %s: %s %s" % (src, idx, variant, stage,
                                                  cls, msg))

    print("ckpt-opt: %s" % args.ckpt_opt)
    print("files: %d (%d skipped over %s bytes), chunks: %d, largest: %d bytes" %
          (len(files) - len(skipped), len(skipped), args.max_bytes or "no limit of",
           len(jobs), max((os.path.getsize(f) for f in files if f not in skipped),
                          default=0)))
    print()
    print("%-22s %6s %7s" % ("source", "files", "chunks"))
    for g in sorted(chunks_per_group):
        print("%-22s %6d %7d" % (g, files_per_group[g], chunks_per_group[g]))
    print()
    print("%-7s %-6s %-16s %7s" % ("variant", "stage", "class", "count"))
    for key in sorted(totals, key=lambda k: (k[0] != "plain",
                                             ["parse", "plan", "lower"].index(k[1]),
                                             k[2])):
        print("%-7s %-6s %-16s %7d" % (key + (totals[key],)))
    print()
    if diags:
        print("diagnostics of (b) and (c), by message:")
        for (stage, variant, msg), n in sorted(
                diags.items(), key=lambda kv: (kv[0][0] != "plan", -kv[1])):
            print("  %5d  %-5s %-5s %s" % (n, stage, variant, msg))
        print()
    if bad:
        print("PROBLEMS (%d):" % len(bad))
        for src, idx, variant, stage, cls, msg, cmd, path in bad:
            print("  %s  %s chunk %d (%s, %s): %s" % (cls, src, idx, variant,
                                                     stage, msg))
            print("    reproduce: %s" % " ".join(cmd))
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(path, args.keep)
                print("    kept: %s" % os.path.join(args.keep,
                                                    os.path.basename(path)))
    else:
        print("no crash, no silent change, no unlocated error")
    # The chunks stay where the reproducers point when there is a problem.
    if not bad:
        shutil.rmtree(runner.tmp, ignore_errors=True)
    return 1 if any(b[4] in ("CRASH", "CHANGED") for b in bad) else 0


if __name__ == "__main__":
    sys.exit(main())

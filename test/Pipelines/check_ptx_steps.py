#!/usr/bin/env python3
"""Lowers each step with ckpt-lower-to-nvptx (format=isa) and has ptxas
assemble every kernel, for:

  - the step as written (planned at 100%) and rematerialized at its least
    feasible budget (what `--ckpt-remat-pipeline=budget=1` names: the most
    recomputation the planner makes);
  - sm_90/+ptx80 assembled for sm_90, sm_80/+ptx70 assembled for sm_80 and
    sm_90, both with math=libdevice (the toolkit's libdevice linked in);
  - sm_90/+ptx80 with math=approx (no libdevice: polynomial
    approximations), assembled for sm_90.

Each lowering must exit 0 with nothing on stderr; each PTX module must hold
one `.entry` with a body (an instruction before `ret;`) and no `.extern`
function (an unresolved libdevice call). ptxas runs once per distinct PTX
text and architecture. Prints one line per step and configuration:

  STEP BUDGET CONFIG: N kernels, M distinct, ptxas ok

usage: check_ptx_steps.py --opt CKPT_OPT --ptxas PTXAS STEP.mlir...
"""

import argparse
import concurrent.futures
import hashlib
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract_ptx import ptx_modules  # noqa: E402

CONFIGS = [
    ("sm_90 libdevice", "chip=sm_90 features=+ptx80 math=libdevice", ["sm_90"]),
    ("sm_80 libdevice", "chip=sm_80 features=+ptx70 math=libdevice", ["sm_80", "sm_90"]),
    ("sm_90 approx", "chip=sm_90 features=+ptx80 math=approx", ["sm_90"]),
]
LEAST = re.compile(r"the least feasible budget is (\d+) B")
ENTRY_BODY = re.compile(r"\.entry\s+\w+\s*\([^)]*\)[^{]*\{(.*)\}", re.S)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def fail(message):
    print("FAIL " + message)
    sys.exit(1)


def least_budget(opt, step):
    p = run([opt, step, "--ckpt-wrap-step", "--ckpt-remat-pipeline=budget=1", "-o", os.devnull])
    m = LEAST.search(p.stderr)
    if p.returncode == 0 or not m:
        fail("%s: no least feasible budget in: %s" % (step, p.stderr[:500]))
    return int(m.group(1))


def kernels(text, where):
    """The PTX texts of the gpu.binary ops, checked."""
    found = [ptx for _, ptx in ptx_modules(text)]
    if not found:
        fail("%s: no gpu.binary with PTX" % where)
    for ptx in found:
        if ".extern .func" in ptx:
            fail("%s: PTX declares an external function: %s" %
                 (where, re.search(r"\.extern \.func[^;]*", ptx).group(0)))
        body = ENTRY_BODY.search(ptx)
        if ptx.count(".entry") != 1 or not body:
            fail("%s: PTX without exactly one .entry with a body" % where)
        instructions = [line.strip() for line in body.group(1).splitlines()
                        if line.strip() and not line.strip().startswith(
                            (".reg", "//", "$", "{", "}"))]
        if len(instructions) < 2 or instructions[-1] != "ret;":
            fail("%s: kernel body has no instructions before ret;" % where)
    return found


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--opt", required=True)
    a.add_argument("--ptxas", required=True)
    a.add_argument("steps", nargs="+")
    args = a.parse_args()
    assembled = set()  # (PTX digest, arch) that ptxas accepted
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for step in args.steps:
            name = os.path.splitext(os.path.basename(step))[0]
            least = least_budget(args.opt, step)
            for budget in ["100%", str(least)]:
                label = "100%" if budget == "100%" else "least"
                planned = os.path.join(tmp, "%s-%s.mlir" % (name, label))
                p = run([args.opt, step, "--ckpt-wrap-step",
                         "--ckpt-remat-pipeline=budget=" + budget, "-o", planned])
                if p.returncode != 0:
                    fail("%s at %s: %s" % (name, budget, p.stderr[:500]))
                if label == "least" and "ckpt.recompute" not in open(planned).read():
                    fail("%s at its least budget: nothing is recomputed" % name)
                for config, options, archs in CONFIGS:
                    where = "%s %s %s" % (name, label, config)
                    p = run([args.opt, planned, "--ckpt-lower-to-nvptx=format=isa " + options,
                             "-o", "-"])
                    if p.returncode != 0 or p.stderr:
                        fail("%s: exit %d, stderr: %s" % (where, p.returncode, p.stderr[:500]))
                    ptxs = kernels(p.stdout, where)
                    distinct = {}
                    for ptx in ptxs:
                        distinct.setdefault(hashlib.sha256(ptx.encode()).hexdigest(), ptx)
                    jobs = []
                    for digest, ptx in distinct.items():
                        path = os.path.join(tmp, digest + ".ptx")
                        with open(path, "w") as f:
                            f.write(ptx)
                        for arch in archs:
                            if (digest, arch) in assembled:
                                continue
                            assembled.add((digest, arch))
                            jobs.append(pool.submit(
                                run, [args.ptxas, "-arch=" + arch, path, "-o",
                                      os.path.join(tmp, digest + "-" + arch + ".cubin")]))
                    for job in jobs:
                        r = job.result()
                        if r.returncode != 0:
                            fail("%s: ptxas %s: %s" % (where, " ".join(r.args[1:3]),
                                                       r.stderr[:500]))
                    print("%s %s %s: %d kernels, %d distinct, ptxas ok" %
                          (name, label, config, len(ptxs), len(distinct)), flush=True)


if __name__ == "__main__":
    main()

# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CKPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ckpt_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%ckpt_lib_dir", config.ckpt_lib_dir))
config.substitutions.append(("%ckpt_src_root", config.ckpt_src_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Our tools first, then LLVM's (FileCheck, not, count, split-file).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.ckpt_tools_dir, append_path=True)

tools = [
    "ckpt-opt",
    ToolSubst("%mlir_opt", config.mlir_opt, unresolved="fatal"),
    # mlir-tblgen and MLIR's headers, beside mlir-opt (pass-docs.test).
    ToolSubst("%mlir_tblgen", os.path.join(os.path.dirname(config.mlir_opt), "mlir-tblgen"),
              unresolved="fatal"),
    ToolSubst("%ckpt_plugin",
              os.path.join(config.ckpt_lib_dir, "CkptPlugin" + config.llvm_shlib_ext),
              unresolved="ignore"),
]
if config.ckpt_have_ilp:
    config.available_features.add("ilp")
    # The program that runs CBC, for tests that stand in for it.
    config.substitutions.append(
        ("%ckpt_ilp_worker", os.path.join(config.ckpt_tools_dir, "ckpt-ilp-worker")))
for name in ["ckpt-chain", "ckpt-graph", "ckpt-run", "ckpt-sched"]:
    if os.path.exists(os.path.join(config.ckpt_tools_dir, name)):
        tools.append(name)
        config.available_features.add(name)
llvm_config.add_tool_substitutions(tools, [config.ckpt_tools_dir, config.llvm_tools_dir])
config.substitutions.append(("%mlir_include_dir", os.path.join(
    os.path.dirname(os.path.dirname(config.mlir_opt)), "include")))

# %ckpt_python: the interpreter the bindings are built for (CKPT_PYTHON_EXECUTABLE,
# the environment scripts/setup.sh makes: PyTorch 2, transformers, timm).
# Tests that check numerics against numpy need numpy there.
config.substitutions.append(("%ckpt_python", config.python_executable))
import subprocess
try:
    if subprocess.call([config.python_executable, "-c", "import numpy"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
        config.available_features.add("python-numpy")
    for module, feature in [("pytest", "python-pytest"), ("torch", "python-torch"),
                            ("matplotlib", "python-matplotlib"), ("tqdm", "python-tqdm")]:
        if subprocess.call([config.python_executable, "-c", "import " + module],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
            config.available_features.add(feature)
except OSError:
    pass

# GPU tests that run ptxas (format=bin/fatbin, or on extracted PTX) need the
# CUDA toolkit's ptxas. scripts/setup.sh finds the toolkit (CUDA_HOME,
# /usr/local/cuda, the ptxas on PATH) and configures CKPT_CUDA_TOOLKIT: then
# its ptxas and libdevice are required (a missing one fails the suite instead
# of skipping the GPU tests), and ckpt-opt gets the same toolkit (CUDA_HOME).
# Configured without one, the tests use /usr/local/cuda when it has ptxas.
toolkit = config.ckpt_cuda_toolkit
if toolkit:
    for part in ["bin/ptxas", "nvvm/libdevice/libdevice.10.bc"]:
        if not os.path.exists(os.path.join(toolkit, part)):
            lit_config.fatal("the set-up found the CUDA toolkit %s (CKPT_CUDA_TOOLKIT), "
                             "but %s is missing there" % (toolkit, part))
elif os.path.exists("/usr/local/cuda/bin/ptxas"):
    toolkit = "/usr/local/cuda"
if toolkit:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", os.path.join(toolkit, "bin", "ptxas")))
    config.environment["CUDA_HOME"] = toolkit
for name in ["CUDA_ROOT", "CUDA_PATH"]:
    config.environment.pop(name, None)

# ckpt-run --gpu: `cuda-runtime` when the build has libckpt_cuda_runtime.so
# (CUDA toolkit found at configure time); `cuda-driver` when this machine can
# load the CUDA driver (libcuda.so.1), which CI machines cannot; `cuda-stub`
# with %cuda_stub: a driver stub, which loads but has no device (the
# toolkit's, else the one the build made for a toolkit without it:
# lib/Runtime/CudaDriverStub.cpp).
if os.path.exists(os.path.join(config.ckpt_obj_root, "lib", "libckpt_cuda_runtime.so")):
    config.available_features.add("cuda-runtime")
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass
cuda_stubs = [os.path.join(config.ckpt_obj_root, "lib", "cuda-stub", "libcuda.so.1")]
if toolkit:
    cuda_stubs.insert(0, os.path.join(toolkit, "lib64", "stubs", "libcuda.so"))
cuda_stubs = [p for p in cuda_stubs if os.path.exists(p)]
if cuda_stubs:
    config.available_features.add("cuda-stub")
    config.substitutions.append(("%cuda_stub", cuda_stubs[0]))

import ctypes
import glob
# cuBLAS and cuDNN (ckpt-lower-to-nvptx{kernels=blas}): %cublas and %cudnn
# are the libraries of the Python environment's NVIDIA wheels (PyTorch's
# CUDA build brings them), features `cublas-library` and `cudnn-library`;
# `system-cuda-libraries` when the dynamic loader finds either by its
# soname alone (then "no cuBLAS" / "no cuDNN" cannot be tested).
site_packages = os.path.join(os.path.dirname(os.path.dirname(config.python_executable)),
                             "lib", "python3*", "site-packages", "nvidia")
for name, pattern in [("cublas", "*/lib/libcublas.so.1[23]"), ("cudnn", "cudnn/lib/libcudnn.so.9")]:
    found = sorted(glob.glob(os.path.join(site_packages, pattern)))
    if found:
        config.available_features.add(name + "-library")
        config.substitutions.append(("%" + name, found[-1]))
for soname in ["libcublas.so.13", "libcublas.so.12", "libcudnn.so.9"]:
    try:
        ctypes.CDLL(soname)
        config.available_features.add("system-cuda-libraries")
    except OSError:
        pass

# The Python bindings (python/), when built: build/python/ckpt/_ckpt*.so.
import glob
if glob.glob(os.path.join(config.ckpt_obj_root, "python", "ckpt", "_ckpt*.so")):
    config.available_features.add("python-bindings")
config.substitutions.append(("%ckpt_obj_root", config.ckpt_obj_root))

# IREE (iree-base-compiler and iree-base-runtime, python/requirements.txt):
# its iree-compile beside the interpreter of %ckpt_python.
if os.path.exists(os.path.join(os.path.dirname(config.python_executable), "iree-compile")):
    config.available_features.add("iree")
# torch-mlir (python/requirements.txt) in the same environment.
if glob.glob(os.path.join(os.path.dirname(os.path.dirname(config.python_executable)),
                          "lib", "python3*", "site-packages", "torch_mlir")):
    config.available_features.add("torch-mlir")

# Sanitizer builds (CKPT_ENABLE_SANITIZERS, CKPT_ENABLE_FUZZER; see
# docs/RELIABILITY.md): lit.site.cfg.py sets llvm_use_sanitizer, which gives the
# `asan` / `ubsan` features. Findings must fail tests, also under `not`: the
# sanitizers abort (a crash, which `not` does not turn into success) instead of
# exiting 1, and leaks are detected. Options the user set come last and win.
if "asan" in config.available_features or "ubsan" in config.available_features:
    def _prepend_options(var, defaults):
        user = os.environ.get(var, "")
        config.environment[var] = defaults + (":" + user if user else "")
    _lsan_supp = os.path.join(config.ckpt_src_root, "cmake", "lsan.supp")
    _prepend_options("ASAN_OPTIONS",
                     "detect_leaks=1:abort_on_error=1"
                     ":check_initialization_order=1")
    _prepend_options("LSAN_OPTIONS", "suppressions=" + _lsan_supp
                     + ":print_suppressions=0")
    _prepend_options("UBSAN_OPTIONS",
                     "print_stacktrace=1:halt_on_error=1:abort_on_error=1")
    config.environment["ASAN_SYMBOLIZER_PATH"] = os.path.join(
        config.llvm_tools_dir, "llvm-symbolizer")
    # The instrumented _ckpt extension needs the ASan runtime loaded first,
    # which the Python interpreter does not do (importing it aborts with "ASan
    # runtime does not come first"): the Python tests do not run here.
    config.available_features.discard("python-bindings")

# Sanitizer and fuzzer instrumentation of ckpt's own targets (docs/RELIABILITY.md).
#
# CKPT_ENABLE_SANITIZERS: AddressSanitizer + UndefinedBehaviorSanitizer on
#   every target defined after this file is included (our libraries, tools,
#   unit tests, plugin, Python module). Debian's libMLIR.so / libLLVM.so stay
#   uninstrumented: ASan still sees their heap (malloc/free are intercepted),
#   not their out-of-bounds accesses inside MLIR.
# CKPT_ENABLE_FUZZER: libFuzzer (clang only). Our libraries get
#   -fsanitize=fuzzer-no-link,address (coverage + ASan, no libFuzzer main);
#   the fuzz targets in fuzz/ link with -fsanitize=fuzzer,address.
#
# Both set CKPT_SANITIZER_LIST (lit's llvm_use_sanitizer spelling, e.g.
# "Address;Undefined"), which test/lit.site.cfg.py.in passes to lit so that
# the `asan` / `ubsan` features are set.

set(CKPT_SANITIZER_LIST "")

# Debian's LLVM/MLIR libraries are not instrumented: keep LLVM's inline
# allocators from poisoning memory that libMLIR.so's copies hand out
# (see CkptUninstrumentedLLVM.h).
set(CKPT_ASAN_INTEROP_FLAGS
  "$<$<COMPILE_LANGUAGE:CXX>:SHELL:-include ${CMAKE_CURRENT_LIST_DIR}/CkptUninstrumentedLLVM.h>")

if(CKPT_ENABLE_SANITIZERS AND CKPT_ENABLE_FUZZER)
  message(FATAL_ERROR "CKPT_ENABLE_SANITIZERS and CKPT_ENABLE_FUZZER are "
                      "separate builds: enable one of them")
endif()

if(CKPT_ENABLE_SANITIZERS)
  set(CKPT_SANITIZER_COMPILE_FLAGS
    -fsanitize=address,undefined
    -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
  set(CKPT_SANITIZER_LINK_FLAGS -fsanitize=address,undefined)
  add_compile_options(${CKPT_SANITIZER_COMPILE_FLAGS} ${CKPT_ASAN_INTEROP_FLAGS})
  add_link_options(${CKPT_SANITIZER_LINK_FLAGS})
  set(CKPT_SANITIZER_LIST "Address;Undefined")
  message(STATUS "CKPT_ENABLE_SANITIZERS: ${CKPT_SANITIZER_COMPILE_FLAGS}")
endif()

if(CKPT_ENABLE_FUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "CKPT_ENABLE_FUZZER needs clang (libFuzzer): configure "
                        "with CC=clang-22 CXX=clang++-22")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer
                      ${CKPT_ASAN_INTEROP_FLAGS})
  add_link_options(-fsanitize=address)
  set(CKPT_SANITIZER_LIST "Address")
  message(STATUS "CKPT_ENABLE_FUZZER: libraries with -fsanitize=fuzzer-no-link,address")
endif()

//===- CkptUninstrumentedLLVM.h - ASan against an uninstrumented LLVM -----===//
//
// Force-included (-include) into every C++ file of a sanitizer or fuzzer build
// (cmake/CkptSanitizers.cmake).
//
// llvm/Support/Compiler.h sets LLVM_ADDRESS_SANITIZER_BUILD from
// __has_feature(address_sanitizer) / __SANITIZE_ADDRESS__, i.e. from how the
// *including* file is compiled, and llvm/Support/Allocator.h and Recycler.h
// then poison the unused tail of every BumpPtrAllocator slab and unpoison each
// allocation. Debian's libMLIR.so / libLLVM.so are built without ASan: their
// copies of the same inline allocator (e.g. the one behind MLIR's
// StorageUniquer, shared with our attribute storage) hand out memory without
// unpoisoning it, and ASan reports a use-after-poison on the first write (seen
// in ckpt-plan's writePlan -> StringAttr::get). The allocator must behave the
// same on both sides of the library boundary, so this header makes our copies
// behave like libMLIR's: no manual poisoning. Heap, stack and global checks of
// our code are unaffected.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_UNINSTRUMENTED_LLVM_H
#define CKPT_UNINSTRUMENTED_LLVM_H

#ifdef __cplusplus
// First let Compiler.h include <sanitizer/asan_interface.h> (its include guard
// then keeps the real declarations from being macro-expanded later) ...
#include "llvm/Support/Compiler.h"
// ... then turn LLVM's poisoning off for everything included after it.
#undef LLVM_ADDRESS_SANITIZER_BUILD
#define LLVM_ADDRESS_SANITIZER_BUILD 0
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))
#endif

#endif // CKPT_UNINSTRUMENTED_LLVM_H

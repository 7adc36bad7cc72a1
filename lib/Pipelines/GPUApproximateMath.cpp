//===- GPUApproximateMath.cpp - ckpt-gpu-approximate-math
//-------------------===//
//
// Math ops of the kernels as NVPTX instructions and polynomial
// approximations, when libdevice is not linked (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Pipelines/Passes.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Transforms/ListValidOptions.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace ckpt {
#define GEN_PASS_DEF_GPUAPPROXIMATEMATHPASS
#include "ckpt/Pipelines/Passes.h.inc"
} // namespace ckpt

using namespace mlir;
using namespace ckpt;

namespace {

/// A math op on f32/f64 as a call of the NVPTX intrinsic for its
/// instruction (`llvm.nvvm.floor.f`, ...; convert-gpu-to-nvvm would call
/// libdevice for the math op, and rejects the generic LLVM intrinsic).
template <typename From>
struct ToNVVMIntrinsic : public OpRewritePattern<From> {
  ToNVVMIntrinsic(MLIRContext *context, StringRef stem)
      : OpRewritePattern<From>(context, /*benefit=*/2), stem(stem.str()) {}
  LogicalResult matchAndRewrite(From op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF64())
      return failure();
    auto name = rewriter.getStringAttr("llvm.nvvm." + stem +
                                       (type.isF32() ? ".f" : ".d"));
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(op, type, name,
                                                       op->getOperands());
    return success();
  }
  std::string stem;
};

/// absf and copysign on f32/f64 by their sign bit.
template <typename From> struct SignBit : public OpRewritePattern<From> {
  using OpRewritePattern<From>::OpRewritePattern;
  LogicalResult matchAndRewrite(From op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type || (!type.isF32() && !type.isF64()))
      return failure();
    unsigned width = type.getWidth();
    Type bits = rewriter.getIntegerType(width);
    Location loc = op.getLoc();
    auto constant = [&](const APInt &value) {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getIntegerAttr(bits, value));
    };
    APInt sign = APInt::getSignMask(width);
    Value x = arith::BitcastOp::create(rewriter, loc, bits, op->getOperand(0));
    Value magnitude = arith::AndIOp::create(rewriter, loc, x, constant(~sign));
    Value result = magnitude;
    if (op->getNumOperands() == 2) {
      Value y =
          arith::BitcastOp::create(rewriter, loc, bits, op->getOperand(1));
      Value ySign = arith::AndIOp::create(rewriter, loc, y, constant(sign));
      result = arith::OrIOp::create(rewriter, loc, magnitude, ySign);
    }
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, result);
    return success();
  }
};

/// ckpt-gpu-approximate-math (Passes.td).
struct GPUApproximateMathPass
    : public ckpt::ListValidOptions<
          ckpt::impl::GPUApproximateMathPassBase<GPUApproximateMathPass>> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // What NVPTX has instructions for: its intrinsics, or bit operations.
    MLIRContext *context = &getContext();
    patterns.add<ToNVVMIntrinsic<math::FloorOp>>(context, "floor");
    patterns.add<ToNVVMIntrinsic<math::CeilOp>>(context, "ceil");
    patterns.add<ToNVVMIntrinsic<math::SqrtOp>>(context, "sqrt.rn");
    patterns.add<ToNVVMIntrinsic<math::FmaOp>>(context, "fma.rn");
    patterns.add<SignBit<math::AbsFOp>, SignBit<math::CopySignOp>>(context, 2);
    math::populateExpansionPatterns(patterns);
    populateMathF32ExpansionPatterns(patterns, [](StringRef) { return true; });
    populateMathPolynomialApproximationPatterns(patterns,
                                                [](StringRef) { return true; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

//===- CallKernels.cpp - contractions and convolutions as BLAS calls ------===//
//
// After bufferization, the f32 contractions (matmul, batch matmul and their
// transposed generic forms) and NCHW convolutions of a step become calls to
// the ckpt runtime's kernels (lib/Runtime/Kernels.cpp, over OpenBLAS), which
// read each operand's sizes and strides from its descriptor. The buffers do
// not change, so neither does the step's memory.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace ckpt {
#define GEN_PASS_DEF_CALLKERNELSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;

namespace {
constexpr StringLiteral kContract = "ckpt_kernel_contract_f32";
constexpr StringLiteral kConv = "ckpt_kernel_conv2d_nchw_fchw_f32";
constexpr StringLiteral kFilterGrad = "ckpt_kernel_conv2d_filter_grad_f32";

bool isF32Buffer(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getElementType().isF32() &&
         type.getMemorySpace() == nullptr;
}

/// The operand positions (memref dimensions) of the loops `dims`, in order,
/// or nullopt when the operand's map is not exactly those loops, each once.
std::optional<SmallVector<int64_t>> positions(AffineMap map,
                                              ArrayRef<int64_t> dims) {
  size_t wanted = llvm::count_if(dims, [](int64_t d) { return d >= 0; });
  if (map.getNumResults() != wanted || !map.isProjectedPermutation())
    return std::nullopt;
  SmallVector<int64_t> out;
  for (int64_t d : dims) {
    if (d < 0) {
      out.push_back(-1);
      continue;
    }
    std::optional<unsigned> at =
        map.getResultPosition(getAffineDimExpr(d, map.getContext()));
    if (!at)
      return std::nullopt;
    out.push_back(*at);
  }
  return out;
}

/// The call of a contraction: (A, B, C) and, for each, the memref dimension
/// of (batch0, batch1, M, K), (batch0, batch1, K, N) and (batch0, batch1, M,
/// N), -1 for a batch dimension it does not have.
std::optional<SmallVector<int64_t>> contraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->batch.size() > 2 || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1 ||
      op.getNumLoops() != dims->batch.size() + 3)
    return std::nullopt;
  int64_t b[2] = {-1, -1};
  for (auto [i, d] : llvm::enumerate(dims->batch))
    b[i] = static_cast<int64_t>(d);
  int64_t m = dims->m[0], n = dims->n[0], k = dims->k[0];
  SmallVector<int64_t> out;
  auto add = [&](OpOperand *operand, ArrayRef<int64_t> loops) {
    std::optional<SmallVector<int64_t>> at =
        positions(op.getMatchingIndexingMap(operand), loops);
    if (!at)
      return false;
    out.append(*at);
    return true;
  };
  if (!add(op.getDpsInputOperand(0), {b[0], b[1], m, k}) ||
      !add(op.getDpsInputOperand(1), {b[0], b[1], k, n}) ||
      !add(op.getDpsInitOperand(0), {b[0], b[1], m, n}))
    return std::nullopt;
  return out;
}

/// Whether the body of `op` is `out + in0 * in1` in f32.
bool isMultiplyAccumulate(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getNumArguments() != 3 || body->getOperations().size() != 3)
    return false;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value acc = body->getArgument(2);
  Value other = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto mul = other.getDefiningOp<arith::MulFOp>();
  if ((add.getLhs() != acc && add.getRhs() != acc) || !mul)
    return false;
  Value x = body->getArgument(0), y = body->getArgument(1);
  return (mul.getLhs() == x && mul.getRhs() == y) ||
         (mul.getLhs() == y && mul.getRhs() == x);
}

/// Whether `expr` is a sum of dimensions times constants (and constants).
bool isLinear(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  if (binary.getKind() == AffineExprKind::Add)
    return isLinear(binary.getLHS()) && isLinear(binary.getRHS());
  if (binary.getKind() == AffineExprKind::Mul)
    return (isa<AffineConstantExpr>(binary.getLHS()) &&
            isLinear(binary.getRHS())) ||
           (isa<AffineConstantExpr>(binary.getRHS()) &&
            isLinear(binary.getLHS()));
  return false;
}

/// The filter gradient of a convolution as the importers write it: a
/// generic over (f, c, kh, kw, n, oh, ow) reading the padded input at
/// (n, c, oh*sh + kh*dh, ow*sw + kw*dw) and the output gradient at
/// (n, f, oh, ow), accumulating into dW (f, c, kh, kw). Returns (sh, sw,
/// dh, dw).
std::optional<SmallVector<int64_t>> filterGradient(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || op.getNumLoops() != 7 || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 3 ||
      !isMultiplyAccumulate(op))
    return std::nullopt;
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if ((type == utils::IteratorType::reduction) != (i >= 4))
      return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MLIRContext *context = op->getContext();
  auto fixed = [&](ArrayRef<unsigned> dims) {
    SmallVector<AffineExpr> exprs;
    for (unsigned d : dims)
      exprs.push_back(getAffineDimExpr(d, context));
    return AffineMap::get(7, 0, exprs, context);
  };
  if (maps[1] != fixed({4, 0, 5, 6}) || maps[2] != fixed({0, 1, 2, 3}))
    return std::nullopt;
  AffineMap input = maps[0];
  if (input.getNumResults() != 4 || input.getNumSymbols() != 0 ||
      !llvm::all_of(input.getResults(), isLinear))
    return std::nullopt;
  // A linear map: its value at each unit vector is its column.
  auto column = [&](int dim) {
    SmallVector<int64_t> point(7, 0);
    if (dim >= 0)
      point[dim] = 1;
    return input.compose(point);
  };
  SmallVector<int64_t> out = {column(5)[2], column(6)[3], column(2)[2],
                              column(3)[3]};
  SmallVector<SmallVector<int64_t>> want = {
      {0, 0, 0, 0},      {0, 0, 0, 0}, {0, 1, 0, 0},      {0, 0, out[2], 0},
      {0, 0, 0, out[3]}, {1, 0, 0, 0}, {0, 0, out[0], 0}, {0, 0, 0, out[1]}};
  for (int dim = -1; dim < 7; ++dim)
    if (column(dim) != want[dim + 1])
      return std::nullopt;
  if (llvm::any_of(out, [](int64_t v) { return v <= 0; }))
    return std::nullopt;
  return out;
}

std::optional<SmallVector<int64_t>> convolution(linalg::LinalgOp op) {
  auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation());
  if (!conv)
    return std::nullopt;
  SmallVector<int64_t> out;
  for (DenseIntElementsAttr attr : {conv.getStrides(), conv.getDilations()})
    for (const APInt &v : attr.getValues<APInt>())
      out.push_back(v.getSExtValue());
  return out;
}

struct CallKernelsPass : public ckpt::ListValidOptions<
                             ckpt::impl::CallKernelsPassBase<CallKernelsPass>> {
  using ListValidOptions::ListValidOptions;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::tuple<linalg::LinalgOp, StringRef, SmallVector<int64_t>>>
        calls;
    module.walk([&](linalg::LinalgOp op) {
      if (!op.hasPureBufferSemantics() ||
          !llvm::all_of(op->getOperands(), isF32Buffer))
        return;
      if (std::optional<SmallVector<int64_t>> ints = contraction(op))
        calls.emplace_back(op, kContract, *ints);
      else if (std::optional<SmallVector<int64_t>> ints = convolution(op))
        calls.emplace_back(op, kConv, *ints);
      else if (std::optional<SmallVector<int64_t>> ints = filterGradient(op))
        calls.emplace_back(op, kFilterGrad, *ints);
    });
    if (calls.empty())
      return;
    MLIRContext *context = &getContext();
    auto unranked = UnrankedMemRefType::get(Float32Type::get(context), {});
    auto i64 = IntegerType::get(context, 64);
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    auto declare = [&](StringRef name, unsigned ints) {
      if (module.lookupSymbol(name))
        return;
      SmallVector<Type> inputs(3, unranked);
      inputs.append(ints, i64);
      auto fn = func::FuncOp::create(top, module.getLoc(), name,
                                     top.getFunctionType(inputs, {}));
      fn.setPrivate();
      fn->setAttr("llvm.emit_c_interface", top.getUnitAttr());
    };
    for (auto &[op, name, ints] : calls) {
      declare(name, ints.size());
      OpBuilder b(op);
      SmallVector<Value> args;
      for (Value operand : op->getOperands())
        args.push_back(
            memref::CastOp::create(b, op.getLoc(), unranked, operand));
      for (int64_t v : ints)
        args.push_back(arith::ConstantIntOp::create(b, op.getLoc(), v, 64));
      func::CallOp::create(b, op.getLoc(), name, TypeRange(), args);
      op->erase();
    }
  }
};
} // namespace

//===- CallKernels.cpp - contractions and convolutions as BLAS calls ------===//
//
// After bufferization, the f32 contractions (matmul, batch matmul and their
// transposed generic forms) and NCHW convolutions of a step become calls to
// the ckpt runtime's kernels (lib/Runtime/Kernels.cpp, over OpenBLAS), which
// read each operand's sizes and strides from its descriptor. The buffers do
// not change, so neither does the step's memory. With runtime=cuda, only the
// contractions whose static layout maps onto a column-major sgemm and the
// convolutions and filter gradients with a packed filter become calls, of
// the CUDA runtime's cuBLAS contraction and cuDNN convolutions.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/Gemm.h"
#include "ckpt/Transforms/ListValidOptions.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

#include <array>

namespace ckpt {
#define GEN_PASS_DEF_CALLKERNELSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace ckpt

using namespace mlir;

namespace {
constexpr StringLiteral kContract = "ckpt_kernel_contract_f32";
constexpr StringLiteral kConv = "ckpt_kernel_conv2d_nchw_fchw_f32";
constexpr StringLiteral kFilterGrad = "ckpt_kernel_conv2d_filter_grad_f32";
constexpr StringLiteral kExpContract = "ckpt_kernel_exp_contract_f32";
constexpr StringLiteral kEmbeddingGrad = "ckpt_kernel_embedding_grad_f32";

bool isF32Buffer(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getElementType().isF32() &&
         type.getMemorySpace() == nullptr;
}

/// An embedding gradient's operands: i64 ids, then f32 buffers.
bool isIdsAndF32Buffers(linalg::LinalgOp op) {
  auto ids = dyn_cast<MemRefType>(op->getOperand(0).getType());
  return ids && ids.getElementType().isSignlessInteger(64) &&
         ids.getMemorySpace() == nullptr &&
         llvm::all_of(op->getOperands().drop_front(), isF32Buffer);
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

/// The loops (batch0, batch1, M, N, K) of a contraction whose A, B and C
/// maps are `maps` (as linalg infers them), with one M, N and K loop and at
/// most two batch loops (-1 for one it does not have), or nullopt.
std::optional<std::array<int64_t, 5>>
contractionLoops(linalg::LinalgOp op, ArrayRef<AffineMap> maps) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(maps);
  if (failed(dims) || dims->batch.size() > 2 || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1 ||
      op.getNumLoops() != dims->batch.size() + 3)
    return std::nullopt;
  std::array<int64_t, 5> loops = {-1, -1, dims->m[0], dims->n[0], dims->k[0]};
  for (auto [i, d] : llvm::enumerate(dims->batch))
    loops[i] = static_cast<int64_t>(d);
  return loops;
}

/// The memref dimensions of `loops[i]` in the operand of `maps[i]`, for
/// every operand in order, concatenated; nullopt when one does not fit.
std::optional<SmallVector<int64_t>>
allPositions(ArrayRef<AffineMap> maps, ArrayRef<SmallVector<int64_t>> loops) {
  SmallVector<int64_t> out;
  for (auto [map, wanted] : llvm::zip(maps, loops)) {
    std::optional<SmallVector<int64_t>> at = positions(map, wanted);
    if (!at)
      return std::nullopt;
    out.append(*at);
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
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  std::optional<std::array<int64_t, 5>> l = contractionLoops(op, maps);
  if (!l)
    return std::nullopt;
  auto [b0, b1, m, n, k] = *l;
  return allPositions(maps, {{b0, b1, m, k}, {b0, b1, k, n}, {b0, b1, m, n}});
}

/// The op defining the term a linalg body adds to its accumulator (its
/// last block argument) and yields: `OpTy` in `yield out + term`, or null.
template <typename OpTy> OpTy accumulatedTerm(Block *body) {
  Value acc = body->getArguments().back();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add || (add.getLhs() != acc && add.getRhs() != acc))
    return nullptr;
  return (add.getLhs() == acc ? add.getRhs() : add.getLhs())
      .getDefiningOp<OpTy>();
}

/// Whether the body of `op` is `out + in0 * in1` in f32.
bool isMultiplyAccumulate(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getNumArguments() != 3 || body->getOperations().size() != 3)
    return false;
  auto mul = accumulatedTerm<arith::MulFOp>(body);
  if (!mul)
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

/// The attention's probabilities times V, as the importer writes PyTorch's
/// fused CPU attention: O += exp(S - LSE) V, a generic with inputs S
/// (batch, M, K), LSE (batch, M) and V (batch, K, N) whose body is
/// `out + exp(s - lse) * v`. Returns the memref dimension of S's (b0, b1,
/// M, K), LSE's (b0, b1, M), V's (b0, b1, K, N) and O's (b0, b1, M, N).
std::optional<SmallVector<int64_t>> expContraction(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op.getOperation()) || op.getNumDpsInputs() != 3 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return std::nullopt;
  Block *body = op.getBlock();
  if (body->getOperations().size() != 5)
    return std::nullopt;
  Value s = body->getArgument(0), lse = body->getArgument(1),
        v = body->getArgument(2);
  auto mul = accumulatedTerm<arith::MulFOp>(body);
  if (!mul)
    return std::nullopt;
  Value e = mul.getLhs() == v ? mul.getRhs() : mul.getLhs();
  auto exp = e.getDefiningOp<math::ExpOp>();
  if ((mul.getLhs() != v && mul.getRhs() != v) || !exp)
    return std::nullopt;
  auto sub = exp.getOperand().getDefiningOp<arith::SubFOp>();
  if (!sub || sub.getLhs() != s || sub.getRhs() != lse)
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  std::optional<std::array<int64_t, 5>> l =
      contractionLoops(op, {maps[0], maps[2], maps[3]});
  if (!l)
    return std::nullopt;
  auto [b0, b1, m, n, k] = *l;
  return allPositions(
      maps, {{b0, b1, m, k}, {b0, b1, m}, {b0, b1, k, n}, {b0, b1, m, n}});
}

/// The integer value of `v` when it is a constant.
std::optional<int64_t> constantInt(Value v) {
  APInt value;
  if (!matchPattern(v, m_ConstantInt(&value)))
    return std::nullopt;
  return value.getSExtValue();
}

/// An embedding's weight gradient as the importer writes it: a generic
/// over (row, column, tokens...) with the token ids I (tokens) and the
/// output gradient G (tokens..., column) accumulating into W (row, column)
/// the G entries whose id, clamped to [LO, HI], is the row. Returns I's
/// dimensions of the token loops (t0, t1; -1 for none), G's of (t0, t1,
/// column), W's of (row, column), then LO and HI.
std::optional<SmallVector<int64_t>> embeddingGradient(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op.getOperation()) || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  auto ids = dyn_cast<MemRefType>(op.getDpsInputOperand(0)->get().getType());
  if (!ids || !ids.getElementType().isSignlessInteger(64))
    return std::nullopt;
  Block *body = op.getBlock();
  Value id = body->getArgument(0), g = body->getArgument(1);
  auto select = accumulatedTerm<arith::SelectOp>(body);
  if (!select || select.getTrueValue() != g)
    return std::nullopt;
  FloatAttr zero;
  if (!matchPattern(select.getFalseValue(), m_Constant(&zero)) ||
      !zero.getValue().isZero())
    return std::nullopt;
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
    return std::nullopt;
  auto minOp = cmp.getLhs().getDefiningOp<arith::MinSIOp>();
  auto toI64 = cmp.getRhs().getDefiningOp<arith::IndexCastOp>();
  if (!minOp || !toI64) {
    minOp = cmp.getRhs().getDefiningOp<arith::MinSIOp>();
    toI64 = cmp.getLhs().getDefiningOp<arith::IndexCastOp>();
  }
  if (!minOp || !toI64)
    return std::nullopt;
  auto index = toI64.getIn().getDefiningOp<linalg::IndexOp>();
  auto maxOp = minOp.getLhs().getDefiningOp<arith::MaxSIOp>();
  if (!index || !maxOp || maxOp.getLhs() != id)
    return std::nullopt;
  std::optional<int64_t> lo = constantInt(maxOp.getRhs());
  std::optional<int64_t> hi = constantInt(minOp.getRhs());
  if (!lo || !hi || *lo > *hi || body->getOperations().size() != 8)
    return std::nullopt;
  // W (row, column): row the loop of linalg.index, column the other.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap w = maps[2];
  if (w.getNumResults() != 2 || !w.isProjectedPermutation())
    return std::nullopt;
  int64_t row = index.getDim();
  int64_t col = -1;
  for (AffineExpr e : w.getResults())
    if (cast<AffineDimExpr>(e).getPosition() != row)
      col = cast<AffineDimExpr>(e).getPosition();
  if (col < 0 || !w.getResultPosition(getAffineDimExpr(row, op->getContext())))
    return std::nullopt;
  // The token loops: every other loop, all reductions, at most two.
  SmallVector<int64_t> tokens;
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (static_cast<int64_t>(i) == row || static_cast<int64_t>(i) == col)
      continue;
    if (type != utils::IteratorType::reduction)
      return std::nullopt;
    tokens.push_back(i);
  }
  if (tokens.empty() || tokens.size() > 2)
    return std::nullopt;
  int64_t t1 = tokens.size() > 1 ? tokens[1] : -1;
  SmallVector<int64_t> out;
  for (auto [map, loops] : llvm::zip(
           maps, SmallVector<SmallVector<int64_t>>{
                     {tokens[0], t1}, {tokens[0], t1, col}, {row, col}})) {
    std::optional<SmallVector<int64_t>> at = positions(map, loops);
    if (!at)
      return std::nullopt;
    out.append(*at);
  }
  out.push_back(*lo);
  out.push_back(*hi);
  return out;
}

/// Whether the contraction `op`, whose operand dimensions are `dims` (as
/// contraction() returns them), has static sizes and strides that map onto
/// a column-major sgemm: what the CUDA runtime's contraction needs.
bool mapsOntoSgemm(linalg::LinalgOp op, ArrayRef<int64_t> dims) {
  SmallVector<ckpt::gemm::Matrix> matrices;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = cast<MemRefType>(operand.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)))
      return false;
    int64_t rowDim = dims[4 * i + 2], colDim = dims[4 * i + 3];
    ckpt::gemm::Matrix m = {type.getDimSize(rowDim), type.getDimSize(colDim),
                            strides[rowDim], strides[colDim]};
    if (llvm::any_of(
            ArrayRef<int64_t>{m.rows, m.cols, m.rowStride, m.colStride},
            ShapedType::isDynamic))
      return false;
    matrices.push_back(m);
  }
  return ckpt::gemm::planGemm(matrices[0], matrices[1], matrices[2])
      .has_value();
}

/// Whether a convolution (or filter gradient) `op` has operands of static
/// sizes and strides that fit cuDNN's int, and a packed filter (operand
/// `filter`): what the CUDA runtime's convolutions need.
bool fitsCudnn(linalg::LinalgOp op, int filter) {
  SmallVector<int64_t> strides[3];
  const int64_t *sizePtrs[3], *stridePtrs[3];
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = cast<MemRefType>(operand.getType());
    int64_t offset;
    if (type.getRank() != 4 || !type.hasStaticShape() ||
        failed(type.getStridesAndOffset(strides[i], offset)) ||
        llvm::any_of(strides[i], ShapedType::isDynamic))
      return false;
    sizePtrs[i] = type.getShape().data();
    stridePtrs[i] = strides[i].data();
  }
  return ckpt::gemm::fitsCudnn(sizePtrs, stridePtrs, filter);
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
      if (!op.hasPureBufferSemantics() || op->getNumOperands() == 0)
        return;
      if (isIdsAndF32Buffers(op) && runtime == ckpt::KernelRuntime::Cpu) {
        if (std::optional<SmallVector<int64_t>> ints = embeddingGradient(op))
          calls.emplace_back(op, kEmbeddingGrad, *ints);
        return;
      }
      if (!llvm::all_of(op->getOperands(), isF32Buffer))
        return;
      if (runtime == ckpt::KernelRuntime::Cuda) {
        if (std::optional<SmallVector<int64_t>> ints = contraction(op)) {
          if (mapsOntoSgemm(op, *ints))
            calls.emplace_back(op, ckpt::gemm::kCudaContractFunction, *ints);
        } else if (std::optional<SmallVector<int64_t>> ints = convolution(op)) {
          if (fitsCudnn(op, /*filter=*/1))
            calls.emplace_back(op, ckpt::gemm::kCudaConvFunction, *ints);
        } else if (std::optional<SmallVector<int64_t>> ints =
                       filterGradient(op)) {
          if (fitsCudnn(op, /*filter=*/2))
            calls.emplace_back(op, ckpt::gemm::kCudaFilterGradFunction, *ints);
        }
        return;
      }
      if (std::optional<SmallVector<int64_t>> ints = contraction(op))
        calls.emplace_back(op, kContract, *ints);
      else if (std::optional<SmallVector<int64_t>> ints = convolution(op))
        calls.emplace_back(op, kConv, *ints);
      else if (std::optional<SmallVector<int64_t>> ints = filterGradient(op))
        calls.emplace_back(op, kFilterGrad, *ints);
      else if (std::optional<SmallVector<int64_t>> ints = expContraction(op))
        calls.emplace_back(op, kExpContract, *ints);
    });
    if (calls.empty())
      return;
    MLIRContext *context = &getContext();
    auto i64 = IntegerType::get(context, 64);
    auto unranked = [](Value buffer) {
      return UnrankedMemRefType::get(
          cast<MemRefType>(buffer.getType()).getElementType(), {});
    };
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    auto declare = [&](StringRef name, linalg::LinalgOp op, unsigned ints) {
      if (module.lookupSymbol(name))
        return;
      SmallVector<Type> inputs;
      for (Value operand : op->getOperands())
        inputs.push_back(unranked(operand));
      inputs.append(ints, i64);
      auto fn = func::FuncOp::create(top, module.getLoc(), name,
                                     top.getFunctionType(inputs, {}));
      fn.setPrivate();
      fn->setAttr("llvm.emit_c_interface", top.getUnitAttr());
    };
    for (auto &[op, name, ints] : calls) {
      declare(name, op, ints.size());
      OpBuilder b(op);
      SmallVector<Value> args;
      for (Value operand : op->getOperands())
        args.push_back(
            memref::CastOp::create(b, op.getLoc(), unranked(operand), operand));
      for (int64_t v : ints)
        args.push_back(arith::ConstantIntOp::create(b, op.getLoc(), v, 64));
      func::CallOp::create(b, op.getLoc(), name, TypeRange(), args);
      op->erase();
    }
  }
};
} // namespace

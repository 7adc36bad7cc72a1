//===- CostModel.cpp - op costs and device profiles -----------------------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Solver/Support/Devices.h"

#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptInterfaces.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Solver/Support/JsonReader.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace ckpt;

//===----------------------------------------------------------------------===//
// Device profiles
//===----------------------------------------------------------------------===//

// The table is the solver layer's (ckpt/Solver/Support/Devices.h), shared with
// the Python package; the enum is the dialect's (CkptAttrs.td).
DeviceProfile DeviceProfile::get(Device device) {
  StringRef name = stringifyDevice(device);
  const solver::DeviceSpec *spec = solver::findDeviceSpec(name);
  if (!spec)
    llvm::report_fatal_error("ckpt: device '" + name +
                             "' has no row in ckpt/Solver/Support/Devices.h");
  return DeviceProfile{
      device,
      spec->name,
      spec->peakFlops,
      spec->bandwidth,
      {spec->linkToHost, spec->linkToDevice, spec->linkLatency}};
}

double DeviceProfile::time(uint64_t flops, uint64_t bytes) const {
  return std::max(static_cast<double>(flops) / peakFlops,
                  static_cast<double>(bytes) / bandwidth);
}

//===----------------------------------------------------------------------===//
// Measured profiles
//===----------------------------------------------------------------------===//

std::optional<MeasuredProfile> MeasuredProfile::read(StringRef path,
                                                     std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read profile '" + path.str() +
            "': " + buffer.getError().message();
    return std::nullopt;
  }
  std::string syntax;
  std::optional<llvm::json::Value> parsed =
      parseJson((*buffer)->getBuffer(), syntax);
  if (!parsed) {
    error = "profile '" + path.str() + "':" + syntax;
    return std::nullopt;
  }
  const llvm::json::Object *times = parsed->getAsObject();
  if (!times) {
    error = "profile '" + path.str() +
            "' must be a JSON object mapping an op name or location to "
            "seconds";
    return std::nullopt;
  }
  MeasuredProfile profile;
  // In key order, so that the first bad entry named is the same every time.
  for (const llvm::json::Object::value_type *entry :
       llvm::json::sortedElements(*times)) {
    std::optional<double> seconds = entry->second.getAsNumber();
    if (!seconds || *seconds < 0) {
      error = "profile '" + path.str() + "': time of '" +
              StringRef(entry->first).str() +
              "' must be a non-negative number of seconds";
      return std::nullopt;
    }
    profile.times[StringRef(entry->first).str()] = *seconds;
  }
  return profile;
}

/// The keys a location may be found under in a measured profile.
static void collectLocationKeys(Location loc,
                                SmallVectorImpl<std::string> &keys) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
    keys.push_back((fileLoc.getFilename().strref() + ":" +
                    Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
                       .str());
    return;
  }
  if (auto nameLoc = dyn_cast<NameLoc>(loc)) {
    keys.push_back(nameLoc.getName().str());
    collectLocationKeys(nameLoc.getChildLoc(), keys);
    return;
  }
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      collectLocationKeys(inner, keys);
}

std::optional<double> MeasuredProfile::lookup(Operation *op) const {
  SmallVector<std::string> keys;
  collectLocationKeys(op->getLoc(), keys);
  keys.push_back(op->getName().getStringRef().str());
  for (const std::string &key : keys) {
    auto it = times.find(key);
    if (it != times.end())
      return it->second;
  }
  return std::nullopt;
}

std::string ckpt::getProfileKey(Operation *op) {
  SmallVector<std::string> keys;
  collectLocationKeys(op->getLoc(), keys);
  if (!keys.empty())
    return keys.front();
  return op->getName().getStringRef().str();
}

FailureOr<CostSetup> ckpt::setUpCosts(Location loc, Device device,
                                      StringRef profilePath) {
  CostSetup setup{DeviceProfile::get(device), std::nullopt};
  if (!profilePath.empty()) {
    std::string error;
    setup.measured = MeasuredProfile::read(profilePath, error);
    if (!setup.measured)
      return emitError(loc, error);
  }
  return setup;
}

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

static uint64_t getElementBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * getElementBytes(complex.getElementType());
  return 0;
}

std::optional<uint64_t> ckpt::getTypeBytes(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!shaped.hasRank() || !shaped.hasStaticShape())
      return std::nullopt;
    ArrayRef<int64_t> shape = shaped.getShape();
    if (llvm::is_contained(shape, 0))
      return 0;
    // Multiply with a bound instead of getNumElements(), which wraps around
    // silently past 2^63 elements (a 2^64-element tensor would count as 0 B).
    uint64_t bytes = getElementBytes(shaped.getElementType());
    for (int64_t dim : shape) {
      if (bytes > kMaxTypeBytes / static_cast<uint64_t>(dim))
        return std::nullopt;
      bytes *= static_cast<uint64_t>(dim);
    }
    return bytes;
  }
  return getElementBytes(type);
}

/// Bytes of a value's type, 0 for dynamic shapes (rejected before use).
static uint64_t bytesOf(Value value) {
  return getTypeBytes(value.getType()).value_or(0);
}

static uint64_t elementsOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.hasStaticShape() ? shaped.getNumElements() : 0;
  return 1;
}

/// Bytes of all operands and results: what an op that reads all its inputs
/// and writes all its outputs moves.
static uint64_t operandAndResultBytes(Operation *op) {
  uint64_t bytes = 0;
  for (Value operand : op->getOperands())
    bytes += bytesOf(operand);
  for (Value result : op->getResults())
    bytes += bytesOf(result);
  return bytes;
}

//===----------------------------------------------------------------------===//
// External models
//===----------------------------------------------------------------------===//

namespace {

/// Linalg structured ops, named or generic: flops = iterations x arithmetic
/// ops in the payload; bytes = inputs + outputs written (+ inits the payload
/// reads).
template <typename OpTy>
struct LinalgCostModel
    : public CostOpInterface::ExternalModel<LinalgCostModel<OpTy>, OpTy> {
  uint64_t getFlops(Operation *op) const {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp)
      return 0;
    uint64_t iterations = 1;
    for (int64_t range : linalgOp.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(range))
        return 0;
      iterations *= static_cast<uint64_t>(range);
    }
    uint64_t perIteration = 0;
    for (Operation &inner : linalgOp.getBlock()->without_terminator()) {
      Dialect *dialect = inner.getDialect();
      if (!dialect)
        continue;
      StringRef ns = dialect->getNamespace();
      if ((ns == "arith" || ns == "math") && !isa<arith::ConstantOp>(inner) &&
          !isa<arith::IndexCastOp>(inner))
        ++perIteration;
    }
    return iterations * perIteration;
  }
  uint64_t getBytesMoved(Operation *op) const {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp)
      return operandAndResultBytes(op);
    uint64_t bytes = 0;
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      bytes += bytesOf(input->get());
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      bytes += bytesOf(init.get()); // written
      if (linalgOp.payloadUsesValueFromOperand(&init))
        bytes += bytesOf(init.get()); // and read
    }
    return bytes;
  }
};

/// Elementwise arith and math ops (scalar or on tensors): one flop per
/// element; constants materialize their result and compute nothing.
template <typename OpTy>
struct ElementwiseCostModel
    : public CostOpInterface::ExternalModel<ElementwiseCostModel<OpTy>, OpTy> {
  uint64_t getFlops(Operation *op) const {
    if (isa<arith::ConstantOp>(op) || op->getNumResults() == 0)
      return 0;
    return elementsOf(op->getResult(0).getType());
  }
  uint64_t getBytesMoved(Operation *op) const {
    if (isa<arith::ConstantOp>(op))
      return 0;
    return operandAndResultBytes(op);
  }
};

/// Tensor ops move data and compute nothing; views and shape queries move
/// nothing either.
template <typename OpTy>
struct TensorCostModel
    : public CostOpInterface::ExternalModel<TensorCostModel<OpTy>, OpTy> {
  uint64_t getFlops(Operation *) const { return 0; }
  uint64_t getBytesMoved(Operation *op) const {
    if (isa<tensor::EmptyOp, tensor::CastOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp, tensor::DimOp, tensor::RankOp,
            tensor::ExtractOp, tensor::BitcastOp>(op))
      return 0;
    uint64_t bytes = 0;
    for (Value result : op->getResults())
      bytes += 2 * bytesOf(result); // read the source, write the result
    return bytes;
  }
};

/// TOSA: contractions by their multiply-accumulates, everything else one
/// operation per output element.
template <typename OpTy>
struct TosaCostModel
    : public CostOpInterface::ExternalModel<TosaCostModel<OpTy>, OpTy> {
  uint64_t getFlops(Operation *op) const {
    if (op->getNumResults() == 0)
      return 0;
    uint64_t outElements = elementsOf(op->getResult(0).getType());
    if (auto matmul = dyn_cast<tosa::MatMulOp>(op)) {
      // [N, H, C] x [N, C, W] -> [N, H, W]: C multiply-adds per output.
      auto a = dyn_cast<ShapedType>(matmul->getOperand(0).getType());
      if (!a || !a.hasStaticShape() || a.getRank() != 3)
        return 0;
      return 2 * outElements * a.getDimSize(2);
    }
    if (isa<tosa::Conv2DOp, tosa::Conv3DOp, tosa::DepthwiseConv2DOp,
            tosa::TransposeConv2DOp>(op)) {
      // Each output element reads a whole filter window: weight elements
      // divided by output channels.
      auto weight = dyn_cast<ShapedType>(op->getOperand(1).getType());
      if (!weight || !weight.hasStaticShape() || weight.getRank() < 1)
        return 0;
      uint64_t outChannels = weight.getDimSize(0);
      if (isa<tosa::DepthwiseConv2DOp>(op))
        outChannels = weight.getDimSize(2) * weight.getDimSize(3);
      if (outChannels == 0)
        return 0;
      return 2 * outElements * (weight.getNumElements() / outChannels);
    }
    if (isa<tosa::ConstOp, tosa::ReshapeOp, tosa::ConstShapeOp>(op))
      return 0;
    return outElements;
  }
  uint64_t getBytesMoved(Operation *op) const {
    if (isa<tosa::ConstOp, tosa::ReshapeOp, tosa::ConstShapeOp>(op))
      return 0;
    return operandAndResultBytes(op);
  }
};

/// ckpt.checkpoint is a marker (its result is its operand): nothing runs.
struct CheckpointCostModel
    : public CostOpInterface::ExternalModel<CheckpointCostModel, CheckpointOp> {
  uint64_t getFlops(Operation *) const { return 0; }
  uint64_t getBytesMoved(Operation *) const { return 0; }
};

template <template <typename> class Model, typename... Ops>
void attachAll(MLIRContext *context) {
  (Ops::template attachInterface<Model<Ops>>(*context), ...);
}

} // namespace

void ckpt::registerCostModelExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, linalg::LinalgDialect *) {
    attachAll<LinalgCostModel,
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
              >(context);
  });
  registry.addExtension(+[](MLIRContext *context, arith::ArithDialect *) {
    attachAll<ElementwiseCostModel,
#define GET_OP_LIST
#include "mlir/Dialect/Arith/IR/ArithOps.cpp.inc"
              >(context);
  });
  registry.addExtension(+[](MLIRContext *context, math::MathDialect *) {
    attachAll<ElementwiseCostModel,
#define GET_OP_LIST
#include "mlir/Dialect/Math/IR/MathOps.cpp.inc"
              >(context);
  });
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    attachAll<TensorCostModel,
#define GET_OP_LIST
#include "mlir/Dialect/Tensor/IR/TensorOps.cpp.inc"
              >(context);
  });
  registry.addExtension(+[](MLIRContext *context, CkptDialect *) {
    CheckpointOp::attachInterface<CheckpointCostModel>(*context);
  });
  registry.addExtension(+[](MLIRContext *context, tosa::TosaDialect *) {
    attachAll<TosaCostModel,
#define GET_OP_LIST
#include "mlir/Dialect/Tosa/IR/TosaOps.cpp.inc"
              >(context);
  });
}

//===----------------------------------------------------------------------===//
// Costs
//===----------------------------------------------------------------------===//

FailureOr<OpCost> ckpt::getOpCost(Operation *op, const DeviceProfile &device,
                                  const MeasuredProfile *profile) {
  if (auto attr = op->getAttrOfType<CostAttr>(kCostAttrName))
    return OpCost{attr.getFlops(), attr.getBytes(), attr.getSeconds(),
                  CostSource::Attribute};

  for (auto [kind, values] :
       {std::pair<StringRef, ValueRange>{"operand", op->getOperands()},
        std::pair<StringRef, ValueRange>{"result", op->getResults()}}) {
    for (auto [index, value] : llvm::enumerate(values)) {
      if (!getTypeBytes(value.getType())) {
        auto shaped = dyn_cast<ShapedType>(value.getType());
        if (shaped && shaped.hasStaticShape())
          return op->emitOpError("has an ")
                 << kind << " (#" << index << ": " << value.getType()
                 << ") of more than 2^50 bytes; the planner cannot size it";
        return op->emitOpError("has a dynamically shaped ")
               << kind << " (#" << index << ": " << value.getType()
               << "); the planner needs static shapes";
      }
    }
  }

  OpCost cost;
  if (auto work = op->getAttrOfType<WorkAttr>(kWorkAttrName)) {
    cost.flops = work.getFlops();
    cost.bytes = work.getBytes();
    cost.source = CostSource::Model;
  } else if (auto model = dyn_cast<CostOpInterface>(op)) {
    cost.flops = model.getFlops();
    cost.bytes = model.getBytesMoved();
    cost.source = CostSource::Model;
  } else {
    cost.bytes = operandAndResultBytes(op);
    cost.source = CostSource::Opaque;
  }
  cost.time = device.time(cost.flops, cost.bytes);
  if (profile) {
    if (std::optional<double> measured = profile->lookup(op)) {
      cost.time = *measured;
      cost.source = CostSource::Profile;
    }
  }
  return cost;
}

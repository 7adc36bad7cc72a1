//===- PipelinesTest.cpp - the pipelines without a pass registry ----------===//
//
// A host compiler that links ckpt but registers no pass by name (no
// registerPasses(), no upstream registerAllPasses()) can still build and run
// ckpt-remat-pipeline and ckpt-lower-to-cpu, and build ckpt-lower-to-nvptx:
// the builders create every pass through its typed constructor.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/InitCkpt.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

// Two tanh layers and a sum-of-squares loss; the gradient of %w. At its
// least feasible budget the plan recomputes.
const char *kStep = R"mlir(
func.func @tiny(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<f32>, tensor<8x8xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = math.tanh %h : tensor<4x8xf32>
  %b = math.tanh %a : tensor<4x8xf32>
  %sq = arith.mulf %b, %b : tensor<4x8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce ins(%sq : tensor<4x8xf32>) outs(%f0 : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) { %s = arith.addf %in, %acc : f32
                            linalg.yield %s : f32 }
  // Backward: d loss / d b = 2 b; d b / d a = 1 - b^2; d a / d h = 1 - a^2.
  %two = arith.addf %b, %b : tensor<4x8xf32>
  %bb = arith.mulf %b, %b : tensor<4x8xf32>
  %onet = linalg.fill ins(%one : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %db = arith.subf %onet, %bb : tensor<4x8xf32>
  %ga = arith.mulf %two, %db : tensor<4x8xf32>
  %aa = arith.mulf %a, %a : tensor<4x8xf32>
  %da = arith.subf %onet, %aa : tensor<4x8xf32>
  %gh = arith.mulf %ga, %da : tensor<4x8xf32>
  %ew = tensor.empty() : tensor<8x8xf32>
  %fw = linalg.fill ins(%zero : f32) outs(%ew : tensor<8x8xf32>) -> tensor<8x8xf32>
  %et = tensor.empty() : tensor<8x4xf32>
  %xt = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) permutation = [1, 0]
  %gw = linalg.matmul ins(%xt, %gh : tensor<8x4xf32>, tensor<4x8xf32>) outs(%fw : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %loss, %gw : tensor<f32>, tensor<8x8xf32>
}
)mlir";

class Pipelines : public ::testing::Test {
protected:
  Pipelines() {
    DialectRegistry registry;
    ckpt::registerTrainingStepDialects(registry);
    context.appendDialectRegistry(registry);
  }
  OwningOpRef<ModuleOp> parse() {
    return parseSourceString<ModuleOp>(kStep, &context);
  }
  std::string print(ModuleOp module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    return text;
  }
  MLIRContext context;
};

} // namespace

TEST_F(Pipelines, NothingIsRegisteredByName) {
  // The premise: this process knows no ckpt or upstream pass by name.
  EXPECT_EQ(PassInfo::lookup("ckpt-plan"), nullptr);
  EXPECT_EQ(PassInfo::lookup("one-shot-bufferize"), nullptr);
  EXPECT_EQ(PassPipelineInfo::lookup("ckpt-lower-to-cpu"), nullptr);
}

TEST_F(Pipelines, RematThenLowerToCPU) {
  OwningOpRef<ModuleOp> module = parse();
  ASSERT_TRUE(module);
  PassManager pm(&context);
  ckpt::RematPipelineOptions remat;
  remat.budget =
      ckpt::BudgetSpec{false, 512}; // the least feasible budget (78% of 656 B)
  ASSERT_TRUE(succeeded(ckpt::buildRematPipeline(pm, remat)));
  ASSERT_TRUE(succeeded(pm.run(*module)));
  std::string planned = print(*module);
  EXPECT_NE(planned.find("ckpt.recompute"), std::string::npos) << planned;
  EXPECT_NE(planned.find("ckpt.free"), std::string::npos);

  PassManager lower(&context);
  ckpt::LowerToCPUOptions cpu;
  ASSERT_TRUE(succeeded(ckpt::buildLowerToCPUPipeline(lower, cpu)));
  ASSERT_TRUE(succeeded(lower.run(*module)));
  std::string lowered = print(*module);
  EXPECT_NE(lowered.find("llvm.func @tiny"), std::string::npos) << lowered;
  EXPECT_NE(lowered.find("_mlir_memref_to_llvm_free"), std::string::npos);
  EXPECT_EQ(lowered.find("linalg."), std::string::npos);
  for (const char *op : {"ckpt.step", "ckpt.recompute", "ckpt.free"})
    EXPECT_EQ(lowered.find(op), std::string::npos) << op;
}

TEST_F(Pipelines, DeallocModesBuildDifferentPipelines) {
  std::string printed[3];
  ckpt::DeallocMode modes[] = {ckpt::DeallocMode::Ckpt,
                               ckpt::DeallocMode::Upstream,
                               ckpt::DeallocMode::None};
  for (int i = 0; i < 3; ++i) {
    PassManager pm(&context);
    ckpt::LowerToCPUOptions cpu;
    cpu.dealloc = modes[i];
    ASSERT_TRUE(succeeded(ckpt::buildLowerToCPUPipeline(pm, cpu)));
    llvm::raw_string_ostream os(printed[i]);
    pm.printAsTextualPipeline(os);
  }
  EXPECT_NE(printed[0].find("ckpt-lower-frees{erase-only=false"),
            std::string::npos)
      << printed[0];
  EXPECT_NE(printed[1].find("ownership-based-buffer-deallocation"),
            std::string::npos)
      << printed[1];
  EXPECT_NE(printed[2].find("ckpt-lower-frees{erase-only=true"),
            std::string::npos);
  EXPECT_EQ(printed[2].find("ownership-based-buffer-deallocation"),
            std::string::npos);
}

TEST_F(Pipelines, LowerToNVPTXBuilds) {
  PassManager pm(&context);
  ckpt::LowerToNVPTXOptions nvptx;
  nvptx.math = ckpt::MathMode::Approx;
  nvptx.format = ckpt::GPUFormat::Isa;
  ASSERT_TRUE(succeeded(ckpt::buildLowerToNVPTXPipeline(pm, nvptx)));
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  for (const char *pass :
       {"gpu-kernel-outlining", "nvvm-attach-target", "convert-gpu-to-nvvm",
        "gpu-to-llvm", "ckpt-gpu-module-to-binary"})
    EXPECT_NE(text.find(pass), std::string::npos) << pass << " in " << text;
}

// ckpt-remat-pipeline's options are ckpt-plan's (generated from Passes.td):
// the same names with the same defaults, and every value set on the
// pipeline reaches the plan pass it builds.
TEST_F(Pipelines, RematOptionsAreThePlanPassOptions) {
  std::string plan;
  {
    llvm::raw_string_ostream os(plan);
    ckpt::createPlanPass()->printAsTextualPipeline(os);
  }
  std::string remat;
  {
    llvm::raw_string_ostream os(remat);
    ckpt::RematPipelineOptions().print(os);
  }
  // "ckpt-plan{a=1 b=2}" and "{a=1 b=2}": compare what is inside the braces.
  auto inside = [](const std::string &text) {
    size_t open = text.find('{'), close = text.rfind('}');
    return open == std::string::npos ? std::string()
                                     : text.substr(open + 1, close - open - 1);
  };
  EXPECT_FALSE(inside(plan).empty()) << plan;
  EXPECT_EQ(inside(remat), inside(plan))
      << "pipeline: " << remat << "\npass:     " << plan;

  ckpt::RematPipelineOptions options;
  options.budget = ckpt::BudgetSpec{true, 70};
  options.strategy = ckpt::sched::PlanStrategy{ckpt::sched::StrategyKind::Keep};
  options.slots = ckpt::NonNegativeCount{7};
  options.device = ckpt::Device::CPU;
  options.profile = "my times.json"; // a space: the value is quoted
  options.fit = ckpt::FitMode::Model;
  options.timeLimit = ckpt::PositiveSeconds{2.5};
  options.nodeLimit = ckpt::NonNegativeCount{100};
  options.ilpMemory = ckpt::MemoryLimitSpec{{false, 2147483648.0}}; // 2 GiB
  options.allowNoStep = true;
  options.offload = ckpt::OffloadMode::Auto;
  options.repeatedBlocks = false;
  PassManager pm(&context);
  ASSERT_TRUE(succeeded(ckpt::buildRematPipeline(pm, options)));
  std::string built;
  {
    llvm::raw_string_ostream os(built);
    pm.printAsTextualPipeline(os);
  }
  const char *expected = "ckpt-plan{allow-no-step=true budget=70% "
                         "device=cpu fit=model ilp-memory=2147483648 "
                         "node-limit=100 offload=auto "
                         "profile={my times.json} repeated-blocks=false "
                         "slots=7 "
                         "strategy=keep time-limit=2.5}";
  EXPECT_NE(built.find(expected), std::string::npos) << built;
}

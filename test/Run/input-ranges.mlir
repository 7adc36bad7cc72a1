// An integer argument with `ckpt.range = array<i64: LO, HI>` (the importer
// puts [0, vocab) on token ids, [0, classes) on class targets) gets inputs
// drawn in [LO, HI) by ckpt-run: LO + bits % (HI - LO) of the same splitmix64
// stream, instead of [-8, 8]. ckpt-prepare-entry moves the argument ranges
// onto the function as `ckpt.input_ranges` (argument attributes do not
// survive the lowering to the LLVM dialect); a step through the remat
// pipeline keeps them (wrap-step and unwrap-step carry argument attributes).
//
// REQUIRES: ckpt-run
// RUN: ckpt-opt %s --ckpt-prepare-entry | FileCheck %s --check-prefix=PREPARED
// PREPARED-LABEL: func.func @ids(
// PREPARED-SAME: %arg0: tensor<64xi64>, %arg1: tensor<3xf32>, %arg2: tensor<64xi32>)
// PREPARED-SAME: ckpt.input_ranges = [array<i64: 1000, 1003>, array<i64>, array<i64: -2, 0>]
// RUN: ckpt-opt %s --ckpt-remat-pipeline --ckpt-lower-to-cpu -o %t.mlir
// RUN: ckpt-run %t.mlir --entry=ids --seed=3 --print-outputs > %t.json
// RUN: %ckpt_python -c "import json,sys; o=json.load(open(sys.argv[1]))['outputs']; a=o[1]['values']; b=o[2]['values']; print('ids', sorted(set(a)), 'neg', sorted(set(b)), 'n', len(a), len(b))" %t.json | FileCheck %s
// With 64 draws each, every value of each range turns up.
// CHECK: ids [1000, 1001, 1002] neg [-2, -1] n 64 64
// Without the attribute the same argument gets [-8, 8].
// RUN: sed -e 's/ {ckpt.range = array<i64: 1000, 1003>}//' -e 's/ {ckpt.range = array<i64: -2, 0>}//' %s | ckpt-opt --ckpt-remat-pipeline --ckpt-lower-to-cpu -o %t.plain.mlir
// RUN: ckpt-run %t.plain.mlir --entry=ids --seed=3 --print-outputs > %t.plain.json
// RUN: %ckpt_python -c "import json,sys; a=json.load(open(sys.argv[1]))['outputs'][1]['values']; print('plain', min(a) >= -8 and max(a) <= 8 and min(a) < 0)" %t.plain.json | FileCheck %s --check-prefix=PLAIN
// PLAIN: plain True
func.func @ids(%ids: tensor<64xi64> {ckpt.range = array<i64: 1000, 1003>},
               %x: tensor<3xf32>,
               %neg: tensor<64xi32> {ckpt.range = array<i64: -2, 0>})
    -> (tensor<f32>, tensor<64xi64>, tensor<64xi32>) attributes {ckpt.loss = 0 : i64} {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c, %ids, %neg : tensor<f32>, tensor<64xi64>, tensor<64xi32>
}

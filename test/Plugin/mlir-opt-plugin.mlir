// Debian's stock mlir-opt runs our passes on our dialect through the plugin:
// "plug ckpt into an existing MLIR compiler", tested with a real one.
// UNSUPPORTED: asan
// (In a sanitizer build CkptPlugin.so needs the ASan runtime loaded first, which
// the uninstrumented stock mlir-opt does not do: it cannot be dlopen'ed there.)
// RUN: %mlir_opt --load-dialect-plugin=%ckpt_plugin --load-pass-plugin=%ckpt_plugin \
// RUN:   -p 'builtin.module(ckpt-wrap-step)' %s | FileCheck %s
// Options go through the pipeline syntax; the round trip restores the input.
// RUN: %mlir_opt --load-dialect-plugin=%ckpt_plugin --load-pass-plugin=%ckpt_plugin \
// RUN:   -p 'builtin.module(ckpt-wrap-step{func=step loss-index=1},ckpt-unwrap-step)' %s \
// RUN:   | FileCheck %s --check-prefix=BACK
// The plugin's passes are listed by mlir-opt --help.
// RUN: %mlir_opt --load-dialect-plugin=%ckpt_plugin --load-pass-plugin=%ckpt_plugin --help \
// RUN:   | FileCheck %s --check-prefix=HELP
// The last check of a host pipeline, after its own bufferization, runs in the
// stock tool too (the allocations are counted as test/Transforms/check-peak.mlir
// shows by hand).
// RUN: not %mlir_opt --load-dialect-plugin=%ckpt_plugin --load-pass-plugin=%ckpt_plugin \
// RUN:   -p 'builtin.module(func.func(ckpt-check-peak{remark=true}))' \
// RUN:   %S/../Transforms/check-peak.mlir -split-input-file -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PEAK
// PEAK: remark: ckpt-check-peak: peak 80 B within the budget of 80 B
// PEAK: error: this allocation brings the step's live buffers to 80 B, over the budget of 79 B
// Without the plugin, mlir-opt knows no ckpt dialect.
// RUN: not %mlir_opt %s -p 'builtin.module(ckpt-wrap-step)' 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK-LABEL: ckpt.step @step(
// CHECK:         %[[S:.*]] = arith.mulf
// CHECK:         ckpt.return %{{.*}}, %[[S]] : tensor<2xf32>, f32 loss(1)
// BACK-LABEL: func.func @step(
// BACK-SAME:     attributes {ckpt.loss = 1 : i64}
// BACK:         return %{{.*}}, %{{.*}} : tensor<2xf32>, f32
// HELP-DAG: --ckpt-wrap-step
// HELP-DAG: --ckpt-unwrap-step
// HELP-DAG: --ckpt-plan
// HELP-DAG: --ckpt-report
// HELP-DAG: --ckpt-check-peak
// NOPLUGIN: 'ckpt-wrap-step' does not refer to a registered pass or pass pipeline
func.func @step(%x: tensor<2xf32>, %a: f32) -> (tensor<2xf32>, f32) attributes {ckpt.loss = 1 : i64} {
  %s = arith.mulf %a, %a : f32
  return %x, %s : tensor<2xf32>, f32
}

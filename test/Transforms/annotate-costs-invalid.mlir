// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-annotate-costs
// RUN: not ckpt-opt %s --ckpt-annotate-costs="device=tpu" 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not ckpt-opt %s --ckpt-annotate-costs="profile=%S/Inputs/missing.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not ckpt-opt %s --ckpt-annotate-costs="profile=%S/Inputs/profile-corrupt.json" 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: not ckpt-opt %s --ckpt-annotate-costs="profile=%S/Inputs/profile-negative.json" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not ckpt-opt %s --ckpt-annotate-costs="profile=%S/Inputs/profile-array.json" 2>&1 | FileCheck %s --check-prefix=ARRAY
// DEVICE: for the --device option: 'tpu' is not a valid value: expected h100, a100, v100, cpu or gh200
// MISSING: error: cannot read profile '{{.*}}missing.json': No such file or directory
// CORRUPT: error: profile '{{.*}}profile-corrupt.json':1:25: {{.*}}
// NEGATIVE: error: profile '{{.*}}profile-negative.json': time of 'math.exp' must be a non-negative number of seconds
// ARRAY: error: profile '{{.*}}profile-array.json' must be a JSON object mapping an op name or location to seconds

ckpt.step @dynamic(%v: tensor<?xf32>, %l: f32) -> (f32, tensor<?xf32>) {
  // expected-error @+1 {{'math.exp' op has a dynamically shaped operand (#0: 'tensor<?xf32>'); the planner needs static shapes}}
  %x = math.exp %v : tensor<?xf32>
  ckpt.return %l, %x : f32, tensor<?xf32> loss(0)
}

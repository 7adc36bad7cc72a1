// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-print-analysis -o /dev/null

// Phase split, activations and the memory of the written order, by hand.
// Buffers are rounded up to 16 B, as the CPU lowering allocates them.
//   %a = exp(x)      forward (loss <- %l <- %b <- %a); backward cos reads it: activation
//   %b = sin(a)      forward; backward mulf reads it: activation
//   %l = slice(b)    forward: the loss, a view of %b's buffer (one-shot
//                    bufferization makes it a memref.subview), which keeps
//                    that buffer to the end, since the step returns it
//   %g1 = cos(a)     backward
//   %g = g1 * b      backward, returned: live to the end
// An elementwise op writes in place into its first operand when that dies
// there: %g1 into %a's buffer (cos is a's last use), %g into it too.
// Buffers (16 B each): {a, g1, g} [#0,end], {b, l} [#1,end].
// Live while running: #0 16, #1 32, #2 32, #3 32, #4 32.
// expected-remark @+1 {{forward ops: 3, backward ops: 2, activations: 2 (32 B), peak 32 B at #1}}
ckpt.step @tiny(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  // expected-remark @+1 {{#0 forward, activation, allocates 16 B, live 16 B}}
  %a = math.exp %x : tensor<4xf32>
  // expected-remark @+1 {{#1 forward, activation, allocates 16 B, live 32 B}}
  %b = math.sin %a : tensor<4xf32>
  // expected-remark @+1 {{#2 forward, allocates 0 B, live 32 B}}
  %l = tensor.extract_slice %b[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  // expected-remark @+1 {{#3 backward, allocates 0 B, live 32 B}}
  %g1 = math.cos %a : tensor<4xf32>
  // expected-remark @+1 {{#4 backward, allocates 0 B, live 32 B}}
  %g = arith.mulf %g1, %b : tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// Destination-passing style writes in place when nothing later reads the
// init: %f reuses %e's buffer and %s reuses %f's. %t cannot reuse %e2's
// buffer because %u reads %e2 after it, so it gets one of its own; %u then
// writes in place into %e2. Scalars (%c) are no buffers; the checkpoint is a
// view of %s (and never recomputed), and so is the slice %l of it, which the
// step returns: E lives to the end. A tensor.empty carries no data.
// Buffers: E = {e, f, s, k, l} [#1,end], E2 = {e2, u} [#4,end], T [#5,#8].
// Live: #1 16, #2 16, #3 16, #4 32, #5 48, #6 48, #7 48, #8 48.
// expected-remark @+1 {{forward ops: 6, backward ops: 3, activations: 0 (0 B), peak 48 B at #5}}
ckpt.step @in_place(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  // expected-remark @+1 {{#0 forward, allocates 0 B, live 0 B}}
  %c = arith.constant 1.0 : f32
  // expected-remark @+1 {{#1 forward, allocates 16 B, live 16 B}}
  %e = tensor.empty() : tensor<4xf32>
  // expected-remark @+1 {{#2 forward, allocates 0 B, live 16 B}}
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-remark @+1 {{#3 forward, allocates 0 B, live 16 B}}
  %s = linalg.add ins(%x, %f : tensor<4xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>) -> tensor<4xf32>
  // expected-remark @+1 {{#4 backward, allocates 16 B, live 32 B}}
  %e2 = tensor.empty() : tensor<4xf32>
  // expected-remark @+1 {{#5 backward, allocates 16 B, live 48 B}}
  %t = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  // expected-remark @+1 {{#6 forward, not recomputable, allocates 0 B, live 48 B}}
  %k = ckpt.checkpoint %s : tensor<4xf32>
  // expected-remark @+1 {{#7 forward, allocates 0 B, live 48 B}}
  %l = tensor.extract_slice %k[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  // expected-remark @+1 {{#8 backward, allocates 0 B, live 48 B}}
  %u = linalg.sub ins(%t, %e2 : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  ckpt.return %l, %u : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// A backward op that only writes into a forward tensor.empty does not read
// it: the empty is no activation. %h is read by the backward mul: it is one.
// Buffers: E [#0,end] (%e is the init of #1 and #3: %h cannot take it, %b
// does, in place, and is returned), {h, l} [#1,end] (the returned slice %l
// is a view of %h's buffer).
// Live: #0 16, #1 32, #2 32, #3 32.
// expected-remark @+1 {{forward ops: 3, backward ops: 1, activations: 1 (16 B), peak 32 B at #1}}
ckpt.step @empty_is_no_activation(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  // expected-remark @+1 {{#0 forward, allocates 16 B, live 16 B}}
  %e = tensor.empty() : tensor<4xf32>
  // expected-remark @+1 {{#1 forward, activation, allocates 16 B, live 32 B}}
  %h = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-remark @+1 {{#2 forward, allocates 0 B, live 32 B}}
  %l = tensor.extract_slice %h[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  // expected-remark @+1 {{#3 backward, allocates 0 B, live 32 B}}
  %b = linalg.mul ins(%h, %h : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  ckpt.return %l, %b : tensor<1xf32>, tensor<4xf32> loss(0)
}

// A step that reads a table at an index taken from an integer input with no
// bound (what the importer's embedding lowering did before it clamped): an
// out-of-range id reads outside the table. asan-gather.test runs it under
// AddressSanitizer to show that the harness sees such a read.
func.func @gather(%ids: tensor<4xi64>, %table: tensor<8xf32>) -> tensor<f32>
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
                         iterator_types = ["reduction"]}
      ins(%ids : tensor<4xi64>) outs(%acc : tensor<f32>) {
  ^bb0(%id: i64, %out: f32):
    %k = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%k] : tensor<8xf32>
    %s = arith.addf %out, %v : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %sum : tensor<f32>
}

"""The text steps of the foreign routes (ckpt.host_passes, ckpt.iree_route)
that need no tool: the end-to-end runs are test/Pipelines/host-passes.test,
test/Run/iree-route.test and test/Run/torch-mlir-route.test."""

from ckpt import host_passes


def test_refusals_are_the_documented_errors():
    assert host_passes._refusal(
        "f.mlir:3:4: error: the step now peaks at 128 B here, over the budget of 127 B "
        "it was rematerialized for") == "insert-frees"
    assert host_passes._refusal(
        "f.mlir:3:4: error: this allocation brings the step's live buffers to 80 B, "
        "over the budget of 79 B (...)") == "check-peak"
    assert host_passes._refusal("f.mlir:1:1: error: 'ckpt.free' op frees a value that is "
                                "used after it is freed") == "verifier"
    # Anything else is not a refusal: the case fails.
    assert host_passes._refusal("f.mlir:1:1: error: custom op 'x' is unknown") is None


def test_random_mixes_are_host_passes():
    import random
    rng = random.Random(0)
    for _ in range(50):
        mix = host_passes.random_mix(rng)
        assert 1 <= len(mix) <= 4
        assert set(mix) <= set(host_passes.HOST_PASSES)


def test_barriers_on_the_tensor_inputs_of_each_region():
    from ckpt import iree_route
    text = (
        "    %r:2 = ckpt.recompute(%cst, %a, %b) : (f32, tensor<4x4xf32>, tensor<4xf32>) "
        "-> (tensor<4xf32>, tensor<4xf32>) {\n"
        "    ^bb0(%x: f32, %y: tensor<4x4xf32>, %z: tensor<4xf32>):\n"
        "    %s = ckpt.recompute() : () -> tensor<2xf32> {\n")
    out, n = iree_route.add_barriers(text)
    assert n == 2
    lines = out.splitlines()
    assert lines[0] == ('    %ckpt_barrier0 = "util.optimization_barrier"(%a) : '
                        '(tensor<4x4xf32>) -> tensor<4x4xf32>')
    assert lines[1] == ('    %ckpt_barrier1 = "util.optimization_barrier"(%b) : '
                        '(tensor<4xf32>) -> tensor<4xf32>')
    # The scalar passes as it is; a region without inputs gets nothing.
    assert lines[2].startswith("    %r:2 = ckpt.recompute(%cst, %ckpt_barrier0, %ckpt_barrier1) :")
    assert lines[4] == "    %s = ckpt.recompute() : () -> tensor<2xf32> {"

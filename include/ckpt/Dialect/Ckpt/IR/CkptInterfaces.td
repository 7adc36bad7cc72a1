//===- CkptInterfaces.td - ckpt op interfaces --------------*- tablegen -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTINTERFACES_TD
#define CKPT_DIALECT_CKPT_IR_CKPTINTERFACES_TD

include "mlir/IR/OpBase.td"

def Ckpt_CostOpInterface : OpInterface<"CostOpInterface"> {
  let description = [{
    The device-independent work of one execution of an op: floating-point
    operations and bytes read plus written. The planner turns it into time
    with a roofline over a device profile (`ckpt::DeviceProfile`). ckpt
    attaches external models to linalg, tensor, arith, math and tosa ops and
    to `ckpt.checkpoint` (a marker: no work);
    other dialects may implement the interface for their own ops. An op with
    neither the interface nor a `ckpt.cost` attribute is opaque: it is costed
    by the bytes of its tensor operands and results, with no flops.
  }];
  let cppNamespace = "::ckpt";
  let methods = [
    InterfaceMethod<
      /*desc=*/"Floating-point operations of one execution.",
      /*retTy=*/"uint64_t", /*methodName=*/"getFlops">,
    InterfaceMethod<
      /*desc=*/"Bytes read and written by one execution.",
      /*retTy=*/"uint64_t", /*methodName=*/"getBytesMoved">,
  ];
}

#endif // CKPT_DIALECT_CKPT_IR_CKPTINTERFACES_TD

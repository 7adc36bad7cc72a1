//===- PassOptions.cpp - closed-set options of ckpt passes ----------------===//

#include "ckpt/Transforms/PassOptions.h"

using namespace ckpt;

llvm::StringRef ckpt::stringify(Device value) {
  switch (value) {
  case Device::H100:
    return "h100";
  case Device::A100:
    return "a100";
  case Device::V100:
    return "v100";
  case Device::CPU:
    return "cpu";
  }
  return "h100";
}

llvm::StringRef ckpt::stringify(GPUFormat value) {
  switch (value) {
  case GPUFormat::Isa:
    return "isa";
  case GPUFormat::Bin:
    return "bin";
  case GPUFormat::Fatbin:
    return "fatbin";
  }
  return "fatbin";
}

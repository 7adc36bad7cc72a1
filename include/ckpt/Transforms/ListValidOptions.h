//===- ListValidOptions.h - name the valid options of a pass ----*- C++ -*-===//
//
// MLIR's option parser answers a misspelled pass option with "no such option
// budgt" and nothing else. ListValidOptions<Base> wraps a pass's ODS base
// class so that this error also lists the options the pass has:
//
//   struct PlanPass
//       : public ckpt::ListValidOptions<ckpt::impl::PlanPassBase<PlanPass>> {
//     using ListValidOptions::ListValidOptions;
//     ...
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_LISTVALIDOPTIONS_H
#define CKPT_TRANSFORMS_LISTVALIDOPTIONS_H

#include "mlir/Pass/Pass.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace ckpt {

/// The option names of `pass`, comma separated, from its textual form
/// (`name{opt1=... opt2=...}`); empty when it has none.
std::string listPassOptions(mlir::Pass &pass);

template <typename Base> class ListValidOptions : public Base {
public:
  using Base::Base;

  llvm::LogicalResult
  initializeOptions(llvm::StringRef options,
                    llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)>
                        errorHandler) override {
    return Base::initializeOptions(options, [&](const llvm::Twine &message) {
      std::string text = message.str();
      if (llvm::StringRef(text).contains("no such option")) {
        text = llvm::StringRef(text).rtrim().str();
        std::string names = listPassOptions(*this);
        text += names.empty()
                    ? " ('" + this->getArgument().str() + "' has no options)"
                    : " (the options of '" + this->getArgument().str() +
                          "' are: " + names + ")";
      }
      return errorHandler(text);
    });
  }
};

} // namespace ckpt

#endif // CKPT_TRANSFORMS_LISTVALIDOPTIONS_H

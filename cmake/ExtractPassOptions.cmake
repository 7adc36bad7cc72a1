# Writes the option declarations of one pass, as mlir-tblgen generated them in
# its PassBase class (one `::mlir::Pass::Option<...> name{*this, ...};` per
# line), as members of a PassPipelineOptions struct: `Option<...>` instead of
# `::mlir::Pass::Option<...>`. So a pipeline's options are the pass's own,
# derived from Passes.td at build time, never a hand copy.
#
#   cmake -DINPUT=Passes.h.inc -DPASS=PlanPass -DOUTPUT=PlanPassOptions.inc \
#         -P ExtractPassOptions.cmake
#
# Strings are searched whole (never split into CMake lists, which would break
# at the semicolons of the declarations).
file(READ "${INPUT}" text)
string(FIND "${text}" "class ${PASS}Base " start)
if(start EQUAL -1)
  message(FATAL_ERROR "${INPUT} declares no ${PASS}Base")
endif()
string(SUBSTRING "${text}" ${start} -1 text)
string(FIND "${text}" "\nprotected:\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "${PASS}Base in ${INPUT} has no options (no 'protected:')")
endif()
math(EXPR start "${start} + 12")
string(SUBSTRING "${text}" ${start} -1 text)
string(FIND "${text}" "\nprivate:" end)
string(SUBSTRING "${text}" 0 ${end} text)
string(REPLACE "::mlir::Pass::Option<" "Option<" text "${text}")
string(REPLACE "::mlir::Pass::ListOption<" "ListOption<" text "${text}")
set(header "// The options of ${PASS}, extracted from ${INPUT} by\n// cmake/ExtractPassOptions.cmake. Do not edit.\n")
# Rewrite only when the content changes (no needless rebuilds).
set(content "${header}${text}\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")

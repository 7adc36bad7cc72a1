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
# And a typed copy into the pass's own options struct (${PASS}Options, member
# by member), so that a pipeline hands its options to the pass as they are,
# with no printing and parsing in between.
string(REGEX MATCHALL "> [A-Za-z_][A-Za-z0-9_]*{\\*this" declared "${text}")
set(copies "")
foreach(match IN LISTS declared)
  string(REGEX REPLACE "> ([A-Za-z_][A-Za-z0-9_]*){\\*this" "\\1" name "${match}")
  string(APPEND copies "    options.${name} = ${name};\n")
endforeach()
if(copies STREQUAL "")
  message(FATAL_ERROR "no options found in ${PASS}Base of ${INPUT}")
endif()
set(copy "\n  /// These options as ${PASS}Options, for create${PASS}.\n  template <typename PassOptionsT> PassOptionsT asPassOptions() const {\n    PassOptionsT options;\n${copies}    return options;\n  }")
set(header "// The options of ${PASS}, extracted from ${INPUT} by\n// cmake/ExtractPassOptions.cmake. Do not edit.\n")
# Rewrite only when the content changes (no needless rebuilds).
set(content "${header}${text}\n${copy}\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")

# How graphbench keeps its build short (docs/building.md has the measurements behind each choice).
#
# - Precompiled headers, one per kind of target: LibTorch's ATen (with fmt and nlohmann/json) for
#   every target that uses LibTorch, fmt and nlohmann/json for the torch-free ones. Each is built
#   once, by a small target of its own, and reused by the others: every consumer must compile
#   with the same flags that matter to GCC (-O1 or higher, the same defines in the headers), which
#   graphbench_compile_like() guarantees. The heavy LibTorch headers (torch/torch.h, the
#   TorchScript and c10d headers) are NOT in it: the few files that need them include them,
#   and loading a precompiled torch/torch.h (570 MB) costs every file 6 s on our machines, where
#   ATen's costs about 1 s.
# - Unity builds: the files of a target are compiled a few at a time as one translation unit,
#   so each batch pays for LibTorch's templates once. Batches stay small enough that touching one
#   file rebuilds a few seconds of work, not a whole library.
# - Optimisation where it pays: the engine, the workloads and the data-parallel code run the timed
#   steps (-O2); the torch-free library (suite files, writers, compare), the CLI and the tests
#   parse, format and check (-Og: faster to compile, still debuggable). Release builds only; other
#   build types keep CMake's flags.

option(GRAPHBENCH_USE_PCH "Precompile the ATen, fmt and nlohmann/json headers (much faster builds)" ON)
option(GRAPHBENCH_UNITY_BUILD "Compile each target's files a few at a time as one unit (faster builds)" ON)
set(GRAPHBENCH_UNITY_BATCH 12 CACHE STRING "Files per unity batch (GRAPHBENCH_UNITY_BUILD)")

# Release: the optimisation level is set per target below, so drop CMake's global -O3.
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  string(REGEX REPLACE "(^| )-O[0-9s]( |$)" " " CMAKE_CXX_FLAGS_RELEASE "${CMAKE_CXX_FLAGS_RELEASE}")
  set(_graphbench_per_target_optimisation ON)
else()
  set(_graphbench_per_target_optimisation OFF)
endif()

# The two header sets. A consumer includes nothing else before them (CMake's -include comes first).
set(GRAPHBENCH_PCH_TORCH_HEADERS <ATen/ATen.h> <fmt/format.h> <nlohmann/json.hpp> <functional> <map> <memory>
    <optional> <string> <vector>)
set(GRAPHBENCH_PCH_CORE_HEADERS <fmt/format.h> <nlohmann/json.hpp> <functional> <map> <memory> <optional>
    <string> <vector>)

# graphbench_compile_like(TARGET hot|plumbing torch|core|none)
#   hot       -O2: code that runs while steps are timed
#   plumbing  -Og: code that reads, writes, checks and reports
#   torch     the target uses LibTorch: links graphbench_torch, reuses the ATen header set
#   core      torch-free: reuses the fmt / nlohmann header set
#   none      no precompiled header (a target that includes neither set, and would be compiled
#             with other definitions than the header was: GCC then ignores it with a warning)
function(graphbench_compile_like target speed kind)
  if(_graphbench_per_target_optimisation)
    if(speed STREQUAL "hot")
      target_compile_options(${target} PRIVATE -O2)
    else()
      target_compile_options(${target} PRIVATE -Og)
    endif()
  endif()
  if(GRAPHBENCH_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH
                                               UNITY_BUILD_BATCH_SIZE ${GRAPHBENCH_UNITY_BATCH})
  endif()
  if(GRAPHBENCH_USE_PCH AND NOT kind STREQUAL "none")
    if(kind STREQUAL "torch")
      target_precompile_headers(${target} REUSE_FROM graphbench_pch_torch)
    else()
      target_precompile_headers(${target} REUSE_FROM graphbench_pch_core)
    endif()
  endif()
  graphbench_set_warnings(${target})
endfunction()

# graphbench_unity_together(TARGET TOGETHER FILE... [TOGETHER FILE...])
#   Files that parse the same heavy headers (TorchScript's, torch::nn's) each cost a unity batch
#   several seconds of parsing: each TOGETHER set becomes one unit of its own, so those headers are
#   parsed once, and the target's other files, in their order, are shared out evenly between as few
#   batches as GRAPHBENCH_UNITY_BATCH files each allows (a file marked SKIP_UNITY_BUILD_INCLUSION
#   stays alone). Call it after graphbench_compile_like(); FILEs as in the target's sources.
function(graphbench_unity_together target)
  if(NOT GRAPHBENCH_UNITY_BUILD)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  set(grouped "")
  set(group -1)
  foreach(arg IN LISTS ARGN)
    if(arg STREQUAL "TOGETHER")
      math(EXPR group "${group} + 1")
      continue()
    endif()
    get_filename_component(file "${arg}" ABSOLUTE)
    if(NOT file IN_LIST sources)
      message(FATAL_ERROR "graphbench_unity_together: ${arg} is not a source of ${target}")
    endif()
    set_source_files_properties(${file} PROPERTIES UNITY_GROUP "together_${group}")
    list(APPEND grouped ${file})
  endforeach()
  set(rest "")
  foreach(file IN LISTS sources)
    get_source_file_property(alone ${file} SKIP_UNITY_BUILD_INCLUSION)
    if(file MATCHES "\\.cpp$" AND NOT alone AND NOT file IN_LIST grouped)
      list(APPEND rest ${file})
    endif()
  endforeach()
  list(LENGTH rest count)
  # As many batches as GRAPHBENCH_UNITY_BATCH gives, the files shared out evenly between them.
  math(EXPR batches "(${count} + ${GRAPHBENCH_UNITY_BATCH} - 1) / ${GRAPHBENCH_UNITY_BATCH}")
  set(index 0)
  foreach(file IN LISTS rest)
    math(EXPR batch "${index} * ${batches} / ${count}")
    set_source_files_properties(${file} PROPERTIES UNITY_GROUP "batch_${batch}")
    math(EXPR index "${index} + 1")
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD_MODE GROUP)
endfunction()

# The targets that build the precompiled headers: each compiles one empty file with the flags of
# its consumers (-O2 is compatible with the -Og of plumbing: GCC requires only that both optimise).
if(GRAPHBENCH_USE_PCH)
  set(_graphbench_pch_source ${CMAKE_CURRENT_LIST_DIR}/pch_host.cpp)
  add_library(graphbench_pch_torch OBJECT ${_graphbench_pch_source})
  target_link_libraries(graphbench_pch_torch PUBLIC graphbench_torch ${GRAPHBENCH_FMT} nlohmann_json::nlohmann_json)
  target_precompile_headers(graphbench_pch_torch PRIVATE ${GRAPHBENCH_PCH_TORCH_HEADERS})
  add_library(graphbench_pch_core OBJECT ${_graphbench_pch_source})
  target_link_libraries(graphbench_pch_core PUBLIC ${GRAPHBENCH_FMT} nlohmann_json::nlohmann_json)
  target_precompile_headers(graphbench_pch_core PRIVATE ${GRAPHBENCH_PCH_CORE_HEADERS})
  if(_graphbench_per_target_optimisation)
    target_compile_options(graphbench_pch_torch PRIVATE -O2)
    target_compile_options(graphbench_pch_core PRIVATE -O2)
  endif()
endif()

# All third-party resolution lives here. Nothing is downloaded: every package comes from
# find_package (Debian packages on the CPU machine; Torch_DIR / CMAKE_PREFIX_PATH elsewhere).

find_package(nlohmann_json 3.9 REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)
find_package(Torch REQUIRED)

# LibTorch built with CUDA lists its CUDA libraries; the CPU-only build (Debian's 1.13) does not.
if(TORCH_CUDA_LIBRARIES OR C10_CUDA_LIBRARY)
  set(_graphbench_torch_has_cuda ON)
else()
  set(_graphbench_torch_has_cuda OFF)
endif()
option(GRAPHBENCH_WITH_CUDA "Compile the CUDA paths (capture, replay, CUDA events)" ${_graphbench_torch_has_cuda})
if(GRAPHBENCH_WITH_CUDA AND NOT _graphbench_torch_has_cuda)
  message(FATAL_ERROR "GRAPHBENCH_WITH_CUDA=ON but the LibTorch at ${Torch_DIR} was built without CUDA")
endif()
if(GRAPHBENCH_WITH_CUDA)
  find_package(CUDAToolkit REQUIRED)
endif()
message(STATUS "graphbench: LibTorch ${Torch_VERSION} at ${Torch_DIR}, CUDA paths: ${GRAPHBENCH_WITH_CUDA}")

# Torch's own interface target plus its required flags (ABI, defines), applied to every target
# that includes a LibTorch header.
add_library(graphbench_torch INTERFACE)
target_link_libraries(graphbench_torch INTERFACE ${TORCH_LIBRARIES})
separate_arguments(_graphbench_torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
target_compile_options(graphbench_torch INTERFACE ${_graphbench_torch_flags})
if(GRAPHBENCH_WITH_CUDA)
  target_compile_definitions(graphbench_torch INTERFACE GRAPHBENCH_WITH_CUDA=1)
  # NVML is opened at run time (dlopen), so only its header is needed.
  target_link_libraries(graphbench_torch INTERFACE CUDA::cudart ${CMAKE_DL_LIBS})
endif()

# LibTorch ships fmt headers of its own in some releases: make sure ours (the system's) win by
# using fmt header-only through its own target, listed before Torch in every link line.
if(TARGET fmt::fmt-header-only)
  set(GRAPHBENCH_FMT fmt::fmt-header-only)
else()
  set(GRAPHBENCH_FMT fmt::fmt)
endif()

if(GRAPHBENCH_BUILD_TESTS)
  find_package(Catch2 REQUIRED)
  if(Catch2_VERSION VERSION_GREATER_EQUAL 3)
    set(GRAPHBENCH_CATCH2_MAJOR 3)
  else()
    set(GRAPHBENCH_CATCH2_MAJOR 2)
  endif()
  message(STATUS "graphbench: Catch2 ${Catch2_VERSION}")
endif()

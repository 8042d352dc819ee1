# All third-party resolution lives here. Nothing is downloaded: every package comes from
# find_package (Debian packages on the CPU machine; Torch_DIR / CMAKE_PREFIX_PATH elsewhere).

find_package(nlohmann_json 3.9 REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)

# TorchConfig.cmake looks for some of LibTorch's own libraries (c10, c10_cuda, torch) in the
# system's library directories before its own: with Debian's libtorch-dev installed beside the
# LibTorch named by Torch_DIR or CMAKE_PREFIX_PATH (PyTorch's wheel, say), the build would link
# Debian's libc10 against the wheel's headers. Look in the named LibTorch first.
find_file(_graphbench_torch_config TorchConfig.cmake
          PATHS ${Torch_DIR} ${CMAKE_PREFIX_PATH} PATH_SUFFIXES "" Torch share/cmake/Torch NO_DEFAULT_PATH)
if(_graphbench_torch_config)
  get_filename_component(_graphbench_torch_prefix "${_graphbench_torch_config}/../../../.." ABSOLUTE)
  foreach(_lib_var IN ITEMS c10 C10_CUDA TORCH)
    string(TOLOWER ${_lib_var} _lib_name)
    find_library(${_lib_var}_LIBRARY ${_lib_name} PATHS "${_graphbench_torch_prefix}/lib" NO_DEFAULT_PATH)
  endforeach()
endif()
unset(_graphbench_torch_config CACHE)
# LibTorch's CMake files choose the GPU architectures its flags compile for from the environment's
# TORCH_CUDA_ARCH_LIST, else from the GPUs they find (on a machine without one: a list that nvcc 13
# refuses). Kept in the cache, so that a re-configure that ninja starts by itself keeps it.
set(GRAPHBENCH_TORCH_CUDA_ARCH_LIST "$ENV{TORCH_CUDA_ARCH_LIST}" CACHE STRING
    "TORCH_CUDA_ARCH_LIST for LibTorch's CMake files, e.g. 8.0;9.0 (default: the environment's, else the GPUs found)")
if(GRAPHBENCH_TORCH_CUDA_ARCH_LIST)
  set(ENV{TORCH_CUDA_ARCH_LIST} "${GRAPHBENCH_TORCH_CUDA_ARCH_LIST}")
endif()
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
  # graphbench reaches the CUDA driver through the runtime only (parallel/communication/peer_exchange.cpp), so its
  # CUDA build starts on a machine without a driver, as PyTorch's own libraries do: LibTorch's
  # caffe2::cuda would put the driver (libcuda.so.1) among every program's needed libraries.
  if(TARGET caffe2::cuda)
    get_target_property(_graphbench_caffe2_cuda_links caffe2::cuda INTERFACE_LINK_LIBRARIES)
    if(_graphbench_caffe2_cuda_links)
      list(REMOVE_ITEM _graphbench_caffe2_cuda_links CUDA::cuda_driver)
      set_property(TARGET caffe2::cuda PROPERTY INTERFACE_LINK_LIBRARIES "${_graphbench_caffe2_cuda_links}")
    endif()
  endif()
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
  # NVML is opened at run time (dlopen), so only its header is needed: the CUDA Toolkit's, or where
  # GRAPHBENCH_NVML_INCLUDE_DIR says (a toolkit without it: `pip install nvidia-nvml-dev`, whose
  # header is in nvidia/cu13/include). A header from outside the toolkit is linked alone into the
  # build folder, so that the other headers beside it cannot shadow the toolkit's.
  target_link_libraries(graphbench_torch INTERFACE CUDA::cudart ${CMAKE_DL_LIBS})
  find_path(GRAPHBENCH_NVML_INCLUDE_DIR nvml.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  if(NOT GRAPHBENCH_NVML_INCLUDE_DIR)
    message(FATAL_ERROR "graphbench: no nvml.h in the CUDA Toolkit (${CUDAToolkit_INCLUDE_DIRS}): install its NVML "
                        "headers (cuda-nvml-dev), or `pip install nvidia-nvml-dev` and set GRAPHBENCH_NVML_INCLUDE_DIR "
                        "to the folder holding its nvml.h")
  endif()
  if(NOT GRAPHBENCH_NVML_INCLUDE_DIR IN_LIST CUDAToolkit_INCLUDE_DIRS)
    file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/nvml-include)
    file(CREATE_LINK ${GRAPHBENCH_NVML_INCLUDE_DIR}/nvml.h ${CMAKE_BINARY_DIR}/nvml-include/nvml.h SYMBOLIC)
    target_include_directories(graphbench_torch SYSTEM INTERFACE ${CMAKE_BINARY_DIR}/nvml-include)
  endif()
endif()

# Distributed training (c10d), optional: the CPU build talks through ProcessGroupGloo, the CUDA
# build through ProcessGroupNCCL. LibTorch's c10d headers need a define per backend and that
# backend's own headers, which LibTorch does not ship (Debian's LibTorch defines USE_C10D_GLOO for
# every target that links it; GRAPHBENCH_DIST_GLOO / _NCCL say what this build really has):
#   Gloo  Debian's libgloo-dev (headers, libgloo, GlooConfig.cmake), USE_C10D_GLOO, linked with gloo
#   NCCL  nccl.h from the CUDA Toolkit or from PyTorch's wheel (the nvidia-nccl package), USE_C10D_NCCL
# GRAPHBENCH_NCCL_INCLUDE_DIR points at another nccl.h. Without a backend, graphbench still builds;
# `--nproc` and the data-parallel cases then say that this build has no distributed support.
option(GRAPHBENCH_WITH_DISTRIBUTED "Data-parallel training over c10d (Gloo on the CPU build, NCCL on the CUDA build)" ON)
set(GRAPHBENCH_NCCL_INCLUDE_DIR "" CACHE PATH "Directory holding nccl.h (default: the CUDA Toolkit's, then python3's nvidia.nccl package)")
set(GRAPHBENCH_DIST_BACKEND "none")
add_library(graphbench_c10d INTERFACE)
if(GRAPHBENCH_WITH_DISTRIBUTED)
  find_path(GRAPHBENCH_C10D_INCLUDE_DIR torch/csrc/distributed/c10d/ProcessGroup.hpp HINTS ${TORCH_INCLUDE_DIRS})
  mark_as_advanced(GRAPHBENCH_C10D_INCLUDE_DIR)
  if(NOT GRAPHBENCH_C10D_INCLUDE_DIR)
    set(_graphbench_dist_missing "the LibTorch at ${Torch_DIR} has no c10d headers")
  elseif(GRAPHBENCH_WITH_CUDA)
    if(GRAPHBENCH_NCCL_INCLUDE_DIR)
      # Given: the only place looked at.
      set(_graphbench_nccl_hints ${GRAPHBENCH_NCCL_INCLUDE_DIR})
      if(EXISTS ${GRAPHBENCH_NCCL_INCLUDE_DIR}/nccl.h)
        set(_graphbench_nccl_include ${GRAPHBENCH_NCCL_INCLUDE_DIR})
      endif()
    else()
      set(_graphbench_nccl_hints ${CUDAToolkit_INCLUDE_DIRS})
      find_program(GRAPHBENCH_PYTHON3 NAMES python3 python)
      mark_as_advanced(GRAPHBENCH_PYTHON3)
      if(GRAPHBENCH_PYTHON3)
        execute_process(COMMAND ${GRAPHBENCH_PYTHON3} -c "import nvidia.nccl as m; print(list(m.__path__)[0])"
                        OUTPUT_VARIABLE _graphbench_nccl_pkg OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        if(_graphbench_nccl_pkg)
          list(APPEND _graphbench_nccl_hints ${_graphbench_nccl_pkg}/include)
        endif()
      endif()
      find_path(GRAPHBENCH_NCCL_HEADER_DIR nccl.h HINTS ${_graphbench_nccl_hints})
      mark_as_advanced(GRAPHBENCH_NCCL_HEADER_DIR)
      set(_graphbench_nccl_include ${GRAPHBENCH_NCCL_HEADER_DIR})
    endif()
    if(_graphbench_nccl_include)
      # LibTorch loads NCCL itself; link the library beside the header when there is one, so that
      # any NCCL symbol our code reaches resolves to that same library.
      find_library(GRAPHBENCH_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${_graphbench_nccl_include}/../lib NO_DEFAULT_PATH)
      mark_as_advanced(GRAPHBENCH_NCCL_LIBRARY)
      set(_graphbench_nccl_library ${GRAPHBENCH_NCCL_LIBRARY})
      target_include_directories(graphbench_c10d SYSTEM INTERFACE ${_graphbench_nccl_include})
      target_compile_definitions(graphbench_c10d INTERFACE USE_C10D_NCCL GRAPHBENCH_DIST_NCCL=1 GRAPHBENCH_WITH_DISTRIBUTED=1)
      if(_graphbench_nccl_library)
        target_link_libraries(graphbench_c10d INTERFACE ${_graphbench_nccl_library})
      endif()
      set(GRAPHBENCH_DIST_BACKEND "nccl (nccl.h in ${_graphbench_nccl_include})")
    else()
      set(_graphbench_dist_missing "no nccl.h (looked in: ${_graphbench_nccl_hints}; set GRAPHBENCH_NCCL_INCLUDE_DIR, or pip install nvidia-nccl-cu13)")
    endif()
  else()
    find_package(Gloo CONFIG QUIET)
    if(TARGET gloo)
      target_link_libraries(graphbench_c10d INTERFACE gloo)
      target_compile_definitions(graphbench_c10d INTERFACE USE_C10D_GLOO GRAPHBENCH_DIST_GLOO=1 GRAPHBENCH_WITH_DISTRIBUTED=1)
      set(GRAPHBENCH_DIST_BACKEND "gloo ${GLOO_VERSION}")
    else()
      set(_graphbench_dist_missing "no Gloo (Debian: apt-get install libgloo-dev)")
    endif()
  endif()
  if(_graphbench_dist_missing)
    message(STATUS "graphbench: distributed support OFF: ${_graphbench_dist_missing}")
  endif()
else()
  message(STATUS "graphbench: distributed support OFF (GRAPHBENCH_WITH_DISTRIBUTED=OFF)")
endif()
message(STATUS "graphbench: distributed backend: ${GRAPHBENCH_DIST_BACKEND}")

# fmt: the compiled library where it can be, header-only where it must be.
# - Compiled (libfmt): a unit that formats then calls fmt's implementation instead of compiling it,
#   about 2.5 s less per unit of the engine at -O2 (docs/building.md).
# - Header-only where LibTorch's own include directories carry fmt headers of their own (PyTorch's
#   wheel ships fmt 12; Debian's fmt is 9): those directories come first on the command line, so
#   their headers are the ones compiled, and only header-only use keeps code and headers one version.
set(GRAPHBENCH_FMT fmt::fmt-header-only)
if(TARGET fmt::fmt)
  get_target_property(_graphbench_fmt_type fmt::fmt TYPE)
  get_target_property(_graphbench_fmt_dirs fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
  set(_graphbench_fmt_own "")
  foreach(dir IN LISTS _graphbench_fmt_dirs)
    get_filename_component(dir "${dir}" REALPATH)
    list(APPEND _graphbench_fmt_own "${dir}")
  endforeach()
  set(_graphbench_fmt_shadowed "")
  foreach(dir IN LISTS TORCH_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" REALPATH)
    if(EXISTS "${dir}/fmt/format.h" AND NOT dir IN_LIST _graphbench_fmt_own)
      set(_graphbench_fmt_shadowed "${dir}")
    endif()
  endforeach()
  if(NOT _graphbench_fmt_type STREQUAL "INTERFACE_LIBRARY" AND NOT _graphbench_fmt_shadowed)
    set(GRAPHBENCH_FMT fmt::fmt)
  endif()
endif()
if(NOT TARGET ${GRAPHBENCH_FMT})
  set(GRAPHBENCH_FMT fmt::fmt)
endif()
if(_graphbench_fmt_shadowed)
  message(STATUS "graphbench: fmt ${fmt_VERSION} header-only (LibTorch's ${_graphbench_fmt_shadowed}/fmt comes first)")
else()
  message(STATUS "graphbench: fmt ${fmt_VERSION} (${GRAPHBENCH_FMT})")
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

# Unit tests for src/bench: the CUDA plugin loader and the CPU description.
#
# include()d from the top-level CMakeLists.txt after enable_testing() and
# after add_subdirectory(src/bench/cuda) (when that runs), so
# `if(TARGET gpuplan-cuda)` below sees the plugin.  The tests link
# gpuplan_core like every other unit test.

set(_gp_src "${PROJECT_SOURCE_DIR}/src")
set(_gp_unit "${PROJECT_SOURCE_DIR}/tests/unit")

add_executable(test_cpu_info "${_gp_unit}/test_cpu_info.c")
target_link_libraries(test_cpu_info PRIVATE gpuplan_core)
target_include_directories(test_cpu_info PRIVATE "${_gp_unit}")
add_test(NAME unit.cpu_info COMMAND test_cpu_info)

add_executable(test_plugin_loader "${_gp_unit}/test_plugin_loader.c")
target_link_libraries(test_plugin_loader PRIVATE gpuplan_core)
target_include_directories(test_plugin_loader PRIVATE "${_gp_unit}")

# One fake plugin per defect the loader must catch, plus one that loads.
# Each is a libgpuplan-cuda.so in a directory of its own, because the
# loader finds the plugin by file name.
set(_gp_fake_args "")
foreach(_gp_fake bad-abi short-table null-hook no-entry init-fails ok)
	string(TOUPPER "FAKE_${_gp_fake}" _gp_def)
	string(REPLACE "-" "_" _gp_def "${_gp_def}")
	set(_gp_target "fake_plugin_${_gp_fake}")
	add_library(${_gp_target} MODULE "${_gp_unit}/fake_plugin.c")
	target_include_directories(${_gp_target} PRIVATE "${_gp_src}")
	target_compile_definitions(${_gp_target} PRIVATE ${_gp_def})
	set_target_properties(${_gp_target} PROPERTIES
		PREFIX "lib"
		OUTPUT_NAME "gpuplan-cuda"
		SUFFIX ".so"
		C_VISIBILITY_PRESET hidden
		LIBRARY_OUTPUT_DIRECTORY
			"${CMAKE_BINARY_DIR}/tests/unit/fake-plugins/${_gp_fake}")
	add_dependencies(test_plugin_loader ${_gp_target})
	list(APPEND _gp_fake_args "fake-${_gp_fake}=$<TARGET_FILE_DIR:${_gp_target}>")
endforeach()

# With the real plugin built, the test also loads it: on a machine without
# a driver that must fail with "no NVIDIA driver", on one with a GPU it must
# pass the self-test.
set(_gp_real_arg "")
if(TARGET gpuplan-cuda)
	add_dependencies(test_plugin_loader gpuplan-cuda)
	set(_gp_real_arg "real=$<TARGET_FILE_DIR:gpuplan-cuda>")
endif()

add_test(NAME unit.plugin_loader
	COMMAND test_plugin_loader ${_gp_fake_args} ${_gp_real_arg})

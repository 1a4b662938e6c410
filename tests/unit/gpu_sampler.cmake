# unit.gpu_sampler: bench/gpu_sampler.c against a fake libnvidia-ml.
#
# include()d from tests/CMakeLists.txt.  The fake is built twice as a
# MODULE (what dlopen loads): as a current driver's NVML, and as one from
# before R535 that lacks nvmlDeviceGetCurrentClocksEventReasons.  The test
# gets both paths as arguments and points GPUPLAN_NVML_LIBRARY at them.

set(_gp_unit "${PROJECT_SOURCE_DIR}/tests/unit")

add_executable(test_gpu_sampler "${_gp_unit}/test_gpu_sampler.c")
target_link_libraries(test_gpu_sampler PRIVATE gpuplan_core)
target_include_directories(test_gpu_sampler PRIVATE "${_gp_unit}")

foreach(_gp_fake fake_nvml fake_nvml_old)
	add_library(${_gp_fake} MODULE "${_gp_unit}/fake_nvml.c")
	set_target_properties(${_gp_fake} PROPERTIES
		C_VISIBILITY_PRESET hidden
		LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests/unit/fake-nvml")
	add_dependencies(test_gpu_sampler ${_gp_fake})
endforeach()
target_compile_definitions(fake_nvml_old PRIVATE FAKE_NVML_OLD_DRIVER)

add_test(NAME unit.gpu_sampler
	COMMAND test_gpu_sampler $<TARGET_FILE:fake_nvml> $<TARGET_FILE:fake_nvml_old>)
# A sampler whose stop waited out its interval would hang on the test
# with an hour's interval; fail it well before ctest's default.
set_tests_properties(unit.gpu_sampler PROPERTIES TIMEOUT 60)

# The simulated CUDA plugin (tests/sim/sim_plugin.c) and its unit test.
#
# include()d from tests/CMakeLists.txt.  The sim is a libgpuplan-cuda.so
# like the real one, built without CUDA into a directory of its own, so any
# test can load it through the real loader by pointing GPUPLAN_PLUGIN_DIR
# at ${CMAKE_BINARY_DIR}/tests/sim-plugin.

add_library(sim_cuda_plugin MODULE "${PROJECT_SOURCE_DIR}/tests/sim/sim_plugin.c")
target_include_directories(sim_cuda_plugin PRIVATE "${PROJECT_SOURCE_DIR}/src")
target_link_libraries(sim_cuda_plugin PRIVATE m)
set_target_properties(sim_cuda_plugin PROPERTIES
	PREFIX "lib"
	OUTPUT_NAME "gpuplan-cuda"
	SUFFIX ".so"
	C_VISIBILITY_PRESET hidden
	LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests/sim-plugin")

add_executable(test_sim_plugin "${PROJECT_SOURCE_DIR}/tests/unit/test_sim_plugin.c")
target_link_libraries(test_sim_plugin PRIVATE gpuplan_core)
target_include_directories(test_sim_plugin PRIVATE "${PROJECT_SOURCE_DIR}/tests/unit")
add_dependencies(test_sim_plugin sim_cuda_plugin)
add_test(NAME unit.sim_plugin
	COMMAND test_sim_plugin $<TARGET_FILE_DIR:sim_cuda_plugin>)

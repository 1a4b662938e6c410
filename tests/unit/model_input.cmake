# unit.model_input: model descriptions as a hostile author writes them
# (tests/unit/test_model_input.c): limits counted before building, the
# include rule, content never quoted, names, tensor bounds.
#
# include()d from tests/CMakeLists.txt.  The test makes a FIFO among its
# files: a loader that opened it would block, so a hang fails well before
# ctest's default timeout.

set(_gp_unit "${PROJECT_SOURCE_DIR}/tests/unit")

add_executable(test_model_input "${_gp_unit}/test_model_input.c")
target_link_libraries(test_model_input PRIVATE gpuplan_core)
target_include_directories(test_model_input PRIVATE "${_gp_unit}")
add_test(NAME unit.model_input COMMAND test_model_input
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(unit.model_input PROPERTIES TIMEOUT 300)

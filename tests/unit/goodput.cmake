# Unit test of goodput (issue 27): the wall clock of a training run from
# failures, checkpoints and restarts.  include()d from tests/CMakeLists.txt.
add_executable(test_goodput ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_goodput.c)
target_link_libraries(test_goodput PRIVATE gpuplan_core)
target_include_directories(test_goodput PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit)
add_test(NAME unit.goodput COMMAND test_goodput
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# Unit test of the planner's choices (issue 15): the spot rule, actionable
# options, MIG slices, wording, reference-line labels, the shortfall
# sentence.  include()d from tests/CMakeLists.txt.
add_executable(test_choice ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_choice.c)
target_link_libraries(test_choice PRIVATE gpuplan_core)
target_include_directories(test_choice PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit)
add_test(NAME unit.choice COMMAND test_choice
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

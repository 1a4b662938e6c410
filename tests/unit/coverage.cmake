# Unit test of `backtest --coverage` (issue 27): the exact binomial
# interval, a row's range in each measurement's terms, the observations,
# strata, sources and gate of synthetic rows.  include()d from
# tests/CMakeLists.txt.
add_executable(test_coverage ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_coverage.c)
target_link_libraries(test_coverage PRIVATE gpuplan_core)
target_include_directories(test_coverage PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit)
add_test(NAME unit.coverage COMMAND test_coverage
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

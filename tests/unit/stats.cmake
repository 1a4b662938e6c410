# Issue 28 (stats): properties of every statistic over its documented
# range (Welch and the delta method, the fits, calibration's draws, the
# repetitions' summary).  Its own block, for an easy merge.
add_executable(test_stat_props unit/test_stat_props.c)
target_link_libraries(test_stat_props PRIVATE gpuplan_core)
target_include_directories(test_stat_props PRIVATE unit)
add_test(NAME unit.stat_props COMMAND test_stat_props
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# Plans' money compared only through the rates both carry.
add_executable(test_plan_money unit/test_plan_money.c)
target_link_libraries(test_plan_money PRIVATE gpuplan_core)
target_include_directories(test_plan_money PRIVATE unit)
add_test(NAME unit.plan_money COMMAND test_plan_money
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

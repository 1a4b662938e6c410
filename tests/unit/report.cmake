# The report's own tests beyond test_chart/test_report/test_text: the plan
# JSON reader as a table of cases, and the report's all-or-nothing writes
# under faults (a file-size limit part-way, a signal before the renames,
# cairo refusing a chart), run by tests/cli/report-faults.sh.

add_executable(test_plan_read unit/test_plan_read.c)
target_link_libraries(test_plan_read PRIVATE gpuplan_core)
target_include_directories(test_plan_read PRIVATE unit)
add_test(NAME unit.plan_read COMMAND test_plan_read
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

add_test(NAME cli.report-faults
	COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/report-faults.sh
		$<TARGET_FILE:gpuplan>
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# The CPU executor of lowered model programs (src/bench/cpu_program.c).
#
# include()d from tests/CMakeLists.txt.  One case asks malloc for 4 PiB to
# see the executor answer BENCH_OUT_OF_MEMORY; AddressSanitizer aborts on
# such a request unless told to return NULL like malloc does.

add_executable(test_cpu_program unit/test_cpu_program.c)
target_link_libraries(test_cpu_program PRIVATE gpuplan_core)
target_include_directories(test_cpu_program PRIVATE unit)
add_test(NAME unit.cpu_program COMMAND test_cpu_program
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(unit.cpu_program PROPERTIES
	ENVIRONMENT "ASAN_OPTIONS=allocator_may_return_null=1")

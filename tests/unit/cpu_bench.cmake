# unit.cpu_bench (defined with the other unit tests in tests/CMakeLists.txt)
# asks for 2^62 bytes to see the CPU suites answer CPU_MEASURE_NO_MEMORY;
# AddressSanitizer aborts on such a request unless told to return NULL
# like malloc does.  The stack-use-after-return check CI asks for is kept.
#
# include()d from tests/CMakeLists.txt.
set_tests_properties(unit.cpu_bench PROPERTIES
	ENVIRONMENT "ASAN_OPTIONS=allocator_may_return_null=1:detect_stack_use_after_return=1")

# `gpuplan diagnose` on hostile logs (issue 28): control bytes in the
# log's uuid and name fields kept out of every output, the Prometheus text
# checked against the exposition format (and promtool where installed), a
# 5,000,000-sample log within 512 MB (tests/cli/diagnose-hostile.sh).
# include()d from tests/CMakeLists.txt.
add_test(NAME cli.diagnose-hostile
	COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/diagnose-hostile.sh $<TARGET_FILE:gpuplan>
	WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

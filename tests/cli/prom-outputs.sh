# Sourced by tests/cli/promtool.sh and tests/cli/grafana.sh: makes every
# --prom output gpuplan writes into the folder DIR, NAME.prom for each NAME
# of prom_names, and returns non-zero when a run fails.
#   prom_outputs DIR GPUPLAN SIM_PLUGIN_DIR
# A new command's --prom is one more run here and its name in prom_names
# (diagnose's, once it is on main: a log from tests/ and
# `diagnose LOG --prom "$dir/diagnose.prom"`).
prom_names="bench-cpu bench-sim plan"
prom_outputs() {
	local dir=$1 gpuplan=$2 sim=$3
	# a CPU bench, its quickest suite (about a second)
	"$gpuplan" bench --device cpu --quick --threads 1 --suite gemm \
		-o "$dir/bench-cpu.yaml" --prom "$dir/bench-cpu.prom" 2>"$dir/bench-cpu.err" || return 1
	# a GPU bench of every suite on the simulated plugin (tests/sim):
	# bytes, FLOP, integer-op and launch rates, a GPU index label
	GPUPLAN_PLUGIN_DIR=$sim GPUPLAN_SIM_DEVICES=2 \
		GPUPLAN_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 \
		"$gpuplan" bench --device cuda --quick \
		-o "$dir/bench-sim.yaml" --prom "$dir/bench-sim.prom" 2>"$dir/bench-sim.err" || return 1
	# the plan of the shipped workloads on the shipped catalogs
	"$gpuplan" plan -o "$dir/plan.txt" --prom "$dir/plan.prom" 2>"$dir/plan.err" || return 1
}

# Sourced by tests/cli/promtool.sh and tests/cli/grafana.sh: makes every
# --prom output gpuplan writes into the folder DIR, NAME.prom for each NAME
# of prom_names, and returns non-zero when a run fails.
#   prom_outputs DIR GPUPLAN SIM_PLUGIN_DIR
# A new command's --prom is one more run here and its name in prom_names.
prom_names="bench-cpu bench-sim plan diagnose-two-gpus diagnose-thermal-throttling diagnose-heartbeat diagnose-priced diagnose-live"
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
	# diagnose of example logs (two GPUs; throttling; a heartbeat) and of
	# a live GPU, the fake NVML's (built beside the sim plugin's tests)
	local log
	for log in two-gpus thermal-throttling heartbeat; do
		"$gpuplan" diagnose "tests/cli/data/diagnose/$log.csv" -o /dev/null \
			--prom "$dir/diagnose-$log.prom" 2>"$dir/diagnose-$log.err" || return 1
	done
	# priced by a plan: the lost-cost family
	"$gpuplan" diagnose tests/cli/data/diagnose/idle-gaps.csv -o /dev/null \
		--plan tests/cli/data/report-load-curve.json --workload chat \
		--prom "$dir/diagnose-priced.prom" 2>"$dir/diagnose-priced.err" || return 1
	GPUPLAN_NVML_LIBRARY="$sim/../unit/fake-nvml/libfake_nvml.so" FAKE_NVML_PROCESSES=2 \
		"$gpuplan" diagnose --live --duration 0.3s --interval 100ms -o /dev/null \
		--prom "$dir/diagnose-live.prom" 2>"$dir/diagnose-live.err" || return 1
}

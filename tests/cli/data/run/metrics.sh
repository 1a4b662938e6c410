# A stand-in for a training script, for gpuplan run's cases: deterministic
# figures from its arguments, with spread between runs.
#   sh metrics.sh STATE BASE [EXIT]
# The Nth call (counted in the file STATE, from 0) prints a throughput of
# BASE + N mod 3 samples/s after an earlier, smaller one (the last match
# counts), and a loss of 0.5 + (N mod 3)/10; then exits with EXIT (0).
state=$1
base=$2
n=$(cat "$state" 2>/dev/null || echo 0)
echo $((n + 1)) >"$state"
echo "step 1 throughput: 1 samples/s"
echo "step 2 throughput: $((base + n % 3)) samples/s"
echo "loss: 0.$((5 + n % 3))" >&2
[ "${3:-0}" = 0 ] || echo "CUDA error: out of memory (a test's failure)" >&2
exit "${3:-0}"

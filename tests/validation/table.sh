#!/bin/bash
# The backtest of the shipped validation set as the Markdown tables the
# README shows: one line per record and measured quantity.
#
#   tests/validation/table.sh [BUILD_DIR] [training|serving]
#                                     (prints Markdown on stdout)
set -eu
build=${1:-build}
set=${2:-training}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if [ "$set" = serving ]; then
"$build/gpuplan" backtest --format json tests/validation/serving/*.yaml |
jq -r '
  def pct: (. * 1000 | round / 10 | tostring) + "%";
  def sig: if . >= 1000 then (. | round | tostring)
           elif . >= 100 then ((. * 10 | round) / 10 | tostring)
           elif . >= 10 then ((. * 100 | round) / 100 | tostring)
           else ((. * 1000 | round) / 1000 | tostring) end;
  def val(q): if (q | test("_per_s$")) then "\(. | sig)/s"
              elif . >= 1 then "\(. | sig) s" else "\(. * 1000 | sig) ms" end;
  def ratio: if (.quantity | test("_per_s$")) then 1 + .error else 1 / (1 + .error) end;
  "| record | quantity | measured | predicted | error | held |",
  "|---|---|---|---|---|---|",
  (.rows[] | .quantity as $q | "| \(.record) | \($q) | \(.measured | val($q)) | \(if .error then (.predicted | val($q)) else "-" end) | \(if .error then ((if .error > 0 then "+" else "" end) + (.error | pct)) else "-" end) | \(if .known_miss then "known miss" elif .within_tolerance then "within \(.tolerance * 100 | round)%" else "NO" end) |"),
  "",
  ([.rows[] | select(.error) | ratio] | sort) as $r |
  "Mean |error| \(.summary.mean_abs_error | pct) over \(.summary.predicted) rows, \(.summary.within_tolerance) within tolerance; the \(.summary.held) rows of records held to their tolerance average \(.summary.mean_abs_error_held | pct). Predicted over measured speed (throughput predicted/measured, latency measured/predicted): median \((($r | length) as $n | ($r[($n - 1) / 2 | floor] + $r[$n / 2 | floor]) / 2) * 1000 | round / 1000), \([$r[] | select(. > 1)] | length) rows over-promising."
'
exit 0
fi
"$build/gpuplan" backtest --format json tests/validation/training/*.yaml |
jq -r '
  def pct: (. * 1000 | round / 10 | tostring) + "%";
  def sig: if . >= 100 then (. | round | tostring)
           elif . >= 10 then ((. * 10 | round) / 10 | tostring)
           else ((. * 100 | round) / 100 | tostring) end;
  def lay: .layout | "tp \(.tp) pp \(.pp)\(if .interleave > 1 then "x\(.interleave)" else "" end) dp \(.dp) mb \(.micro_batch)";
  def cmp: if .compared_as == "step_time_s" then "step \(.measured_compared | sig) s → \(.predicted_compared | sig) s"
           elif .quantity == "mfu" then "MFU \(.measured | pct) → \(.predicted | pct)"
           elif .quantity == "tokens_per_s" then "\(.measured / 1000 | sig) K → \(.predicted / 1000 | sig) K tokens/s"
           else "\(.measured) → \(.predicted)" end;
  "| record | GPUs | layout | quantity | measured → predicted | error | held |",
  "|---|---|---|---|---|---:|---|",
  (.rows[] | "| \(.record) | \(.gpus) × \(.accelerator) | \(if .layout then lay else "-" end) | \(.quantity)\(if .flops_counted then " (" + .flops_counted + ")" else "" end) | \(if .error then cmp else (.reason // "-") end) | \(if .error then ((if .error > 0 then "+" else "" end) + (.error | pct)) else "-" end) | \(if .known_miss then "known miss" elif .within_tolerance then "yes" else "NO" end) |"),
  "",
  # predicted over measured speed: a throughput compares as itself, a
  # time (step, days, GPU-hours) inversely
  def ratio: if (.compared_as | test("_per_s$|fraction$")) then 1 + .error else 1 / (1 + .error) end;
  def median: sort | length as $n | if $n == 0 then 0 else (.[($n - 1) / 2 | floor] + .[$n / 2 | floor]) / 2 end;
  def r3: . * 1000 | round / 1000;
  [.rows[] | select(.error)] as $p |
  "Mean |error| over all \(.summary.predicted) rows: \(.summary.mean_abs_error | pct); over the \(.summary.held) rows held to their tolerance: \(.summary.mean_abs_error_held | pct); largest: \(.summary.largest_abs_error | pct) (\(.summary.largest_record)). Measured over predicted step time (slower than planned above 1): median \([$p[] | ratio] | median | r3) over all rows, \([$p[] | select(.accelerator | test("H100")) | ratio] | median | r3) over the H100 rows; \([$p[] | select(ratio > 1)] | length) of \($p | length) rows over-promising; \([$p[] | select(.error | fabs <= 0.15)] | length) within 15%."
'

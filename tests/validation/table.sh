#!/bin/bash
# The backtest of the shipped validation set as the Markdown table the
# README shows: one line per record and measured quantity.
#
#   tests/validation/table.sh [BUILD_DIR]   (prints Markdown on stdout)
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
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
  "Mean |error| over all \(.summary.predicted) rows: \(.summary.mean_abs_error | pct); over the \(.summary.held) rows held to their tolerance: \(.summary.mean_abs_error_held | pct); largest: \(.summary.largest_abs_error | pct) (\(.summary.largest_record))."
'

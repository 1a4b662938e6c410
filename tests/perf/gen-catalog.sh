#!/bin/bash
# Writes a catalog of N instances to stdout for the scale benchmarks: the
# shipped instances cycled through under new names, with on-demand and
# spot prices spread +-20% by a fixed rule (deterministic, no randomness).
# Every field the catalog requires is carried over as `catalog list` gives
# it: the date a spot price was read (a spot price without one is refused),
# and the network's NICs and GPUDirect, which the collectives are priced on.
#
#   tests/perf/gen-catalog.sh GPUPLAN N
set -eu
"$1" catalog list --format json | jq -r --argjson n "$2" '
  .instances as $all | ($all | length) as $k |
  "schema: gpuplan/catalog/v1", "instances:",
  (range(0; $n) as $i | $all[$i % $k] as $x |
   (1 + (($i * 37) % 41 - 20) / 100) as $f |
   "  - name: \($x.name)-\($i)",
   "    provider: \($x.provider)",
   "    region: \($x.region)",
   "    accelerator: \($x.accelerator.name)",
   "    gpus: \($x.gpus)",
   "    vcpus: \($x.vcpus)",
   "    memory: \($x.memory_bytes)B",
   "    intra_node_link: {kind: \($x.intra_node_link.kind)\(if $x.intra_node_link.kind == "none" then "" else ", bandwidth: \($x.intra_node_link.bandwidth_bytes_per_s)B/s" end)}",
   "    network: {bandwidth: \($x.network.bandwidth_bytes_per_s)B/s, rdma: \($x.network.rdma), nics: \($x.network.nics), gpudirect: \($x.network.gpudirect)}",
   "    price: {on_demand: \($x.price.on_demand_per_hour * $f) \($x.price.currency)/h\(if $x.price.spot_per_hour then ", spot: \($x.price.spot_per_hour * $f) \($x.price.currency)/h, spot_as_of: \($x.price.spot_as_of)" else "" end)}",
   "    source: {title: generated for the scale benchmark, url: https://example.com, retrieved: 2026-11-30}",
   "    as_of: 2026-11-30")'

#!/bin/bash
# `gpuplan --version`, `gpuplan --help` and `gpuplan devices` report the
# same plugin (one probe, cuda_plugin_probe): for a working plugin, one
# whose init fails and none, the "cuda plugin:" line of
# --version is the one in --help and in the devices table, and holds the
# JSON's plugin path and build info.
#
#   devices-plugin.sh GPUPLAN      (run from the source root)
set -u
gpuplan=$1
build=$(dirname "$gpuplan")
fail=0
say() { echo "devices-plugin.sh: $*" >&2; fail=1; }
for dir in "$build/tests/unit/fake-plugins/ok" "$build/tests/unit/fake-plugins/init-fails" /nonexistent-plugin-dir; do
	export GPUPLAN_PLUGIN_DIR=$dir
	line=$("$gpuplan" --version | grep '^cuda plugin: ')
	[ -n "$line" ] || { say "$dir: --version has no cuda plugin line"; continue; }
	"$gpuplan" --help | grep -qxF -- "  $line" || say "$dir: --help lacks '$line'"
	json=$("$gpuplan" devices --format json)
	path=$(jq -r '.cuda.plugin // empty' <<<"$json")
	info=$(jq -r '.cuda.build_info // empty' <<<"$json")
	if [ "$dir" = /nonexistent-plugin-dir ]; then
		[ -z "$path" ] || say "no plugin, yet the JSON names '$path'"
		err=$(jq -r .cuda.plugin_error <<<"$json")
		grep -qF -- "$err" <<<"$line" || say "$dir: --version's '$line' lacks the JSON's '$err'"
		continue
	fi
	[ "$path" = "$dir/libgpuplan-cuda.so" ] || say "$dir: the JSON's plugin is '$path'"
	grep -qF -- "found $path ($info)" <<<"$line" || say "$dir: --version's '$line' is not the JSON's $path ($info)"
	"$gpuplan" devices --format table | grep -qxF -- "$line" || say "$dir: the devices table lacks '$line'"
done
exit $fail

#!/bin/bash
# The command starts as it would without gpuplan: SIGXFSZ (which gpuplan
# ignores for its own writes) back at its default, no signal blocked, a
# process group of its own.  Before the fix the command inherited the
# ignored SIGXFSZ (a `ulimit -f` then gave it EFBIG instead of the signal).
name=run-child-state
. "$(dirname "$0")/lib.sh"

"$gpuplan" run -n 1 --warmup 0 -o /dev/null -- \
	sh -c "grep -E '^Sig(Ign|Blk):' /proc/\$\$/status > $scratch/sig; ps -o pid=,pgid= -p \$\$ > $scratch/pg" \
	2>"$scratch/err" || say "run failed: $(cat "$scratch/err")"
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$scratch/sig")
blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' "$scratch/sig")
# SIGXFSZ is signal 25: bit 24, the seventh hex digit from the right
[ -n "$ign" ] && (( (16#$ign >> 24) & 1 )) && say "the command starts with SIGXFSZ ignored (SigIgn $ign)"
[ -n "$blk" ] && (( 16#$blk != 0 )) && say "the command starts with signals blocked (SigBlk $blk)"
read -r cpid cpgid <"$scratch/pg"
[ "$cpid" = "$cpgid" ] || say "the command is not the leader of a process group of its own (pid $cpid, group $cpgid)"
exit $fail

# A stdout line written in two pieces with a stderr line between them,
# each piece flushed on its own (the pauses make them arrive apart), then
# a line holding a NUL byte and a figure after it.
printf 'throughput: 12'
sleep 0.2
printf 'warning: slow step\n' >&2
sleep 0.2
printf '34.5 samples/s\n'
printf 'binary \000 progress\nloss: 0.25\n'
printf 'loss: 9\n' >&2

#!/usr/bin/env python3
"""Writes the example nvidia-smi logs of `gpuplan diagnose` (committed; run
again only to change them).  Each is what

  nvidia-smi --query-gpu=timestamp,index,utilization.gpu,utilization.memory,
    memory.used,memory.total,temperature.gpu,power.draw,power.limit,
    clocks.sm,clocks.max.sm,clocks_event_reasons.active --format=csv -l 1

writes (the header prints clocks.sm as clocks.current.sm), one GPU of
81559 MiB with a 700 W limit and a 1980 MHz top SM clock, sampled every
second; the format variants change only how it is written.  Values carry
a small deterministic wobble, so no two samples read alike."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ["timestamp", "index", "utilization.gpu [%]", "utilization.memory [%]",
          "memory.used [MiB]", "memory.total [MiB]", "temperature.gpu",
          "power.draw [W]", "power.limit [W]", "clocks.current.sm [MHz]",
          "clocks.max.sm [MHz]", "clocks_event_reasons.active"]
QUERY = ("timestamp,index,utilization.gpu,utilization.memory,memory.used,"
         "memory.total,temperature.gpu,power.draw,power.limit,clocks.sm,"
         "clocks.max.sm,clocks_event_reasons.active")


def wob(i, k=3):
    return (i * 37 + 3) % (2 * k + 1) - k


def stamp(i, ms=213):
    s = 10 * 3600 + 15 * 60 + i
    return "2026/11/30 %02d:%02d:%02d.%03d" % (s // 3600, s // 60 % 60, s % 60, ms)


def sample(i, util=95.0, mem=72000, temp=64.0, power=610.0, clock=1980,
           reasons=0, index=0):
    return dict(t=stamp(i), index=index, util=max(0, min(100, util)),
                umem=max(0, min(100, util * 0.4)), mem=mem, temp=temp,
                power=power, clock=clock, reasons=reasons)


def healthy(i, **kw):
    kw.setdefault("util", 96 + wob(i))
    kw.setdefault("temp", 64 + wob(i, 2))
    kw.setdefault("power", 610 + 5 * wob(i))
    return sample(i, **kw)


def line(s, units=True, na=()):
    u = (lambda v, unit: "%s %s" % (v, unit)) if units else (lambda v, unit: str(v))
    vals = [s["t"], str(s["index"]), u("%d" % s["util"], "%"),
            u("%d" % s["umem"], "%"), u(s["mem"], "MiB"), u(81559, "MiB"),
            "%d" % s["temp"], u("%.2f" % s["power"], "W"), u("700.00", "W"),
            u(s["clock"], "MHz"), u(1980, "MHz"), "0x%016x" % s["reasons"]]
    for k in na:
        vals[k] = "[N/A]"
    return ", ".join(vals)


def header(units=True, fields=FIELDS):
    return ", ".join(f if units else f.split(" [")[0] for f in fields)


def write(name, lines):
    with open(os.path.join(HERE, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def log(samples, units=True, na=()):
    return [header(units)] + [line(s, units, na) for s in samples]


N = 120
write("healthy.csv", log([healthy(i) for i in range(N)]))
write("low-utilization.csv", log([healthy(i, util=30 + wob(i, 4)) for i in range(N)]))
# two samples at ~10 % every 8 s: the loader is late at every step
write("heartbeat.csv", log([healthy(i, util=(10 + wob(i, 2)) if i % 8 in (5, 6) else 96 + wob(i))
                            for i in range(N)]))
# three stops of 15, 20 and 12 s (evaluation, a checkpoint)
GAPS = [(20, 35), (70, 90), (100, 112)]
write("idle-gaps.csv", log([healthy(i, util=0, power=90) if any(a <= i < b for a, b in GAPS)
                            else healthy(i) for i in range(150)]))
write("memory-headroom.csv", log([healthy(i, mem=30000 + 10 * wob(i)) for i in range(N)]))


def thermal(i):
    temp = 70 + min(18, i * 0.3)
    if i >= 60:
        return healthy(i, temp=temp + wob(i, 1), clock=1600 + 10 * wob(i), reasons=0x20)
    return healthy(i, temp=temp)


def power(i):
    if i >= 40:
        return healthy(i, power=699 + 0.3 * wob(i), clock=1700 + 10 * wob(i), reasons=0x4)
    return healthy(i)


write("thermal-throttling.csv", log([thermal(i) for i in range(N)]))
write("power-throttling.csv", log([power(i) for i in range(N)]))

# format variants
write("noheader.csv", [line(healthy(i)) for i in range(N)])
write("nounits-power.csv", log([power(i) for i in range(N)], units=False))
# a driver before R535: each reason its own field, clocks_throttle_reasons.*
OLD = ["timestamp", "index", "utilization.gpu [%]", "temperature.gpu",
       "clocks.current.sm [MHz]", "clocks.max.sm [MHz]",
       "clocks_throttle_reasons.sw_power_cap",
       "clocks_throttle_reasons.sw_thermal_slowdown",
       "clocks_throttle_reasons.hw_thermal_slowdown"]


def old_line(s):
    act = lambda b: "Active" if s["reasons"] & b else "Not Active"
    return ", ".join([s["t"], str(s["index"]), "%d %%" % s["util"], "%d" % s["temp"],
                      "%d MHz" % s["clock"], "1980 MHz", act(0x4), act(0x20), act(0x40)])


write("old-throttle-names.csv", [header(fields=OLD)] + [old_line(thermal(i)) for i in range(N)])
two = []
for i in range(N):
    two.append(line(healthy(i, index=0)))
    two.append(line(healthy(i, index=1, util=30 + wob(i, 4))))
write("two-gpus.csv", [header()] + two)
# power, limit and top clock unreadable ([N/A]) on a healthy GPU
write("not-available.csv", log([healthy(i) for i in range(N)], na=(7, 8, 10)))

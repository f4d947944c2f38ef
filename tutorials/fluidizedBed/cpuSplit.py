#!/usr/bin/env python3
"""CPU of a fluidizedBed run per stage, from its logs: the fill (gas frozen:
the cloud and its collisions alone) and the fluidization, in CPU-s and
CPU-s per simulated second, split as the solver logs it ("CPU split"):
the carrier phase, the coupling fields, the collision steps and the rest
of the cloud (injection, fluid forcing, tracking).

    python3 cpuSplit.py runs/sphere
"""
import re
import sys

SPLIT = re.compile(r"CPU split \[s\]: fluid ([0-9.eE+-]+), coupling ([0-9.eE+-]+), "
                   r"collisions ([0-9.eE+-]+), cloud without collisions ([0-9.eE+-]+)")


def stageCost(log):
    """(CPU-s, simulated s, split) of one stage: the last ExecutionTime,
    the span of its Time lines and the last CPU split (or None)."""
    cpu = 0.0
    times = []
    split = None
    for line in open(log):
        m = re.match(r"ExecutionTime = ([0-9.eE+-]+) s", line)
        if m:
            cpu = float(m.group(1))
        m = re.match(r"Time = ([0-9.eE+-]+)$", line.strip())
        if m:
            times.append(float(m.group(1)))
        m = SPLIT.search(line)
        if m:
            split = [float(x) for x in m.groups()]
    span = times[-1] - times[0] if len(times) > 1 else 0.0
    return cpu, span, split


def main():
    run = sys.argv[1]
    for stage in ("fill", "fluidize"):
        try:
            cpu, span, split = stageCost("%s/log.%s" % (run, stage))
        except OSError:
            continue
        perSecond = cpu/span if span > 0 else float("nan")
        print("%s: %.1f CPU-s for %.4g s simulated (%.1f CPU-s per simulated s)"
              % (stage, cpu, span, perSecond))
        if split:
            print("    fluid %.1f, coupling %.1f, collisions %.1f, rest of the cloud %.1f CPU-s"
                  % tuple(split))


if __name__ == "__main__":
    main()

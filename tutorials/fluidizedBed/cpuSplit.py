#!/usr/bin/env python3
"""CPU of a fluidizedBed run per stage, from its logs: the fill (gas frozen:
the cloud and its collisions alone) and the fluidization (the gas solve,
the coupling and the collisions), in CPU-s and CPU-s per simulated second.
The logs do not split the fluidization further.

    python3 cpuSplit.py runs/sphere
"""
import re
import sys


def stageCost(log):
    """(CPU-s, simulated s) of one stage: the last ExecutionTime and the
    span of its Time lines."""
    cpu = 0.0
    times = []
    for line in open(log):
        m = re.match(r"ExecutionTime = ([0-9.eE+-]+) s", line)
        if m:
            cpu = float(m.group(1))
        m = re.match(r"Time = ([0-9.eE+-]+)$", line.strip())
        if m:
            times.append(float(m.group(1)))
    span = times[-1] - times[0] if len(times) > 1 else 0.0
    return cpu, span


def main():
    run = sys.argv[1]
    for stage in ("fill", "fluidize"):
        try:
            cpu, span = stageCost("%s/log.%s" % (run, stage))
        except OSError:
            continue
        perSecond = cpu/span if span > 0 else float("nan")
        print("%s: %.1f CPU-s for %.4g s simulated (%.1f CPU-s per simulated s)"
              % (stage, cpu, span, perSecond))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Water speed of an emptying run at every written time (stdlib only).

The spheres settle at 0.018 m/s (Schiller-Naumann terminal velocity under
the buoyancy-reduced gravity); water faster than that is driven by the
coupling. Prints CSV: t, the largest |U.water| of any cell, its rms over
the box, and the number of cells faster than 0.05 m/s; the last line
(comment) gives the largest speed of the run and when.

Usage: waterSpeed.py <emptyCase>
"""
import math
import os
import sys

FAST = 0.05   # m/s, ~3 terminal velocities


def speeds(path):
    """|U| of every cell of an ascii volVectorField (uniform: one value)"""
    text = open(path).read()
    start = text.index("internalField")
    line = text[start:text.index("\n", start)]
    if "nonuniform" not in line:
        u = [float(x) for x in line[line.index("(") + 1:line.index(")")].split()]
        return [math.sqrt(sum(c*c for c in u))]
    body = text[text.index("(", start + len(line)) + 1:]
    out = []
    for row in body.splitlines():
        row = row.strip()
        if row == ")":
            break
        if row.startswith("("):
            out.append(math.sqrt(sum(float(c)**2 for c in row.strip("()").split())))
    return out


def main(case):
    times = []
    for name in os.listdir(case):
        try:
            t = float(name)
        except ValueError:
            continue
        if os.path.isfile(os.path.join(case, name, "U.water")):
            times.append((t, name))
    print("t,maxU,rmsU,cellsAbove%g" % FAST)
    peak = (0.0, 0.0)
    for t, name in sorted(times):
        s = speeds(os.path.join(case, name, "U.water"))
        umax = max(s)
        print("%g,%.4g,%.4g,%d" % (t, umax, math.sqrt(sum(v*v for v in s)/len(s)),
                                    sum(v > FAST for v in s)))
        peak = max(peak, (umax, t))
    print("# largest water speed %.4g m/s at t = %g s" % peak)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

#!/usr/bin/env python3
"""Hand the settled pile from the fill stage to the emptying stage ([Wedel2023]
Sect. 5.4: "the particles are simply injected into a cubical domain with
their final position after the preparatory filling process").

Reads <fillCase>/<latest time>/lagrangian/kinematicCloud/positions (v1912
writes it in the Cartesian "(x y z) celli" form, writeLagrangianPositions 1)
and writes an OpenFOAM vectorField for manualInjection. The cylinder floor
z = 0 and axis x = y = 0 are the floor and vertical axis of the box, so the
positions carry over unchanged.

  settledPositions.py <fillCase> -o <file>

Standard library only (and positions() of pileExtent.py, next to it).
"""
import argparse
import os
import sys

from pileExtent import positions


def latestTime(case):
    times = []
    for name in os.listdir(case):
        try:
            times.append((float(name), name))
        except ValueError:
            pass
    if not times:
        sys.exit("settledPositions.py: no time folders in %s" % case)
    return max(times)[1]


def readPositions(case, time):
    path = os.path.join(case, time, "lagrangian", "kinematicCloud", "positions")
    if not os.path.isfile(path):
        sys.exit("settledPositions.py: %s not found (did the fill run?)" % path)
    return path, positions(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fillCase")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()

    time = latestTime(args.fillCase)
    path, points = readPositions(args.fillCase, time)
    if not points:
        sys.exit("settledPositions.py: no parcels in %s" % path)
    with open(args.output, "w") as f:
        f.write("FoamFile { version 2.0; format ascii; class vectorField; "
                "object kinematicCloudPositions; }\n")
        f.write("// settled pile: %s\n" % path)
        f.write("%d\n(\n" % len(points))
        for p in points:
            f.write("(%.12e %.12e %.12e)\n" % p)
        f.write(")\n")
    print("settledPositions.py: %d parcels at t = %s -> %s" % (len(points), time, args.output))


if __name__ == "__main__":
    main()

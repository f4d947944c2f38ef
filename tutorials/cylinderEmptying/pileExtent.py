#!/usr/bin/env python3
"""Height and horizontal spread of the collapsing sphere pile ([Wedel2023]
Sect. 5.4, Fig. 23) from the parcel positions of every written time.

For the spheres of diameter d (floor z = 0, initial axis x = y = 0):
  bounding box   of the spheres' surfaces: min/max of the centres -+ d/2
  height         zmax of the box (top of the highest sphere above the floor)
  spread         largest horizontal side of the box, max(xmax - xmin, ymax - ymin)
  ratio          height / spread (the pile's aspect: 0.057 m wide cylinder
                 column at t = 0, a monolayer far apart at the end)
  footprint      2 max_i sqrt(x_i^2 + y_i^2) + d, the diameter of the
                 smallest circle about the initial axis holding every sphere
  rRms           root mean square horizontal distance of the centres from the axis

  pileExtent.py <emptyCase> [-d 0.011] [-o extent.csv] [--times 1 2.5 5 10]

t = 0 is taken from constant/kinematicCloudPositions (the injected pile).
Writes the CSV (one row per time) and prints the rows at --times (the
bounding boxes of Fig. 23). Standard library only.
"""
import argparse
import math
import os
import re
import sys

VECTOR = re.compile(r"^\(\s*([-+0-9.eE]+)\s+([-+0-9.eE]+)\s+([-+0-9.eE]+)\s*\)")
COLUMNS = ["time", "parcels", "xmin", "xmax", "ymin", "ymax", "zmin", "zmax",
           "height", "spread", "ratio", "footprint", "rRms"]


def positions(path):
    """The (x, y, z) lines of an OpenFOAM positions file or vectorField (also
    used by settledPositions.py)"""
    points = []
    with open(path) as f:
        for line in f:
            m = VECTOR.match(line.strip())
            if m:
                points.append(tuple(float(v) for v in m.groups()))
    return points


def extent(time, points, d):
    r = 0.5*d
    xs, ys, zs = zip(*points)
    box = [min(xs) - r, max(xs) + r, min(ys) - r, max(ys) + r, min(zs) - r, max(zs) + r]
    height = box[5]
    spread = max(box[1] - box[0], box[3] - box[2])
    radial = [math.hypot(x, y) for x, y in zip(xs, ys)]
    return [time, len(points)] + box + [
        height, spread, height/spread, 2*max(radial) + d,
        math.sqrt(sum(q*q for q in radial)/len(radial))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case")
    ap.add_argument("-d", type=float, default=0.011, help="sphere diameter [m]")
    ap.add_argument("-o", "--output", default=None, help="CSV (default <case>/extent.csv)")
    ap.add_argument("--times", type=float, nargs="*", default=[0, 1, 2.5, 5, 10])
    args = ap.parse_args()

    rows = []
    for name in os.listdir(args.case):
        try:
            t = float(name)
        except ValueError:
            continue
        path = os.path.join(args.case, name, "lagrangian", "kinematicCloud", "positions")
        if os.path.isfile(path):
            points = positions(path)
            if points:
                rows.append(extent(t, points, args.d))
    # t = 0: the injected (settled) positions
    injected = os.path.join(args.case, "constant", "kinematicCloudPositions")
    if os.path.isfile(injected) and not any(row[0] == 0 for row in rows):
        points = positions(injected)
        if points:
            rows.append(extent(0.0, points, args.d))
    if not rows:
        sys.exit("pileExtent.py: no parcel positions in %s" % args.case)
    rows.sort()

    output = args.output or os.path.join(args.case, "extent.csv")
    with open(output, "w") as f:
        f.write(",".join(COLUMNS) + "\n")
        for row in rows:
            f.write("%g,%d," % (row[0], row[1]) + ",".join("%.6g" % v for v in row[2:]) + "\n")

    print("%6s %7s  %-46s %8s %8s %7s %9s" % ("t [s]", "parcels", "bounding box x, y, z [m]",
                                            "height", "spread", "ratio", "footprint"))
    for want in args.times:
        near = min(rows, key=lambda row: abs(row[0] - want))
        if abs(near[0] - want) > 1e-6*max(1, want):
            continue
        print("%6g %7d  [%7.4f %7.4f] [%7.4f %7.4f] [%6.4f %6.4f] %8.4f %8.4f %7.3f %9.4f"
              % tuple(near[:12]))
    print("pileExtent.py: %d times -> %s" % (len(rows), output))


if __name__ == "__main__":
    main()

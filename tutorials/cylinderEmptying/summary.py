#!/usr/bin/env python3
"""Summary of the cylinderEmptying runs: the fill (settled pile) and the
emptying (height, spread and height/spread at t = 1, 2.5, 5, 10 s), and
whether the frictional pile stays higher and narrower ([Wedel2023] Fig. 23).

  summary.py <runsDir>      (runs/<run>/fill, runs/<run>/empty)

Standard library only.
"""
import csv
import math
import os
import re
import sys

D, DEQ = 0.057, 0.011
RUNS = ["frictionless", "frictional"]


def readCsv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def cpuTime(log):
    t = None
    if os.path.isfile(log):
        with open(log) as f:
            for line in f:
                m = re.match(r"ExecutionTime = ([0-9.eE+-]+) s", line)
                if m:
                    t = float(m.group(1))
    return t


def settledFrom(empty):
    """The fill case whose pile the emptying run injected (settledPositions.py header)"""
    with open(os.path.join(empty, "constant", "kinematicCloudPositions")) as f:
        for line in f:
            m = re.match(r"// settled pile: (.*)/[^/]+/lagrangian/kinematicCloud/positions", line)
            if m:
                return m.group(1)
    sys.exit("summary.py: no 'settled pile' line in %s/constant/kinematicCloudPositions" % empty)


def fillSummary(case, empty):
    rows = readCsv(os.path.join(case, "postProcessing", "superellipsoidCollisions", "0",
                                "collisions.csv"))
    ke = [float(r["kineticEnergyTranslational"]) + float(r["kineticEnergyRotational"]) for r in rows]
    peak = max(ke)
    extent = [l for l in open(os.path.join(empty, "extent.csv"))][1].split(",")
    n, height = int(extent[1]), float(extent[8])
    packing = n*math.pi*DEQ**3/6/(math.pi*D**2/4*height)
    return ("t = %s s, %d spheres, KE end/peak %.2g, max overlap/c at the end %.2g, "
            "height %.4f m, packing %.3f, CPU %s s"
            % (rows[-1]["time"], n, ke[-1]/peak, float(rows[-1]["maxOverlapRatio"]), height,
               packing, "%.0f" % cpuTime(os.path.join(case, "log.superellipsoidPimpleFoam"))))


def compare(difference, more, same, less, resolution=1e-4):
    """Words for a difference [m]; within 0.1 mm (1 % of d) counts as the same"""
    return more if difference > resolution else (less if difference < -resolution else same)


def main():
    runs = sys.argv[1] if len(sys.argv) > 1 else "runs"
    extents = {}
    print("cylinderEmptying summary ([Wedel2023] Sect. 5.4)")
    for run in RUNS:
        fill = settledFrom(os.path.join(runs, run, "empty"))
        print("  %-12s fill:  %s: %s" % (run, fill, fillSummary(fill, os.path.join(runs, run, "empty"))))
    for run in RUNS:
        empty = os.path.join(runs, run, "empty")
        rows = readCsv(os.path.join(empty, "extent.csv"))
        extents[run] = {float(r["time"]): r for r in rows}
        injected, last = int(rows[0]["parcels"]), rows[-1]
        print("  %-12s empty: t = %s s, parcels %d of %d (lost %d), CPU %.0f s"
              % (run, last["time"], int(last["parcels"]), injected,
                 injected - int(last["parcels"]),
                 cpuTime(os.path.join(empty, "log.superellipsoidPimpleFoam")) or float("nan")))

    print("\n  %6s  %-12s %9s %9s %9s %10s   bounding box [m]" % ("t [s]", "run", "height", "spread",
                                                                 "ratio", "footprint"))
    verdict = []
    for t in [0, 1, 2.5, 5, 10]:
        here = {run: extents[run].get(t) for run in RUNS}
        if any(r is None for r in here.values()):
            continue
        for run in RUNS:
            r = here[run]
            print("  %6g  %-12s %9.4f %9.4f %9.3f %10.4f   x [%.4f, %.4f] y [%.4f, %.4f] z [%.4f, %.4f]"
                  % (t, run, float(r["height"]), float(r["spread"]), float(r["ratio"]),
                     float(r["footprint"]), *(float(r[k]) for k in
                                              ["xmin", "xmax", "ymin", "ymax", "zmin", "zmax"])))
        if t > 0:
            a, b = here["frictional"], here["frictionless"]
            verdict.append("t = %g s: frictional %s and %s (height %.4f vs %.4f m, spread %.4f vs %.4f m)"
                           % (t, compare(float(a["height"]) - float(b["height"]), "higher", "as high", "lower"),
                              compare(float(b["spread"]) - float(a["spread"]), "narrower", "as wide", "wider"),
                              float(a["height"]), float(b["height"]),
                              float(a["spread"]), float(b["spread"])))
    print("\n  Fig. 23: the frictional pile stays higher and narrower than the frictionless one")
    for line in verdict:
        print("    " + line)


if __name__ == "__main__":
    main()

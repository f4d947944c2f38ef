#!/usr/bin/env python3
"""Random non-overlapping sphere centres in a vertical cylinder ([Wedel2023]
Sect. 5.3/5.4: "randomly injected into a cylindrical volume ... to ensure
that particles do not overlap at initialization").

Random sequential addition with a fixed seed (reproducible): a candidate
centre, uniform in the cylinder volume that keeps the sphere a clearance
'gap' off the faceted wall, floor and lid, is kept if it is at least
d + gap from every centre kept so far. Writes an OpenFOAM vectorField
(manualInjection positionsFile).

  randomPositions.py N d D L [--seed S] [--zmax Z] [--facets F] [--gap G] -o FILE

Standard library only.
"""
import argparse
import math
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, help="number of spheres")
    ap.add_argument("d", type=float, help="sphere diameter [m]")
    ap.add_argument("D", type=float, help="cylinder diameter [m] (axis x = y = 0)")
    ap.add_argument("L", type=float, help="cylinder length [m] (floor z = 0)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--zmax", type=float, default=None,
                    help="inject below this height only (default L)")
    ap.add_argument("--facets", type=int, default=48,
                    help="faces around the mesh circumference (the wall is the "
                         "inscribed polygon, radius R cos(pi/facets))")
    ap.add_argument("--gap", type=float, default=None,
                    help="clearance [m] (default 0.02 d)")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()

    d, n = args.d, args.n
    gap = 0.02*d if args.gap is None else args.gap
    zmax = args.L if args.zmax is None else min(args.zmax, args.L)
    rMax = 0.5*args.D*math.cos(math.pi/args.facets) - 0.5*d - gap
    zLo, zHi = 0.5*d + gap, zmax - 0.5*d - gap
    if rMax <= 0 or zHi <= zLo:
        sys.exit("randomPositions.py: the cylinder is too small for d = %g" % d)

    rng = random.Random(args.seed)
    cell = d + gap                      # cell list: neighbours in 3x3x3 cells
    grid = {}
    kept = []
    attempts, maxAttempts = 0, 10000*n
    while len(kept) < n:
        attempts += 1
        if attempts > maxAttempts:
            sys.exit("randomPositions.py: placed only %d of %d spheres in %d attempts"
                     % (len(kept), n, maxAttempts))
        r = rMax*math.sqrt(rng.random())
        phi = 2*math.pi*rng.random()
        p = (r*math.cos(phi), r*math.sin(phi), zLo + (zHi - zLo)*rng.random())
        key = tuple(int(math.floor(c/cell)) for c in p)
        ok = True
        for i in (-1, 0, 1):
            for j in (-1, 0, 1):
                for k in (-1, 0, 1):
                    for q in grid.get((key[0] + i, key[1] + j, key[2] + k), ()):
                        if sum((a - b)**2 for a, b in zip(p, q)) < cell*cell:
                            ok = False
                            break
                    if not ok:
                        break
                if not ok:
                    break
            if not ok:
                break
        if ok:
            kept.append(p)
            grid.setdefault(key, []).append(p)

    with open(args.output, "w") as f:
        f.write("FoamFile { version 2.0; format ascii; class vectorField; "
                "object kinematicCloudPositions; }\n")
        f.write("// %d spheres d = %g m in a cylinder D = %g m below z = %g m, seed %d, "
                "%d attempts\n" % (n, d, args.D, zmax, args.seed, attempts))
        f.write("%d\n(\n" % n)
        for p in kept:
            f.write("(%.9e %.9e %.9e)\n" % p)
        f.write(")\n")
    volumeFraction = n*math.pi*d**3/6/(math.pi*args.D**2/4*zmax)
    print("randomPositions.py: %d spheres (volume fraction %.3f of the cylinder) in %d attempts -> %s"
          % (n, volumeFraction, attempts, args.output))


if __name__ == "__main__":
    main()

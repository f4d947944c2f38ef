#!/usr/bin/env python3
"""The incidence variants of settlingFiniteRe (prolateFroehlich,
prolateIsotropic): elevation of the long (x') axis above the horizontal and
the velocity of the parcel at every written time.

    python3 incidence.py variants incidence.csv [incidence.png]

Elevation from the quaternion (e0, e1, e2, e3), particle -> global:
sin(elevation) = |R_zx| = |2 (e1 e3 - e0 e2)|.
"""
import math
import os
import sys

# Shared part (tutorials/plotting): from the project tree, also when this
# case is a copy elsewhere ($SEFOAM_DIR is set by etc/bashrc)
sys.path.insert(0, os.path.join(os.environ.get("SEFOAM_DIR", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")), "tutorials", "plotting"))
from cloudHistory import cloudTimes, firstEntry  # noqa: E402

VARIANTS = ["prolateFroehlich", "prolateIsotropic"]


def history(caseDir):
    rows = []
    for t, cloud in cloudTimes(caseDir):
        e0 = firstEntry(os.path.join(cloud, "e0"))[0]
        e1, e2, e3 = firstEntry(os.path.join(cloud, "e123"))
        U = firstEntry(os.path.join(cloud, "U"))
        elevation = math.degrees(math.asin(min(1.0, abs(2*(e1*e3 - e0*e2)))))
        rows.append((t, elevation, U))
    return rows


def main():
    variants, csvPath = sys.argv[1], sys.argv[2]
    data = {v: history(os.path.join(variants, v)) for v in VARIANTS
            if os.path.isdir(os.path.join(variants, v))}
    with open(csvPath, "w") as f:
        f.write("variant,time,elevation_deg,Ux,Uy,Uz\n")
        for v, rows in data.items():
            for t, elev, U in rows:
                f.write("%s,%.6g,%.8g,%.10g,%.10g,%.10g\n" % (v, t, elev, U[0], U[1], U[2]))
    for v, rows in data.items():
        t, elev, U = rows[-1]
        print("settlingFiniteRe %s: at %g s elevation %.4g deg, velocity (%.4g %.4g %.4g) m/s"
              % (v, t, elev, U[0], U[1], U[2]))
    if len(sys.argv) > 3:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("incidence.py: no matplotlib, no plot")
            return
        fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
        for v, rows in data.items():
            a.plot([r[0] for r in rows], [r[1] for r in rows], "o-", label=v)
            b.plot([r[0] for r in rows], [math.hypot(r[2][0], r[2][1])/abs(r[2][2]) for r in rows],
                   "o-", label=v)
        a.set_xlabel("time (s)")
        a.set_ylabel("elevation of the long axis (deg)")
        a.set_title("2.5:1 prolate, Re ~ 100, released at 30 deg")
        b.set_xlabel("time (s)")
        b.set_ylabel("horizontal / vertical velocity")
        b.set_title("sideways drift")
        for ax in (a, b):
            ax.grid(alpha=0.3)
            ax.legend()
        fig.tight_layout()
        fig.savefig(sys.argv[3], dpi=110)
        print("incidence.py: %s" % sys.argv[3])


if __name__ == "__main__":
    main()

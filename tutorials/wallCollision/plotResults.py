#!/usr/bin/python3
"""Plots of the wallCollision runs ([Wedel2023] Sect. 5.1, as in Figs. 11-14).

Reads variants/<name>/trajectory.dat (written by Allrun from the log with
logParcels: t id x y z ux uy uz wx wy wz KEtrans KErot, w = omega' in the
particle frame), Dt from system/controlDict and nSubCycles/model from
constant/kinematicCloudProperties of each run, and writes into plots/:
  height_centric.png, height_eccentric.png   p_y/d_eq against t/t_ref
  omega_centric.png,  omega_eccentric.png    omega' against t/t_ref
one panel per shape, one line per Dt/t_ref (and per collision model).
Run with Debian's /usr/bin/python3 (python3-matplotlib):
  /usr/bin/python3 plotResults.py [caseDir]
"""
import os
import sys

# Shared part (tutorials/plotting): from the project tree, also when this
# case is a copy elsewhere ($SEFOAM_DIR is set by etc/bashrc)
sys.path.insert(0, os.path.join(os.environ.get("SEFOAM_DIR", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")), "tutorials", "plotting"))
from collisionRuns import colours, figure, finish, readRuns  # noqa: E402

D_EQ = 1e-3    # equivalent diameter [m] (constant/kinematicCloudProperties)
T_REF = 1e-3   # t_ref = d_eq/|u_0y| = 1 mm / (1 m/s) [s]
SHAPES = ["sphere", "prolate", "cube", "diamond"]
ORIENTATIONS = {"centric": "centric (phi = 0)",
                "eccentric": "eccentric (phi = 45 deg)"}


def readTrajectory(dat):
    """Parcel 0:0: t/t_ref, p_y/d_eq and omega'."""
    t, y, w = [], [], []
    with open(dat) as f:
        for line in f:
            c = line.split()
            if len(c) < 13 or c[1] != "0:0":
                continue
            t.append(float(c[0])/T_REF)
            y.append(float(c[3])/D_EQ)
            w.append([float(v) for v in c[8:11]])
    return {"t": t, "y": y, "w": w}


def main():
    caseDir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    runs = readRuns(caseDir, T_REF, readTrajectory)
    if not runs:
        sys.exit("plotResults.py: no variants/*/trajectory.dat in " + caseDir)
    colour = colours(runs)
    outDir = os.path.join(caseDir, "plots")
    os.makedirs(outDir, exist_ok=True)

    for orient, orientTitle in ORIENTATIONS.items():
        if not any(k[0] == orient for k in runs):
            continue
        # Height of the centre above the wall (Fig. 11 centric, Fig. 13 eccentric)
        fig, axes = figure(1, len(SHAPES), "wallCollision, %s impact: height of the centre against time"
                           % orientTitle)
        for j, shape in enumerate(SHAPES):
            ax = axes[0, j]
            for r in runs.get((orient, shape), []):
                ax.plot(r["t"], r["y"], color=colour[r["label"]], label=r["label"])
            ax.set_title(shape)
            ax.set_xlabel("t/t_ref [-]")
            ax.set_ylabel("p_y/d_eq [-]")
            ax.grid(alpha=0.3)
        finish(fig, axes, os.path.join(outDir, "height_%s.png" % orient))

        # Angular velocity (Fig. 12 centric, Fig. 14 eccentric): omega'_z on
        # top, omega'_x and omega'_y below (rotation about z only: omega'_z = omega_z)
        fig, axes = figure(2, len(SHAPES), "wallCollision, %s impact: angular velocity omega' "
                           "(particle frame) against time" % orientTitle)
        for j, shape in enumerate(SHAPES):
            for r in runs.get((orient, shape), []):
                c = colour[r["label"]]
                axes[0, j].plot(r["t"], [w[2] for w in r["w"]], color=c, label=r["label"])
                axes[1, j].plot(r["t"], [w[0] for w in r["w"]], color=c, ls="-")
                axes[1, j].plot(r["t"], [w[1] for w in r["w"]], color=c, ls=":")
            axes[0, j].set_title(shape)
            axes[0, j].set_ylabel("omega'_z [rad/s]")
            axes[1, j].set_ylabel("omega'_x (solid), omega'_y (dotted) [rad/s]")
            axes[1, j].set_xlabel("t/t_ref [-]")
            for ax in axes[:, j]:
                ax.grid(alpha=0.3)
        finish(fig, axes, os.path.join(outDir, "omega_%s.png" % orient))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Plots of the particleCollision runs ([Wedel2023] Sect. 5.2, as in Figs. 16-19).

Reads variants/<name>/trajectory.dat (written by Allrun from the log with
logParcels: t id x y z ux uy uz wx wy wz KEtrans KErot per parcel, A = 0:0,
B = 0:1, w = omega' in the particle frame), Dt from system/controlDict and
nSubCycles/model from constant/kinematicCloudProperties of each run, and
writes into plots/:
  trajectory_centric.png, trajectory_eccentric.png   p_x and u_x of A and B
  omega_centric.png,      omega_eccentric.png        omega' of A and B
against t/t_ref, one column per shape, one line per Dt/t_ref (and model).
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
T_REF = 1e-3   # t_ref = d_eq/|u_0A| = 1 mm / (1 m/s) [s]
X0_A = 0.5     # initial x of particle A [m]
SHAPES = ["sphere", "prolate", "cube", "diamond"]
ORIENTATIONS = {"centric": "centric (A: phi = 0, B: phi = -90 deg)",
                "eccentric": "eccentric (A: phi = 45 deg, B: phi = -90 deg)"}
PARCELS = {"0:0": "A", "0:1": "B"}


def readTrajectory(dat):
    """Parcels A and B: t/t_ref, (p_x - p_0A,x)/d_eq, u_x and omega'."""
    data = {p: {"t": [], "x": [], "u": [], "w": []} for p in PARCELS.values()}
    with open(dat) as f:
        for line in f:
            c = line.split()
            if len(c) < 13 or c[1] not in PARCELS:
                continue
            d = data[PARCELS[c[1]]]
            d["t"].append(float(c[0])/T_REF)
            d["x"].append((float(c[2]) - X0_A)/D_EQ)
            d["u"].append(float(c[5]))
            d["w"].append([float(v) for v in c[8:11]])
    return data


def main():
    caseDir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    runs = readRuns(caseDir, T_REF, readTrajectory)
    if not runs:
        sys.exit("plotResults.py: no variants/*/trajectory.dat in " + caseDir)
    colour = colours(runs)
    outDir = os.path.join(caseDir, "plots")
    os.makedirs(outDir, exist_ok=True)
    styles = {"A": "-", "B": "--"}

    for orient, orientTitle in ORIENTATIONS.items():
        if not any(k[0] == orient for k in runs):
            continue
        # Translation (Fig. 16 centric, Fig. 18 eccentric): A solid, B dashed
        fig, axes = figure(2, len(SHAPES), "particleCollision, %s: position and velocity of A (solid) "
                           "and B (dashed) against time" % orientTitle)
        for j, shape in enumerate(SHAPES):
            for r in runs.get((orient, shape), []):
                for p, ls in styles.items():
                    d = r[p]
                    label = r["label"] if p == "A" else None
                    axes[0, j].plot(d["t"], d["x"], color=colour[r["label"]], ls=ls, label=label)
                    axes[1, j].plot(d["t"], d["u"], color=colour[r["label"]], ls=ls)
            axes[0, j].set_title(shape)
            axes[0, j].set_ylabel("(p_x - p_0A,x)/d_eq [-]")
            axes[1, j].set_ylabel("u_x [m/s]")
            axes[1, j].set_xlabel("t/t_ref [-]")
            for ax in axes[:, j]:
                ax.grid(alpha=0.3)
        finish(fig, axes, os.path.join(outDir, "trajectory_%s.png" % orient))

        # Rotation (Fig. 17 centric, Fig. 19 eccentric): omega'_z of A and B on
        # top, omega'_x and omega'_y below (rotation about z only: omega'_z = omega_z)
        fig, axes = figure(2, len(SHAPES), "particleCollision, %s: angular velocity omega' (particle frame) "
                           "of A (solid) and B (dashed) against time" % orientTitle)
        for j, shape in enumerate(SHAPES):
            for r in runs.get((orient, shape), []):
                c = colour[r["label"]]
                for p, ls in styles.items():
                    d = r[p]
                    label = r["label"] if p == "A" else None
                    axes[0, j].plot(d["t"], [w[2] for w in d["w"]], color=c, ls=ls, label=label)
                    axes[1, j].plot(d["t"], [w[0] for w in d["w"]], color=c, ls=ls)
                    axes[1, j].plot(d["t"], [w[1] for w in d["w"]], color=c, ls=ls, lw=0.8, alpha=0.6)
            axes[0, j].set_title(shape)
            axes[0, j].set_ylabel("omega'_z [rad/s]")
            axes[1, j].set_ylabel("omega'_x (thick), omega'_y (thin) [rad/s]")
            axes[1, j].set_xlabel("t/t_ref [-]")
            for ax in axes[:, j]:
                ax.grid(alpha=0.3)
        finish(fig, axes, os.path.join(outDir, "omega_%s.png" % orient))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The settling variants of the resolvedCoefficientTables tutorial: position,
velocity and orientation of the one parcel at every written time, a CSV, a
summary against the isotropic law and, with --png, a plot.

    python3 settling.py variants settling.csv [--png settling.png]

Tilt: the angle between the vertical and the body z' axis (the cylinder's
axis); for the cube-like body the angle to the nearest body axis (0: a face
down, 45: an edge, 54.7: a corner). From the quaternion (e0, e1, e2, e3),
particle -> global, the bottom row of R: (2 (e1 e3 - e0 e2), 2 (e2 e3 + e0 e1),
1 - 2 (e1^2 + e2^2)).
"""
import argparse
import math
import os
import re
import sys

# Shared part (tutorials/plotting): from the project tree, also when this
# case is a copy elsewhere ($SEFOAM_DIR is set by etc/bashrc)
sys.path.insert(0, os.path.join(os.environ.get("SEFOAM_DIR", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")), "tutorials", "plotting"))
from cloudHistory import cloudTimes, firstEntry  # noqa: E402

VARIANTS = [("cubeTable", "cube", "resolvedTable"), ("cubeIsotropic", "cube", "isotropic"),
            ("cylinderTable", "cylinder", "resolvedTable"), ("cylinderIsotropic", "cylinder", "isotropic")]


def viscosity(caseDir):
    text = open(os.path.join(caseDir, "constant", "transportProperties")).read()
    return float(re.search(r"^nu\s+([-+0-9.eE]+);", text, re.M).group(1))


def tilt(e, shape):
    e0, e1, e2, e3 = e
    row = (2*(e1*e3 - e0*e2), 2*(e2*e3 + e0*e1), 1 - 2*(e1*e1 + e2*e2))
    c = max(abs(x) for x in row) if shape == "cube" else abs(row[2])
    return math.degrees(math.acos(min(1.0, c)))


def history(caseDir, shape):
    rows = []
    for t, cloud in cloudTimes(caseDir):
        e = firstEntry(os.path.join(cloud, "e0")) + firstEntry(os.path.join(cloud, "e123"))
        rows.append({"t": t, "x": firstEntry(os.path.join(cloud, "positions"))[:3],
                     "U": firstEntry(os.path.join(cloud, "U")), "d": firstEntry(os.path.join(cloud, "d"))[0],
                     "tilt": tilt(e, shape)})
    return rows


def terminal(rows, nu):
    """Mean over the last quarter of the run: settling speed, horizontal
    speed, Re_p, tilt (and its range)."""
    tail = [r for r in rows if r["t"] >= 0.75*rows[-1]["t"]]
    n = len(tail)
    vz = sum(-r["U"][2] for r in tail)/n
    vh = sum(math.hypot(r["U"][0], r["U"][1]) for r in tail)/n
    tilts = [r["tilt"] for r in tail]
    return {"vz": vz, "vh": vh, "Re": math.hypot(vz, vh)*tail[-1]["d"]/nu,
            "tilt": sum(tilts)/n, "tiltMin": min(tilts), "tiltMax": max(tilts),
            "drift": math.hypot(rows[-1]["x"][0] - rows[0]["x"][0], rows[-1]["x"][1] - rows[0]["x"][1]),
            "fall": rows[0]["x"][2] - rows[-1]["x"][2]}


def plot(data, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    colour = {"cube": "tab:blue", "cylinder": "tab:orange"}
    for name, shape, law, rows in data:
        style = dict(color=colour[shape], ls="-" if law == "resolvedTable" else "--", label=name)
        t = [r["t"] for r in rows]
        axes[0].plot(t, [r["tilt"] for r in rows], **style)
        axes[1].plot(t, [-r["U"][2] for r in rows], **style)
        x0 = rows[0]["x"]
        axes[2].plot([1e3*math.hypot(r["x"][0] - x0[0], r["x"][1] - x0[1]) for r in rows],
                     [1e3*(r["x"][2] - x0[2]) for r in rows], **style)
    axes[0].set_ylabel("tilt (deg): cube nearest axis, cylinder axis")
    axes[1].set_ylabel("settling speed -U_z (m/s)")
    axes[2].set_xlabel("horizontal drift (mm)")
    axes[2].set_ylabel("height below the release point (mm)")
    for ax in axes[:2]:
        ax.set_xlabel("time (s)")
    axes[0].set_title("orientation, released at 30 deg")
    axes[1].set_title("velocity")
    axes[2].set_title("trajectory")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print("settling.py: %s" % png)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", help="folder of the variants (cubeTable, ...)")
    ap.add_argument("csv", help="history of every variant, written there")
    ap.add_argument("--png", help="write the figure there (needs matplotlib)")
    args = ap.parse_args()
    variants, csvPath, png = args.variants, args.csv, args.png
    data = [(name, shape, law, history(os.path.join(variants, name), shape)) for name, shape, law in VARIANTS
            if os.path.isdir(os.path.join(variants, name))]
    with open(csvPath, "w") as f:
        f.write("variant,time,x,y,z,Ux,Uy,Uz,tilt_deg\n")
        for name, _, _, rows in data:
            for r in rows:
                f.write("%s,%.6g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.8g\n"
                        % ((name, r["t"]) + tuple(r["x"]) + tuple(r["U"]) + (r["tilt"],)))
    ends = {}
    for name, shape, law, rows in data:
        end = ends[name] = terminal(rows, viscosity(os.path.join(variants, name)))
        print("resolvedCoefficientTables %s (%s): last quarter of %g s: settling %.4g m/s, horizontal %.3g m/s, Re_p %.3g,"
              " tilt %.3g deg (%.3g to %.3g); fell %.1f mm, drifted %.2f mm"
              % (name, law, rows[-1]["t"], end["vz"], end["vh"], end["Re"], end["tilt"], end["tiltMin"],
                 end["tiltMax"], 1e3*end["fall"], 1e3*end["drift"]))
    for shape in ("cube", "cylinder"):
        table, iso = ends.get(shape + "Table"), ends.get(shape + "Isotropic")
        if table and iso:
            print("resolvedCoefficientTables %s: settling speed table / isotropic = %.4f, tilt %.3g vs %.3g deg"
                  % (shape, table["vz"]/iso["vz"], table["tilt"], iso["tilt"]))
    if png:
        plot(data, png)


if __name__ == "__main__":
    main()

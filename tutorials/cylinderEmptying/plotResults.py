#!/usr/bin/python3
"""Plots of the cylinderEmptying runs (Debian's /usr/bin/python3 with
python3-matplotlib):

  plots/pileExtent.png   pile height, horizontal spread and height/spread
                         against time, frictionless vs frictional (Fig. 23)
  plots/fillEnergy.png   kinetic energy of the fill stage (settling to rest)

  plots/frontViews.png   (--montage) the front views front-<run>-<t>.png of
                         both runs at t = 0, 1, 2.5, 5, 10 s side by side (Fig. 23)

  plots/dischargeFronts.png  (--compare <stokesRunsDir>) spread and footprint
                         against time of both runs with the finite-Re drag
                         and added mass (<runsDir>) and the Stokes drag

  plotResults.py <runsDir> <plotsDir> [--montage | --compare <stokesRunsDir>]
"""
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RUNS = [("frictionless", "tab:blue", r"frictionless ($\epsilon_t$ = 1)"),
        ("frictional", "tab:red", r"frictional ($\mu$ = 0.25, Eqs. 87-88 of [Wedel2023])")]


def readCsv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


def montage(plots):
    times = [t for t in ("0", "1", "2.5", "5", "10")
             if all(os.path.isfile(os.path.join(plots, "front-%s-%s.png" % (run, t))) for run, _, _ in RUNS)]
    if not times:
        sys.exit("plotResults.py: no front-<run>-<t>.png in %s" % plots)
    fig, axes = plt.subplots(2, len(times), figsize=(2.6*len(times), 5.6), squeeze=False)
    for i, (run, _, _) in enumerate(RUNS):
        for j, t in enumerate(times):
            axes[i][j].imshow(plt.imread(os.path.join(plots, "front-%s-%s.png" % (run, t))))
            axes[i][j].axis("off")
    fig.suptitle("Front views: frictionless (top), frictional (bottom)\n"
                 "t > 0: box = the frictionless pile's bounding box", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(plots, "frontViews.png"), dpi=85)
    print("plotResults.py: %s/frontViews.png (t = %s s)" % (plots, ", ".join(times)))


def compare(runs, stokes, plots):
    """Discharge fronts (bounding-box spread and footprint) and heights of both drag models"""
    models = ((runs, "-", "finite Re + added mass"), (stokes, "--", "Stokes (seed)"))
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.6))
    for ax, run in zip(axes, ("frictionless", "frictional")):
        for directory, ls, label in models:
            e = readCsv(os.path.join(directory, run, "empty", "extent.csv"))
            ax.plot(e["time"], [1e3*s for s in e["spread"]], color="tab:red", ls=ls,
                    label="spread, " + label)
            ax.plot(e["time"], [1e3*s for s in e["footprint"]], color="tab:blue", ls=ls,
                    label="footprint, " + label)
        ax.set_title(run + ": discharge front", fontsize=10)
        ax.set_ylabel("[mm]")
    for run, colour, label in RUNS:
        for directory, ls, model in models:
            e = readCsv(os.path.join(directory, run, "empty", "extent.csv"))
            axes[2].plot(e["time"], [1e3*h for h in e["height"]], color=colour, ls=ls, label=run + ", " + model)
    axes[2].set_title("pile height", fontsize=10)
    axes[2].set_ylabel("height [mm]")
    for ax in axes:
        ax.set_xlabel("t [s]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Cylinder emptying: discharge fronts with the finite-Re drag and added mass vs the Stokes drag",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(plots, "dischargeFronts.png"), dpi=90)
    print("plotResults.py: %s/dischargeFronts.png" % plots)


def main():
    runs = sys.argv[1] if len(sys.argv) > 1 else "runs"
    plots = sys.argv[2] if len(sys.argv) > 2 else "plots"
    os.makedirs(plots, exist_ok=True)
    if "--montage" in sys.argv[3:]:
        montage(plots)
        return
    if "--compare" in sys.argv[3:]:
        compare(runs, sys.argv[sys.argv.index("--compare") + 1], plots)
        return

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    for run, colour, label in RUNS:
        e = readCsv(os.path.join(runs, run, "empty", "extent.csv"))
        axes[0].plot(e["time"], [1e3*h for h in e["height"]], color=colour, label=label)
        axes[1].plot(e["time"], [1e3*s for s in e["spread"]], color=colour, label=label)
        axes[1].plot(e["time"], [1e3*s for s in e["footprint"]], color=colour, ls=":", lw=1)
        axes[2].plot(e["time"], e["ratio"], color=colour, label=label)
    axes[0].set_ylabel("pile height [mm]")
    axes[1].set_ylabel("horizontal spread [mm]\n(solid: bounding box, dotted: footprint)")
    axes[2].set_ylabel("height / spread")
    axes[2].set_yscale("log")
    for ax in axes:
        ax.set_xlabel("t [s]")
        ax.grid(alpha=0.3)
        for t in (1, 2.5, 5, 10):
            ax.axvline(t, color="0.8", lw=0.8, zorder=0)
    axes[0].legend(fontsize=8)
    fig.suptitle("Cylinder emptying in water: 300 spheres d = 11 mm, $\\epsilon_n$ = 0.2 ([Wedel2023] Fig. 23)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(plots, "pileExtent.png"), dpi=90)

    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    for run, colour, label in RUNS:
        path = os.path.join(runs, run, "fill", "postProcessing", "superellipsoidCollisions", "0",
                            "collisions.csv")
        if not os.path.isfile(path):
            continue
        c = readCsv(path)
        ke = [a + b for a, b in zip(c["kineticEnergyTranslational"], c["kineticEnergyRotational"])]
        step = max(1, len(ke)//2000)
        ax.semilogy(c["time"][::step], ke[::step], color=colour, label=label)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("kinetic energy [J]")
    ax.set_title("Fill: settling in the cylinder (dry, $\\Delta t$ = 1e-5 s)", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(plots, "fillEnergy.png"), dpi=90)
    print("plotResults.py: %s/pileExtent.png, %s/fillEnergy.png" % (plots, plots))


if __name__ == "__main__":
    main()

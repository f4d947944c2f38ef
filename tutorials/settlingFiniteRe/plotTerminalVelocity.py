"""Terminal velocity against d_eq for the six shapes of settlingFiniteRe:
simulated (markers) and the reference solved from the drag law (lines),
with the Stokes-law sphere for contrast.

    plotTerminalVelocity.py terminalVelocity.csv terminalVelocity.png
"""
import csv
import math
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main(csvPath, pngPath):
    rows = list(csv.DictReader(open(csvPath)))
    shapes = []
    for r in rows:
        if r["shape"] not in shapes:
            shapes.append(r["shape"])

    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    for shape in shapes:
        sel = [r for r in rows if r["shape"] == shape]
        d = [1e3*float(r["d_eq"]) for r in sel]
        line, = ax.plot(d, [float(r["v_reference"]) for r in sel], "-", lw=1)
        ax.plot(d, [float(r["v_simulated"]) for r in sel], "o", mfc="none",
                color=line.get_color(), label=shape)

    # Stokes' law for the sphere (Brenner's law without the finite-Re factor)
    dStokes = [0.15*(2.5/0.15)**(i/40) for i in range(41)]
    ax.plot(dStokes, [1500*9.81*(1e-3*x)**2/(18*1e-3) for x in dStokes], "k--", lw=1,
            label="sphere, Stokes' law")

    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(5e-3, 10)
    ax.set_xlabel("volume-equivalent diameter d_eq [mm]")
    ax.set_ylabel("terminal velocity [m/s]")
    ax.set_title("settlingFiniteRe: rho_p 2500 in water (Re_p ~ 2 to 800)\n"
                 "markers: simulated, lines: Schiller-Naumann x Brenner reference")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", lw=0.3)
    fig.tight_layout()
    fig.savefig(pngPath, dpi=120)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

#!/usr/bin/env python3
"""Bed expansion of the liquidFluidizedBed runs: the mean voidage against the
superficial velocity, against Richardson & Zaki (1954) with Rowe's (1987)
exponent and against the homogeneous bed of Di Felice's law in model B
(docs/dense-beds.md).

    python3 bedExpansion.py runs --average 0.4

Every run runs/<shape>-U<U>/ holds postProcessing/bed/<start>/bedStatistics.csv
(one folder per start or restart);
the voidage and bed height are averaged over the run's last --average
seconds. Writes runs/expansion.csv (shape, U, voidage, bedHeight, and the
laws' voidage), runs/expansion.md, plots/bedExpansion.png and
plots/voidageHistory.png (every run's voidage against time).
The laws are those of src/core/hydrodynamics/RichardsonZaki.H and
DenseDragLaws.H, written again here for the plot:
  R-Z:        U/u_t = eps^n, n = (4.7 + 0.41 Re_t^0.75)/(1 + 0.175 Re_t^0.75),
              u_t of the isolated sphere (Schiller-Naumann): 18 f(Re_t) Re_t = Ar
  Di Felice:  the bed's drag carries its buoyant weight per particle,
              3 pi mu d (U/eps) f(Re_m) eps^-chi = V_p (rho_p - rho_f) g,
              Re_m = U d/nu, chi = 3.7 - 0.65 exp(-(1.5 - log10 Re_m)^2/2),
              closed form for eps since Re_m does not depend on it.
"""
import argparse
import csv
import glob
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plotting"))
from reportTools import pyplot, writeTable  # noqa: E402

RHO_P = 2500.0      # glass [kg/m^3]
RHO_F = 1000.0      # water
MU = 1e-3           # [Pa s]
D = 1e-3            # volume-equivalent diameter [m]
G = 9.81


def schillerNaumann(Re):
    return 1 + 0.15*Re**0.687


def terminalReynolds():
    """Root of 18 f(Re) Re = Ar by bisection (Schiller-Naumann)."""
    Ar = RHO_F*(RHO_P - RHO_F)*G*D**3/MU**2
    lo, hi = 0.0, Ar/18
    for _ in range(200):
        mid = 0.5*(lo + hi)
        if 18*schillerNaumann(mid)*mid < Ar:
            lo = mid
        else:
            hi = mid
    return 0.5*(lo + hi)


def roweExponent(Ret):
    r = Ret**0.75
    return (4.7 + 0.41*r)/(1 + 0.175*r)


def richardsonZakiVoidage(U, ut, Ret):
    return (U/ut)**(1/roweExponent(Ret))


def diFeliceVoidage(U):
    Rem = RHO_F*U*D/MU
    chi = 3.7 - 0.65*math.exp(-(1.5 - math.log10(Rem))**2/2)
    Vp = math.pi/6*D**3
    ratio = 3*math.pi*MU*D*U*schillerNaumann(Rem)/(Vp*(RHO_P - RHO_F)*G)
    return ratio**(1/(1 + chi))


def readRun(runDir, average):
    """Rows of every start-time folder of the run (a restarted run writes
    postProcessing/bed/<restart time>/), later folders replacing the rows
    they repeat."""
    rows = {}
    paths = glob.glob(os.path.join(runDir, "postProcessing", "bed", "*", "bedStatistics.csv"))
    for path in sorted(paths, key=lambda p: float(p.split(os.sep)[-2])):
        with open(path) as f:
            for r in csv.DictReader(f):
                t = float(r["time"])
                rows[t] = (t, float(r["superficialVelocity"]), float(r["meanVoidage"]), float(r["bedHeight"]))
    rows = [rows[t] for t in sorted(rows)]
    if not rows:
        return None
    end = rows[-1][0]
    tail = [r for r in rows if r[0] > end - average + 1e-12]
    n = len(tail)
    return dict(U=sum(r[1] for r in tail)/n, eps=sum(r[2] for r in tail)/n,
                H=sum(r[3] for r in tail)/n, end=end, history=rows,
                epsMin=min(r[2] for r in tail), epsMax=max(r[2] for r in tail))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("runs")
    parser.add_argument("--average", type=float, default=0.4, help="averaging window at the end [s]")
    parser.add_argument("--plots", default="plots")
    args = parser.parse_args()

    Ret = terminalReynolds()
    ut = Ret*MU/(RHO_F*D)
    results = []
    for runDir in sorted(glob.glob(os.path.join(args.runs, "*-U*"))):
        m = re.match(r"(.+)-U([0-9.eE+-]+)$", os.path.basename(runDir))
        run = readRun(runDir, args.average) if m else None
        if run:
            run["shape"] = m.group(1)
            run["rz"] = richardsonZakiVoidage(run["U"], ut, Ret)
            run["df"] = diFeliceVoidage(run["U"])
            results.append(run)
    if not results:
        raise SystemExit("bedExpansion: no runs in %s" % args.runs)
    results.sort(key=lambda r: (r["shape"] != "sphere", r["shape"], r["U"]))

    with open(os.path.join(args.runs, "expansion.csv"), "w") as f:
        f.write("shape,U,voidage,bedHeight,voidageRichardsonZaki,voidageDiFelice\n")
        for r in results:
            f.write("%s,%.6g,%.6g,%.6g,%.6g,%.6g\n" % (r["shape"], r["U"], r["eps"], r["H"], r["rz"], r["df"]))
    lines = ["Isolated sphere: u_t %.4f m/s, Re_t %.1f, Rowe's n %.3f; voidage averaged over the last %g s"
             % (ut, Ret, roweExponent(Ret), args.average), "",
             "| shape | U (m/s) | voidage sim (min-max) | H (mm) | R-Z | sim/R-Z | Di Felice bed | sim/Di Felice |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append("| %s | %.4f | %.4f (%.4f-%.4f) | %.1f | %.4f | %.3f | %.4f | %.3f |"
                     % (r["shape"], r["U"], r["eps"], r["epsMin"], r["epsMax"], 1e3*r["H"],
                        r["rz"], r["eps"]/r["rz"], r["df"], r["eps"]/r["df"]))
    writeTable(os.path.join(args.runs, "expansion.md"), lines)

    plt = pyplot("bedExpansion", args.plots)
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    Umax = 1.2*max(r["U"] for r in results)
    Us = [Umax*(i + 1)/200 for i in range(200)]
    ax.plot(Us, [richardsonZakiVoidage(u, ut, Ret) for u in Us], "k-", lw=1.2,
            label="Richardson-Zaki, Rowe's n = %.2f" % roweExponent(Ret))
    ax.plot(Us, [diFeliceVoidage(u) for u in Us], "k--", lw=1, label="Di Felice, homogeneous bed (model B)")
    for shape, marker in (("sphere", "o"), ("prolate", "s")):
        rs = [r for r in results if r["shape"] == shape]
        if rs:
            ax.errorbar([r["U"] for r in rs], [r["eps"] for r in rs],
                        yerr=[[r["eps"] - r["epsMin"] for r in rs], [r["epsMax"] - r["eps"] for r in rs]],
                        fmt=marker, capsize=3, label="%s (simulated)" % shape)
    others = sorted({r["shape"] for r in results} - {"sphere", "prolate"})
    for shape in others:
        rs = [r for r in results if r["shape"] == shape]
        ax.plot([r["U"] for r in rs], [r["eps"] for r in rs], "^", label="%s (simulated)" % shape)
    ax.set_xlabel("superficial velocity U (m/s)")
    ax.set_ylabel("mean voidage of the bed")
    ax.set_title("1 mm glass beads in water (d_eq 1 mm for the prolate)")
    ax.set_ylim(0.35, 1.0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    out = os.path.join(args.plots, "bedExpansion.png")
    fig.savefig(out, dpi=120)
    print("bedExpansion: %s" % out)

    # The voidage of every run against time: each bed has settled before
    # the averaging window (shaded) starts
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for r in results:
        t = [row[0] for row in r["history"]]
        ax.plot(t, [row[2] for row in r["history"]], lw=1, label="%s, U = %g m/s" % (r["shape"], r["U"]))
        ax.axvspan(r["end"] - args.average, r["end"], color="0.9", zorder=0)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("mean voidage of the bed")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    out = os.path.join(args.plots, "voidageHistory.png")
    fig.savefig(out, dpi=120)
    print("bedExpansion: %s" % out)


if __name__ == "__main__":
    main()

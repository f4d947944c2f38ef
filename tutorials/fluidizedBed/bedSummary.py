#!/usr/bin/env python3
"""Summary of the fluidizedBed runs: pressure drop against superficial
velocity for every shape, against Ergun's law at the bed's simulated voidage
and sphericity, the buoyant-weight plateau and the minimum fluidization
velocity (docs/dense-beds.md).

    python3 bedSummary.py runs [--fillTime 0.3]

Writes runs/summary.csv (shape, U, dp, voidage, bedHeight: every step of the
fluidization), runs/summary.md (the table) and plots/pressureDrop.png.
The laws are those of src/core/hydrodynamics/PackedBedLaws.H (ergunPressure
Gradient, wenYuMinimumFluidizationVelocity, minimumFluidizationVelocity) and
DenseDragLaws.H (Beetstra), written again here for the plot and checked
against the core's values on import (docs/dense-beds.md, U_mf table).
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

RHO_P = 2000.0      # particle density [kg/m^3]
RHO_F = 10.0        # gas density
MU = 1.5e-3         # gas dynamic viscosity [Pa s]
G = 9.81
SHAPES = ["sphere", "prolate", "cube", "cylinder", "oblate"]


def ergunGradient(U, eps, d, phi):
    """Ergun (1952) with the sphericity: dp/L [Pa/m] at superficial U."""
    ds = phi*d
    return (150*MU*(1 - eps)**2*U/(eps**3*ds**2)
            + 1.75*RHO_F*(1 - eps)*U**2/(eps**3*ds))


def ergunUmf(eps, d, phi):
    """Root of Ergun's gradient = the buoyant weight (1 - eps)(rho_p - rho_f) g."""
    w = (1 - eps)*(RHO_P - RHO_F)*G
    a = 1.75*RHO_F*(1 - eps)/(eps**3*phi*d)
    b = 150*MU*(1 - eps)**2/(eps**3*(phi*d)**2)
    return (-b + math.sqrt(b*b + 4*a*w))/(2*a)


def wenYuUmf(d, phi):
    """Wen & Yu (1966): Re_mf = sqrt(33.7^2 + 0.0408 Ar) - 33.7 on phi d_v."""
    ds = phi*d
    Ar = ds**3*RHO_F*(RHO_P - RHO_F)*G/MU**2
    return (math.sqrt(33.7**2 + 0.0408*Ar) - 33.7)*MU/(RHO_F*ds)


def beetstraFactor(phi, Rem):
    """Beetstra et al. (2007): F_B(phi, Re_m), the drag over 3 pi mu d U_s."""
    eps = 1 - phi
    return (10*phi/eps**2 + eps**2*(1 + 1.5*math.sqrt(phi))
            + 0.413*Rem/(24*eps**2)*(1/eps + 3*phi*eps + 8.4*Rem**-0.343)
            / (1 + 10**(3*phi)*Rem**(-(1 + 4*phi)/2)))


def beetstraGradient(U, eps, d):
    """A sphere bed's -dp/dz [Pa/m] as the solver composes it (model B):
    n h f(Re_m) 3 pi mu d U/eps, h = F_B(phi, Re_m)/F_B(0, Re_m), f of
    Schiller-Naumann, n = (1 - eps)/V_p, Re_m = rho_f U d/mu."""
    Rem = RHO_F*U*d/MU
    h = beetstraFactor(1 - eps, Rem)/beetstraFactor(0, Rem)
    n = (1 - eps)/(math.pi/6*d**3)
    return n*h*(1 + 0.15*Rem**0.687)*3*math.pi*MU*d*U/eps


def lawUmf(gradient, eps):
    """Root of gradient(U) = (1 - eps)(rho_p - rho_f) g by bisection."""
    w = (1 - eps)*(RHO_P - RHO_F)*G
    lo, hi = 0.0, 1e-3
    while gradient(hi) < w:
        hi *= 2
    for _ in range(200):
        mid = 0.5*(lo + hi)
        lo, hi = (mid, hi) if gradient(mid) < w else (lo, mid)
    return 0.5*(lo + hi)


# The core's U_mf of Beetstra's law for the ErgunTestMPI spheres (dense-beds.md)
for _eps, _umf in ((0.40, 0.007527), (0.45, 0.011567)):
    assert abs(lawUmf(lambda u: beetstraGradient(u, _eps, 1e-3), _eps)/_umf - 1) < 1e-3


def readLogValue(path, pattern, last=False):
    value = None
    with open(path) as f:
        for line in f:
            m = re.search(pattern, line)
            if m:
                value = m.group(1)
                if not last:
                    break
    return value


def readRun(runDir, shape, fillTime):
    files = glob.glob(os.path.join(runDir, "postProcessing", "bed", "*", "bedStatistics.csv"))
    def start(f):
        return float(os.path.basename(os.path.dirname(f)))
    # The fluidization's folder: at fillTime, or else the first after 0
    if fillTime is None:
        stage2 = sorted((f for f in files if start(f) > 0), key=start)
    else:
        stage2 = [f for f in files if abs(start(f) - fillTime) < 1e-9]
    if not stage2:
        return None
    # The stage's first step reports the flux the solver formed before its
    # first pressure solve, the previous stage's (alphaPhi = alphacf phic):
    # not a point of the ramp
    rows = list(csv.DictReader(open(stage2[0])))[1:]
    log = os.path.join(runDir, "log.fluidize")
    phi = float(readLogValue(log, r"shape %s: .*sphericity ([0-9.eE+-]+)" % shape))
    d = float(readLogValue(log, r"shape %s: .*dEq ([0-9.eE+-]+)" % shape))
    area = float(readLogValue(log, r"inlet area ([0-9.eE+-]+)"))
    n = int(readLogValue(log, r"Current number of parcels\s*=\s*(\d+)", last=True))
    return dict(rows=rows, phi=phi, d=d, area=area, n=n)


def runningMean(values, half):
    """Mean over the window of 2 half + 1 steps about each step: the
    pressure drop's single-step spikes (solids displacing gas at rates of
    1/Dt, of either sign) average out, so a spike does not end the packed
    branch, and the fluidized bed's mean stays its plateau"""
    out = []
    for i in range(len(values)):
        w = values[max(0, i - half):i + half + 1]
        out.append(sum(w)/len(w))
    return out


def fitLine(points):
    """Least-squares line y = slope x + offset through (x, y) points"""
    n = len(points)
    mx = sum(x for x, _ in points)/n
    my = sum(y for _, y in points)/n
    sxx = sum((x - mx)**2 for x, _ in points)
    slope = sum((x - mx)*(y - my) for x, y in points)/sxx if sxx > 0 else float("nan")
    return slope, my - slope*mx


def analyse(shape, run):
    rows = run["rows"]
    U = [float(r["superficialVelocity"]) for r in rows]
    dp = [float(r["bedPressureDrop"]) for r in rows]
    eps = [float(r["meanVoidage"]) for r in rows]
    H = [float(r["bedHeight"]) for r in rows]
    V = math.pi/6*run["d"]**3
    plateau = run["n"]*V*(RHO_P - RHO_F)*G/run["area"]
    # The packed bed: the first tenth of the ramp
    k = max(1, len(rows)//10)
    epsPacked = sum(eps[:k])/k
    Hpacked = sum(H[:k])/k
    # Simulated U_mf: the line fitted to the packed branch (the steps before
    # dp first reaches 0.9 of the plateau), cut with the plateau. A fluidized
    # bed's dp scatters about the plateau, so its low values must not enter
    # the fit. The plateau: first the mean dp over the last tenth of the
    # ramp, then over the whole fluidized branch, U >= 1.25 U_mf (the
    # scatter's mean over many more steps), and the fit again
    smooth = runningMean(dp, max(1, len(dp)//50))

    def packedFit(plateauDp):
        end = next((i for i, p in enumerate(smooth) if p >= 0.9*plateauDp), len(dp))
        packed = list(zip(U[:end], smooth[:end]))
        if len(packed) < 2:
            return float("nan"), float("nan"), float("nan")
        slope, offset = fitLine(packed)
        return slope, offset, (plateauDp - offset)/slope

    simPlateau = sum(dp[-k:])/k
    slope, offset, UmfSim = packedFit(simPlateau)
    fluidized = [p for u, p in zip(U, dp) if u >= 1.25*UmfSim]
    if len(fluidized) >= k:
        simPlateau = sum(fluidized)/len(fluidized)
        slope, offset, UmfSim = packedFit(simPlateau)
    fitted = math.isfinite(UmfSim)
    return dict(U=U, dp=dp, smooth=smooth, eps=eps, H=H, plateau=plateau, simPlateau=simPlateau,
                epsPacked=epsPacked, Hpacked=Hpacked, slope=slope, offset=offset,
                UmfSim=UmfSim,
                UmfErgun=ergunUmf(epsPacked, run["d"], run["phi"]),
                UmfLaw=lawUmf(lambda u: beetstraGradient(u, epsPacked, run["d"]), epsPacked)
                if shape == "sphere" else float("nan"),
                UmfWenYu=wenYuUmf(run["d"], run["phi"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("runs")
    parser.add_argument("--fillTime", type=float, default=None,
                        help="start of the fluidization (default: each run's first start after 0)")
    parser.add_argument("--plots", default="plots")
    args = parser.parse_args()

    results = {}
    for shape in SHAPES:
        runDir = os.path.join(args.runs, shape)
        if os.path.isdir(runDir):
            run = readRun(runDir, shape, args.fillTime)
            if run:
                results[shape] = (run, analyse(shape, run))
    if not results:
        raise SystemExit("bedSummary: no finished runs in %s" % args.runs)

    with open(os.path.join(args.runs, "summary.csv"), "w") as f:
        f.write("shape,U,dp,voidage,bedHeight\n")
        for shape, (run, a) in results.items():
            for u, p, e, h in zip(a["U"], a["dp"], a["eps"], a["H"]):
                f.write("%s,%.6g,%.6g,%.6g,%.6g\n" % (shape, u, p, e, h))

    # Beetstra's own fixed-bed gradient at the bed's voidage, for spheres
    # only (for other shapes the law multiplies the orientation-resolved
    # drag, not modelled here)
    # at half and three quarters of each bed's own U_mf: below it, where
    # the bed is packed whatever the shape (U_mf 0.006-0.009 m/s)
    lines = ["| shape | sphericity | voidage | H (mm) | U/U_mf | U (m/s) | dp/L sim (Pa/m) | Ergun (Pa/m) "
             "| sim/Ergun | sim/Beetstra |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for shape, (run, a) in results.items():
        if not math.isfinite(a["UmfSim"]):
            continue
        for fraction in (0.5, 0.75):
            Uq = fraction*a["UmfSim"]
            i = min(range(len(a["U"])), key=lambda j: abs(a["U"][j] - Uq))
            sim = a["smooth"][i]/a["Hpacked"]   # running mean: single steps spike
            erg = ergunGradient(a["U"][i], a["epsPacked"], run["d"], run["phi"])
            law = ("%.3f" % (sim/beetstraGradient(a["U"][i], a["epsPacked"], run["d"]))
                   if shape == "sphere" else "-")
            lines.append("| %s | %.4f | %.3f | %.2f | %.2f | %.4f | %.0f | %.0f | %.3f | %s |"
                         % (shape, run["phi"], a["epsPacked"], 1e3*a["Hpacked"], fraction, a["U"][i], sim,
                            erg, sim/erg, law))
    lines += ["", "| shape | packed slope sim/Ergun | offset (Pa) | plateau sim (Pa) | W/A (Pa) | sim/(W/A) "
              "| U_mf sim | U_mf Beetstra(eps_sim) | U_mf Ergun(phi, eps_sim) | U_mf Wen-Yu |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for shape, (run, a) in results.items():
        # Ergun's slope over the packed branch's range: a secant (Ergun is
        # quadratic in U), from its lowest to its highest velocity
        Ulo, Uhi = a["U"][0], a["UmfSim"]
        ergunSlope = a["Hpacked"]*(ergunGradient(Uhi, a["epsPacked"], run["d"], run["phi"])
                                   - ergunGradient(Ulo, a["epsPacked"], run["d"], run["phi"]))/(Uhi - Ulo)
        # Beetstra's U_mf for spheres only: for other shapes the law
        # multiplies the orientation-resolved drag, not modelled here
        umfLaw = "%.4f" % a["UmfLaw"] if math.isfinite(a["UmfLaw"]) else "-"
        lines.append("| %s | %.3f | %.1f | %.1f | %.1f | %.3f | %.4f | %s | %.4f | %.4f |"
                     % (shape, a["slope"]/ergunSlope, a["offset"], a["simPlateau"], a["plateau"],
                        a["simPlateau"]/a["plateau"], a["UmfSim"], umfLaw, a["UmfErgun"], a["UmfWenYu"]))
    writeTable(os.path.join(args.runs, "summary.md"), lines)

    plt = pyplot("bedSummary", args.plots)
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(7.5, 5))
    colours = dict(zip(SHAPES, ["C0", "C1", "C2", "C3", "C4"]))
    for shape, (run, a) in results.items():
        c = colours[shape]
        ax.plot(a["U"], a["dp"], "-", color=c, lw=0.5, alpha=0.3)
        ax.plot(a["U"], a["smooth"], "-", color=c, lw=1.5, label="%s (phi %.3f, eps %.3f)" % (shape, run["phi"], a["epsPacked"]))
        Ue = [u for u in a["U"] if u <= a["UmfErgun"]]
        ax.plot(Ue, [a["Hpacked"]*ergunGradient(u, a["epsPacked"], run["d"], run["phi"]) for u in Ue], "--", color=c, lw=1)
        ax.axvline(a["UmfErgun"], color=c, ls=":", lw=0.8)
    first = next(iter(results.values()))[1]
    ax.axhline(first["plateau"], color="k", lw=1, label="buoyant weight W/A")
    ax.axvline(next(iter(results.values()))[1]["UmfWenYu"], color="gray", ls="-.", lw=1, label="U_mf Wen-Yu (sphere)")
    ax.set_xlabel("superficial velocity U (m/s)")
    ax.set_ylabel("bed pressure drop (Pa)")
    ax.set_ylim(-0.5*first["plateau"], 2.5*first["plateau"])   # the spikes run off the plot
    ax.set_title("dp: thin every step, thick running mean; dashed Ergun(phi, eps_sim), dotted its U_mf", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(args.plots, "pressureDrop.png"), dpi=120)
    print("bedSummary: %s" % os.path.join(args.plots, "pressureDrop.png"))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Draw docs/images/architecture.png: the layers of superellipsoidFoam (left) and
the data flow of one fluid time step (right). Run from anywhere:

    /usr/bin/python3 docs/images/architecture.py

Needs matplotlib only. The boxes name real folders, classes and functions; update
them here when the code moves, then run the script again."""

import os
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(HERE, "architecture.png")

APP = "#dbe9f6"
LAYER = "#e5f2df"
CORE = "#fdf0d5"
FLUID = "#eeeeee"


def box(ax, x, y, w, h, title, lines=(), colour=CORE, size=8.5):
    """A rounded box with a bold title and a few lines of text (axes units)."""
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.006,rounding_size=0.012",
                                facecolor=colour, edgecolor="#555555", linewidth=0.9))
    ax.text(x + 0.012, y + h - 0.012, title, ha="left", va="top", fontsize=size + 0.5,
            fontweight="bold", family="DejaVu Sans")
    for i, line in enumerate(lines):
        ax.text(x + 0.012, y + h - 0.042 - 0.026*i, line, ha="left", va="top", fontsize=size,
                family="DejaVu Sans Mono")


def arrow(ax, x0, y0, x1, y1, label="", colour="#333333", dx=0.01):
    ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                arrowprops=dict(arrowstyle="-|>", color=colour, linewidth=1.2, shrinkA=1, shrinkB=1))
    if label:
        ax.text((x0 + x1)/2 + dx, (y0 + y1)/2, label, ha="left", va="center", fontsize=8,
                style="italic", color=colour)


def layers(ax):
    ax.set_title("Layers: who may include whom", fontsize=11, fontweight="bold", loc="left")
    box(ax, 0.02, 0.82, 0.96, 0.15, "applications/  (wmake)",
        ["solvers/superellipsoidPimpleFoam   utilities/superellipsoidProperties",
         "core/superellipsoid{Tumble,Filling,Scaling,Resistance}  (CMake, core only)"], APP)
    box(ax, 0.02, 0.49, 0.96, 0.28, "src/superellipsoidParcels/  OpenFOAM layer (wmake)",
        ["shape/     superellipsoidShapeTable (dictionaries -> core shapes)",
         "parcels/   SuperellipsoidParcel (fluidForcing, drag, torque)",
         "clouds/    SuperellipsoidCloud (motion: one tracking pass)",
         "collision/ superellipsoidCollisionModel (advanceFluidStep),",
         "           walls, halo exchange, contact records, diagnostics",
         "submodels/ BrennerDrag, BrennerFiniteReDrag, injection, VTK",
         "input/     dictionary checks (FatalIOError)"], LAYER)
    box(ax, 0.02, 0.03, 0.96, 0.41, "src/core/  OpenFOAM-free core (C++17 + Eigen, CMake)",
        ["math/          Types, special functions",
         "shape/         Superellipsoid: S, derivatives, inertia",
         "orientation/   quaternions, Pose",
         "dynamics/      Euler's equations",
         "hydrodynamics/ K, Omega, Pi; force, torque; finite-Re",
         "               drag, sphericity, added mass",
         "contact/       detection; manifolds (pair/wallManifold)",
         "collision/     impulse and soft-contact laws",
         "solver/        CollisionStep, ContactSolver, broad phase",
         "output/        VTK PolyData, .series"], CORE)
    arrow(ax, 0.5, 0.82, 0.5, 0.77, "includes", dx=0.015)
    arrow(ax, 0.5, 0.49, 0.5, 0.44, "includes (never the reverse)", dx=0.015)
    ax.text(0.97, 0.05, "tests/unit  tests/fuzz\ntests/benchmarks -> core", ha="right", va="bottom",
            fontsize=8, color="#555555")
    ax.text(0.97, 0.51, "tests/cases, tutorials -> solver", ha="right", va="bottom", fontsize=8,
            color="#555555")


def step(ax):
    ax.set_title("One fluid time step, impulse model (superellipsoidPimpleFoam)", fontsize=11,
                 fontweight="bold", loc="left")
    box(ax, 0.02, 0.885, 0.96, 0.095, "1. kinematicCloud.evolve() -> SuperellipsoidCloud::motion",
        ["motionFluidStep: one OpenFOAM tracking pass per fluid step",
         "(softContact: Cloud::move + core softSubstep every substep)"], LAYER)
    box(ax, 0.02, 0.71, 0.96, 0.15, "2. once per parcel: SuperellipsoidParcel::fluidForcing",
        ["drag Brenner Eq. (5) or finiteReynoldsDrag: force F + C u and",
         "resistance C (implicit in the core); torque Eq. (21) + damping",
         "-> the core particle; UTrans (+ resisted impulse after 3.), UCoeff"], LAYER)
    box(ax, 0.02, 0.30, 0.96, 0.38, "3. advanceFluidStep: n substeps h = Dt/n in the core",
        ["nSubSteps: surface displacement <= 0.1 c per substep",
         "CollisionStep::move (F, C implicit, advanceRotation)",
         "parallel: ghosts exchanged from the moved state",
         "detect: BroadPhase -> detectParticleContact,",
         "  detectFaceContact -> pairManifold / wallManifold",
         "resolveSweeps = ContactSolver::solveVelocities:",
         "  prepare, warm start, collide, relax, store",
         "removeOverlaps = ContactSolver::solvePositions",
         "waypoint of each parcel kept"], CORE)
    box(ax, 0.02, 0.14, 0.96, 0.13, "4. scatterFluidStep + ONE Cloud::move",
        ["U, omega', orientation; track start -> end (chord or",
         "waypoints): outlets remove, processor faces transfer"], LAYER)
    box(ax, 0.02, 0.01, 0.96, 0.10, "5. fluid: PIMPLE with kinematicCloud.SU(Uc)",
        ["two-way coupling: source from UTrans, UCoeff; alphac"], FLUID)
    for y0, y1 in ((0.885, 0.86), (0.71, 0.68), (0.30, 0.27), (0.14, 0.11)):
        arrow(ax, 0.5, y0, 0.5, y1)
    ax.annotate("", xy=(0.985, 0.62), xytext=(0.985, 0.36),
                arrowprops=dict(arrowstyle="-|>", color="#aa3333", linewidth=1.2,
                                connectionstyle="arc3,rad=-0.35"))
    ax.text(0.995, 0.49, "next\nsubstep", ha="left", va="center", fontsize=8, color="#aa3333")


def main():
    fig, (left, right) = plt.subplots(1, 2, figsize=(13.5, 8.0))
    for ax in (left, right):
        ax.set_xlim(0, 1.06)
        ax.set_ylim(0, 1)
        ax.axis("off")
    layers(left)
    step(right)
    fig.tight_layout()
    fig.savefig(OUTPUT, dpi=90)
    print("architecture.py: %s" % os.path.relpath(OUTPUT))


if __name__ == "__main__":
    main()

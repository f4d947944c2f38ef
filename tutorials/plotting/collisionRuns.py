"""Shared part of the collision tutorials' plotResults.py (wallCollision,
particleCollision): finding the runs under variants/, reading their Dt,
substeps and collision model, and the figure layout.

Each run is variants/<orientation>-<shape> (prefix soft- for the
soft-contact model) with trajectory.dat, system/controlDict and
constant/kinematicCloudProperties.
"""
import os
import re

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

NAME = re.compile(r"^(soft-)?(centric|eccentric)-(sphere|prolate|cube|diamond)")


def entry(path, key):
    """Value of the first 'key value;' line of an OpenFOAM dictionary."""
    with open(path) as f:
        for line in f:
            m = re.match(r"^\s*%s\s+([^;\s]+)\s*;" % key, line)
            if m:
                return m.group(1)
    raise KeyError("%s not found in %s" % (key, path))


def readRuns(caseDir, tRef, readTrajectory):
    """All runs with a trajectory, keyed by (orientation, shape), each a dict
    with 'label', 'key' (sort order) and what readTrajectory(path) returns."""
    runs = {}
    variants = os.path.join(caseDir, "variants")
    for name in sorted(os.listdir(variants)) if os.path.isdir(variants) else []:
        run = os.path.join(variants, name)
        m = NAME.match(name)
        dat = os.path.join(run, "trajectory.dat")
        if not m or not os.path.isfile(dat) or os.path.getsize(dat) == 0:
            continue
        deltaT = float(entry(os.path.join(run, "system/controlDict"), "deltaT"))
        cloud = os.path.join(run, "constant/kinematicCloudProperties")
        nSub = int(entry(cloud, "nSubCycles"))
        model = entry(cloud, "model")
        label = "Dt/t_ref = %g" % (deltaT/tRef)
        if nSub > 1:
            label += " x %d subcycles" % nSub
        elif nSub == 0:
            label += " (auto substeps)"
        if model != "impulse":
            label += ", " + model
        r = {"label": label, "key": (model != "impulse", -deltaT/max(nSub, 1), -deltaT)}
        r.update(readTrajectory(dat))
        runs.setdefault((m.group(2), m.group(3)), []).append(r)
    for v in runs.values():
        v.sort(key=lambda r: r["key"])
    return runs


def colours(runs):
    """One colour per label, the same in every panel and figure."""
    keys = sorted({(r["key"], r["label"]) for v in runs.values() for r in v})
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return {label: cycle[i % len(cycle)] for i, (_, label) in enumerate(keys)}


def figure(nRows, nCols, title):
    fig, axes = plt.subplots(nRows, nCols, figsize=(16, 3.6*nRows + 0.8),
                             squeeze=False, sharex=True)
    fig.suptitle(title)
    return fig, axes


def finish(fig, axes, path):
    for ax in axes.flat:
        if not ax.lines:
            ax.text(0.5, 0.5, "no run", ha="center", va="center", transform=ax.transAxes)
    handles, labels = {}, []
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in handles:
                handles[l] = h
                labels.append(l)
    fig.legend([handles[l] for l in labels], labels, loc="lower center",
               ncol=min(len(labels), 4), fontsize="small")
    fig.tight_layout(rect=(0, 0.06 + 0.02*((len(labels) - 1)//4), 1, 0.96))
    fig.savefig(path, dpi=90)
    plt.close(fig)
    print("wrote", path)

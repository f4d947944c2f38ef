#!/usr/bin/env python3
"""Drag, lift and torque coefficients of resolved-coefficient tables against
the incidence angle in a body plane, one line per Reynolds node.

    python3 plotCoefficients.py <table> [<table> ...] [--png coefficients.png]

The incidence angle is that between the flow e and the body z' axis p, in the
body plane at azimuth phi0 from x' (the table's theta at its phi0 column):
e = (sin t cos phi0, sin t sin phi0, cos t). With the conventions of the
incidence laws (docs/hydrodynamics.md): C_D = C_F . e; C_L = C_F . l,
l = (cos t cos phi0, cos t sin phi0, -sin t) (the unit vector of the plane
normal to e on the side away from p); C_T = C_T . t, t = (sin phi0, -cos phi0, 0)
= e x p / |e x p|: C_T > 0 turns p away from the flow.
Planes: x'z' (phi0 = 0) for every table, and the diagonal plane phi0 = 45 deg
when the table has that column. For a cube-like body (a = b = c,
eps1 = eps2) the x'z' plane is symmetric about t = 45 deg: C_D(t) = C_D(90 - t)
exactly, C_L and C_T change sign; the script prints the tables' deviation from
that (the error of the resolved cases, the mesh not being rotated with the flow).
"""
import argparse
import math
import os
import re


def parse(text):
    """The keywords of an OpenFOAM dictionary of numbers, words and nested
    lists that the tables use: {keyword: value}, lists as Python lists."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    tokens = re.findall(r"[(){};]|[^\s(){};]+", text)
    pos = 0

    def value():
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok != "(":
            try:
                return float(tok)
            except ValueError:
                return tok
        items = []
        while tokens[pos] != ")":
            items.append(value())
        pos += 1
        return items

    def block(end):
        nonlocal pos
        entries = {}
        while pos < len(tokens) and tokens[pos] != end:
            key = tokens[pos]
            pos += 1
            if tokens[pos] == "{":
                pos += 1
                entries[key] = block("}")
                continue
            items = []
            while tokens[pos] != ";":
                items.append(value())
            pos += 1
            entries[key] = items[0] if len(items) == 1 else items
        pos += 1
        return entries

    return block(None)


def readTable(path):
    d = parse(open(path).read())
    return {"name": os.path.basename(path).split(".")[0], "shape": d["shape"],
            "reynolds": d["reynolds"], "theta": d["theta"], "phi": d["phi"],
            "unsteady": d["unsteady"], "CF": d["forceCoefficients"], "CT": d["torqueCoefficients"]}


def dot(a, b):
    return sum(x*y for x, y in zip(a, b))


def planeCoefficients(table, k, j):
    """[(t, C_D, C_L, C_T)] at Re node k in the plane of the table's phi
    column j."""
    p0 = math.radians(table["phi"][j])
    rows = []
    for i, t in enumerate(table["theta"]):
        tr = math.radians(t)
        e = (math.sin(tr)*math.cos(p0), math.sin(tr)*math.sin(p0), math.cos(tr))
        lift = (math.cos(tr)*math.cos(p0), math.cos(tr)*math.sin(p0), -math.sin(tr))
        turn = (math.sin(p0), -math.cos(p0), 0.0)
        CF, CT = table["CF"][k][i][j], table["CT"][k][i][j]
        rows.append((t, dot(CF, e), dot(CF, lift), dot(CT, turn)))
    return rows


def isCube(table):
    s = table["shape"]
    return s["aspectRatios"] == [1.0, 1.0] and s["epsilon1"] == s["epsilon2"]


def summary(table):
    name = table["name"]
    for k, Re in enumerate(table["reynolds"]):
        rows = planeCoefficients(table, k, 0)
        byAngle = {t: r for t, *r in rows}
        CDs = " ".join("%g deg %.4g" % (t, byAngle[t][0]) for t in table["theta"])
        iL = max(range(len(rows)), key=lambda i: abs(rows[i][2]))
        iT = max(range(len(rows)), key=lambda i: abs(rows[i][3]))
        print("%s Re %g%s: C_D %s; largest |C_L| %.4g at %g deg, |C_T| %.4g at %g deg"
              % (name, Re, " (unsteady average)" if table["unsteady"][k] in ("true", "yes", "on") else "",
                 CDs, rows[iL][2], rows[iL][0], rows[iT][3], rows[iT][0]))
        if 45.0 in table["phi"] and isCube(table):
            diag = {t: r for t, *r in planeCoefficients(table, k, table["phi"].index(45.0))}
            print("%s Re %g: diagonal plane C_D %s" % (name, Re, " ".join(
                "%g deg %.4g" % (t, diag[t][0]) for t in table["theta"])))
        if isCube(table):
            dev = [abs(byAngle[t][0] - byAngle[90 - t][0])/byAngle[t][0] for t in table["theta"]
                   if 90 - t in byAngle]
            devT = [abs(byAngle[t][2] + byAngle[90 - t][2]) for t in table["theta"] if 90 - t in byAngle]
            print("%s Re %g: cube symmetry C_D(t) = C_D(90 - t) within %.2g %%, C_T(t) = -C_T(90 - t) within %.2g"
                  % (name, Re, 100*max(dev), max(devT)))


def plot(tables, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(tables), 3, figsize=(13, 3.6*len(tables)), squeeze=False)
    for row, table in zip(axes, tables):
        colours = plt.cm.viridis([i/max(1, len(table["reynolds"]) - 1)*0.9 for i in range(len(table["reynolds"]))])
        planes = [(0, "-o", "x'z' plane")]
        if 45.0 in table["phi"] and isCube(table):
            planes.append((table["phi"].index(45.0), "--s", "diagonal plane"))
        for k, Re in enumerate(table["reynolds"]):
            for j, style, label in planes:
                rows = planeCoefficients(table, k, j)
                for c, ax in enumerate(row):
                    ax.plot([r[0] for r in rows], [r[c + 1] for r in rows], style, color=colours[k], ms=4,
                            label="Re %g, %s" % (Re, label) if c == 0 else None)
        for ax, what in zip(row, ("C_D", "C_L", "C_T")):
            ax.set_xlabel("angle between the flow and z' (deg)")
            ax.set_title("%s: %s" % (table["name"], what))
            ax.set_xticks(range(0, 91, 15))
            ax.grid(alpha=0.3)
        row[0].set_yscale("log")
        row[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print("plotCoefficients.py: %s" % png)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tables", nargs="+", help="<shape>.resolvedCoefficients files")
    ap.add_argument("--png", help="write the figure there (needs matplotlib)")
    args = ap.parse_args()
    tables = [readTable(path) for path in args.tables]
    for table in tables:
        summary(table)
    if args.png:
        plot(tables, args.png)


if __name__ == "__main__":
    main()

"""Summary of cylinderFilling runs (tutorials/cylinderFilling/Allrun).

    /usr/bin/python3 fillingSummary.py [--output DIR] [--suffix S] shape|caseDir ...

A name that is not a directory means runs/<name>. Writes DIR/summaryS.txt,
DIR/summaryS.md, DIR/summaryS.csv and DIR/plots/kineticEnergyS.png (DIR: this
folder, S: empty). Definitions (docs/cylinder-filling.md):
  filling height H  highest surface point of any particle above the floor
                    (surface sampled densely, Barr's parametric form)
  packing fraction  phi_bulk: solid fraction of the cylinder between the floor
                    and H - d_eq (drops the rough top layer), by voxels of
                    d_eq/25; phi_total = N V_p / (pi R^2 H)
  at rest           kinetic energy (translational + rotational) below 1e-6 of
                    its peak
  overlap           largest overlap / c of the collision diagnostics (per step),
                    'at rest' = over the last 0.01 s
  lost              parcels injected - parcels present at the end
  CPU               OpenFOAM's ExecutionTime at the end
  mu                Coulomb friction of the impulse law (0: frictionless)
  substeps/step     mean collision substeps per fluid step (1e-3 s)
"""
import csv
import math
import os
import re
import sys

import numpy as np

R_CYL = 0.0285              # cylinder radius [m]
REST_FRACTION = 1e-6        # at rest: KE < REST_FRACTION * peak
REST_WINDOW = 0.01          # [s] window of the "at rest" overlap
CLOUD = "kinematicCloud"


def read_log(case):
    """Injected shape, its parameters, parcel counts and CPU time from the log."""
    log = os.path.join(case, "log.superellipsoidPimpleFoam")
    text = open(log).read()
    name = re.search(r"injected parcels: shape (\S+),", text).group(1)
    m = re.search(r"shape " + re.escape(name) + r": half-axes \((\S+) (\S+) (\S+)\), epsilon1 (\S+), "
                  r"epsilon2 (\S+), dEq (\S+)", text)
    a, b, c, e1, e2, deq = (float(v.rstrip(",")) for v in m.groups())
    injected = sum(int(v) for v in re.findall(r"Added (\d+) new parcels", text))
    present = re.findall(r"Current number of parcels\s*=\s*(\d+)", text)
    cpu = re.findall(r"ExecutionTime = (\S+) s", text)
    return dict(shape=name, a=a, b=b, c=c, eps1=e1, eps2=e2, dEq=deq, injected=injected,
                present=int(present[-1]) if present else 0, cpu=float(cpu[-1]) if cpu else float("nan"))


def read_friction(case):
    """mu of the impulse law in the case's kinematicCloudProperties (0 if none)."""
    text = open(os.path.join(case, "constant", "kinematicCloudProperties")).read()
    m = re.search(r"^\s+mu\s+([-+0-9.eE]+);", text, re.MULTILINE)
    return float(m.group(1)) if m else 0.0


def read_collisions(case):
    """Time, kinetic energy, largest overlap / c and collision substeps per step."""
    path = os.path.join(case, "postProcessing", "superellipsoidCollisions", "0", "collisions.csv")
    t, ke, ov, n = [], [], [], []
    with open(path) as f:
        for row in csv.DictReader(f):
            t.append(float(row["time"]))
            ke.append(float(row["kineticEnergyTranslational"]) + float(row["kineticEnergyRotational"]))
            ov.append(float(row["maxOverlapRatio"]))
            n.append(float(row["substeps"]))
    return np.array(t), np.array(ke), np.array(ov), np.array(n)


def read_field(path):
    """Values of an ASCII lagrangian IOField (scalar, vector or position)."""
    text = open(path).read()
    body = text[text.index("\n(", text.index("FoamFile")) + 2:text.rindex(")")]
    rows = []
    for line in body.splitlines():
        line = line.strip()
        if not line:
            continue
        nums = re.findall(r"[-+0-9.eE]+", line)
        rows.append([float(v) for v in nums])
    return rows


def final_state(case):
    """Positions and quaternions of the parcels at the latest written time."""
    times = []
    for d in os.listdir(case):
        try:
            tv = float(d)
        except ValueError:
            continue
        if tv > 0 and os.path.exists(os.path.join(case, d, "lagrangian", CLOUD, "positions")):
            times.append((tv, d))
    if not times:
        return None, None, None
    tv, d = max(times)
    base = os.path.join(case, d, "lagrangian", CLOUD)
    pos = np.array([r[:3] for r in read_field(os.path.join(base, "positions"))])
    e0 = np.array([r[0] for r in read_field(os.path.join(base, "e0"))])
    e = np.array([r[:3] for r in read_field(os.path.join(base, "e123"))])
    return tv, pos, np.column_stack([e0, e])


def rotation(q):
    """Particle -> global rotation matrix of the unit quaternion (w, x, y, z)."""
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2*(y*y + z*z), 2*(x*y - w*z), 2*(x*z + w*y)],
                     [2*(x*y + w*z), 1 - 2*(x*x + z*z), 2*(y*z - w*x)],
                     [2*(x*z - w*y), 2*(y*z + w*x), 1 - 2*(x*x + y*y)]])


def spow(v, e):
    return np.sign(v)*np.abs(v)**e


def surface_points(p, n_eta=96, n_omega=192):
    """Barr's parametric surface (particle frame), signed powers of Eq. (3) of [Wedel2023]."""
    eta, om = np.meshgrid(np.linspace(-math.pi/2, math.pi/2, n_eta), np.linspace(-math.pi, math.pi, n_omega))
    ce, se = spow(np.cos(eta), p["eps1"]), spow(np.sin(eta), p["eps1"])
    cw, sw = spow(np.cos(om), p["eps2"]), spow(np.sin(om), p["eps2"])
    return np.column_stack([(p["a"]*ce*cw).ravel(), (p["b"]*ce*sw).ravel(), (p["c"]*se).ravel()])


def inside(p, xp):
    """Inside-out function S < 0 of Eq. (3) of [Wedel2023] (particle frame points, rows)."""
    u = np.abs(xp[:, 0]/p["a"])**(2/p["eps2"]) + np.abs(xp[:, 1]/p["b"])**(2/p["eps2"])
    return u**(p["eps2"]/p["eps1"]) + np.abs(xp[:, 2]/p["c"])**(2/p["eps1"]) < 1


def volume(p):
    """Eq. (17) of [Wedel2023] volume: 2 a b c eps1 eps2 B(eps1/2 + 1, eps1) B(eps2/2, eps2/2)."""
    def beta(x, y):
        return math.gamma(x)*math.gamma(y)/math.gamma(x + y)
    return 2*p["a"]*p["b"]*p["c"]*p["eps1"]*p["eps2"]*beta(p["eps1"]/2 + 1, p["eps1"])*beta(p["eps2"]/2, p["eps2"]/2)


def packing(p, pos, quats, height):
    """phi_bulk (voxels) and phi_total, see the module docstring."""
    n = len(pos)
    vp = volume(p)
    phi_total = n*vp/(math.pi*R_CYL**2*height)
    top = height - p["dEq"]
    if top <= 0:
        return float("nan"), phi_total
    h = p["dEq"]/25
    xs = np.arange(-R_CYL + h/2, R_CYL, h)
    zs = np.arange(h/2, top, h)
    occupied = np.zeros((len(xs), len(xs), len(zs)), dtype=bool)
    rb = max(p["a"], p["b"], p["c"])*math.sqrt(3)   # bounding box half size (any eps)
    for x, q in zip(pos, quats):
        idx = [np.searchsorted(g, [x[k] - rb, x[k] + rb]) for k, g in enumerate((xs, xs, zs))]
        if any(i1 <= i0 for i0, i1 in idx):
            continue
        X, Y, Z = np.meshgrid(xs[idx[0][0]:idx[0][1]], xs[idx[1][0]:idx[1][1]], zs[idx[2][0]:idx[2][1]],
                              indexing="ij")
        pts = np.column_stack([X.ravel() - x[0], Y.ravel() - x[1], Z.ravel() - x[2]])
        local = pts @ rotation(q)            # rows: R^T r (global -> particle)
        occupied[idx[0][0]:idx[0][1], idx[1][0]:idx[1][1], idx[2][0]:idx[2][1]] |= \
            inside(p, local).reshape(X.shape)
    X, Y = np.meshgrid(xs, xs, indexing="ij")
    in_cyl = (X**2 + Y**2 < R_CYL**2)[:, :, None]
    return float((occupied & in_cyl).sum()/(in_cyl.sum()*len(zs))), phi_total


def summarise(case):
    s = read_log(case)
    s["mu"] = read_friction(case)
    t, ke, ov, n = read_collisions(case)
    s["substeps"] = float(n.mean())
    peak = ke.max() if len(ke) else float("nan")
    ipeak = int(ke.argmax())
    below = np.nonzero(ke[ipeak:] < REST_FRACTION*peak)[0]
    s["t_end"] = float(t[-1])
    s["t_rest"] = float(t[ipeak + below[0]]) if len(below) else float("nan")
    s["ke_end_by_peak"] = float(ke[-1]/peak)
    s["overlap_run"] = float(ov.max())
    s["overlap_rest"] = float(ov[t >= t[-1] - REST_WINDOW + 1e-12].max())
    s["lost"] = s["injected"] - s["present"]
    s["history"] = (t, ke/peak)
    tw, pos, quats = final_state(case)
    s["t_written"] = tw
    if pos is None:
        s["height"] = s["phi_bulk"] = s["phi_total"] = float("nan")
        return s
    xp = surface_points(s)
    s["height"] = float(max((x[2] + (xp @ rotation(q).T)[:, 2].max()) for x, q in zip(pos, quats)))
    s["phi_bulk"], s["phi_total"] = packing(s, pos, quats, s["height"])
    return s


COLUMNS = [
    ("shape", "shape", "{}"),
    ("a/c b/c eps1 eps2", None, None),
    ("mu", "mu", "{:g}"),
    ("end (s)", "t_end", "{:.3f}"),
    ("at rest (s)", "t_rest", "{:.3f}"),
    ("KE/peak end", "ke_end_by_peak", "{:.1e}"),
    ("height H (m)", "height", "{:.4f}"),
    ("phi_bulk", "phi_bulk", "{:.3f}"),
    ("phi_total", "phi_total", "{:.3f}"),
    ("overlap/c rest", "overlap_rest", "{:.1e}"),
    ("overlap/c run", "overlap_run", "{:.1e}"),
    ("lost", "lost", "{:d}"),
    ("substeps/step", "substeps", "{:.1f}"),
    ("CPU (s)", "cpu", "{:.0f}"),
]


def cells(s):
    out = []
    for title, key, fmt in COLUMNS:
        if key is None:
            out.append("{:g} {:g} {:g} {:g}".format(s["a"]/s["c"], s["b"]/s["c"], s["eps1"], s["eps2"]))
        elif isinstance(s[key], float) and math.isnan(s[key]):
            out.append("no" if key == "t_rest" else "-")
        else:
            out.append(fmt.format(s[key]))
    return out


def main(argv):
    out, suffix = ".", ""
    while len(argv) > 1 and argv[0] in ("--output", "--suffix"):
        if argv[0] == "--output":
            out = argv[1]
        else:
            suffix = argv[1]
        argv = argv[2:]
    cases = [a if os.path.isdir(a) and not re.fullmatch(r"\w+", a) else os.path.join("runs", a) for a in argv]
    rows = [summarise(c) for c in cases]
    table = [[t for t, _, _ in COLUMNS]] + [cells(s) for s in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(COLUMNS))]
    with open(os.path.join(out, "summary" + suffix + ".txt"), "w") as f:
        for r in table:
            f.write("  ".join(v.rjust(w) for v, w in zip(r, widths)) + "\n")
    with open(os.path.join(out, "summary" + suffix + ".md"), "w") as f:
        f.write("| " + " | ".join(table[0]) + " |\n|" + "---|"*len(COLUMNS) + "\n")
        for r in table[1:]:
            f.write("| " + " | ".join(r) + " |\n")
    keys = ["shape", "mu", "a", "b", "c", "eps1", "eps2", "dEq", "injected", "present", "lost", "t_end", "t_rest",
            "ke_end_by_peak", "height", "phi_bulk", "phi_total", "overlap_rest", "overlap_run", "substeps", "cpu"]
    with open(os.path.join(out, "summary" + suffix + ".csv"), "w") as f:
        f.write(",".join(keys) + "\n")
        for s in rows:
            f.write(",".join(str(s[k]) for k in keys) + "\n")
    print(open(os.path.join(out, "summary" + suffix + ".txt")).read(), end="")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(os.path.join(out, "plots"), exist_ok=True)
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for s in rows:
        t, k = s["history"]
        ax.semilogy(t, np.maximum(k, 1e-12), label=s["shape"], lw=1.2)
    ax.axhline(REST_FRACTION, color="k", ls="--", lw=0.8, label="at rest (1e-6)")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("kinetic energy / peak")
    ax.set_ylim(1e-9, 2)
    mus = sorted({s["mu"] for s in rows})
    law = "frictionless" if mus == [0.0] else "mu = " + ", ".join("{:g}".format(m) for m in mus)
    counts = sorted({s["injected"] for s in rows})
    ax.set_title("cylinder filling: {} particles, {}".format("/".join(str(n) for n in counts), law),
                 fontsize=10)
    ax.legend(fontsize=8, ncol=2)
    ax.grid(True, which="major", lw=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "plots", "kineticEnergy" + suffix + ".png"), dpi=110)
    print("cylinderFilling: plots/kineticEnergy" + suffix + ".png")


if __name__ == "__main__":
    main(sys.argv[1:])

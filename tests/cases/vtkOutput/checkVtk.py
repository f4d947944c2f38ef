#!/usr/bin/python3
"""Checks of tests/cases/vtkOutput (standard library only).

Usage: checkVtk.py <scratch>   (with <scratch>/serial, parallel, restart)

Tolerances:
  - on-surface: the gauge lambda = (S + 1)^(eps1/2) of Eq. (3) of [Wedel2023] is 1 on the
    surface and, for these convex shapes (eps <= 2, containing the
    octahedron |x/a| + |y/b| + |z/c| <= 1 of inradius >= c/sqrt(3)),
    Lipschitz with constant sqrt(3)/c. A point written with 10 significant
    digits moves by at most delta = sqrt(3)/2 1e-9 max|x_i|, so
    |lambda - 1| <= sqrt(3) delta/c (+ 1e-12 for the double round-off of
    the transform, ~1e-16 x |x|/c ~ 1e-13 here).
  - serial vs parallel before any contact (t = 1 ms; the earliest contact
    is at (3 mm - 2a)/(1 m/s) = 1.41 ms): tests/cases/collisionParallel
    finds the states equal to 1e-10 d_eq (position), 1e-10 m/s and 1e-10 of
    max(|omega|, 2000 rad/s) (round-off of tracking across the processor
    boundary); the same bounds here, quaternions to 1e-10.
  - after the contacts (2, 3, 4 ms): the contact points come from Newton
    iterations converged to 1e-6 c (contactToleranceFactor, [Wedel2023]
    Sect. 3.1) whose start differs between the runs (the parcel ids, which
    order the pairs and key the pair cache, are origId*nProcs + origProc),
    so the impulses agree to O(1e-6) relative: velocities to 1e-6 u_0
    (u_0 = 1 m/s), angular velocities to 1e-6 max(|omega|, 2000 rad/s), and
    over the <= 2.6 ms after the first contact positions to
    1e-6 m/s x 2.6 ms = 2.6e-6 d_eq, orientations to 1e-6 x 2000 rad/s x
    2.6 ms ~ 5.2e-6 (quaternion components).
  - Surface points are rounded to 10 digits, so they may differ by one unit
    in the 10th digit (1e-9 max|x_i|) plus the state difference
    (|dx| + 2 a |de|).
"""

import json
import math
import os
import sys
import xml.etree.ElementTree as ET

RESOLUTION = (8, 16)
N_PARTICLES = 8
TIMES = (0.001, 0.002, 0.003, 0.004)
D_EQ = 1e-3
CLOUD = "kinematicCloud"

failures = []


def check(ok, message):
    print(("ok: " if ok else "FAIL: ") + message)
    if not ok:
        failures.append(message)
    return ok


def arrays(path):
    piece = ET.parse(path).getroot().find("PolyData/Piece")
    out = {"_piece": piece.attrib}
    for a in piece.iter("DataArray"):
        n = int(a.get("NumberOfComponents", "1"))
        values = [float(v) for v in (a.text or "").split()]
        out[a.get("Name")] = [values[i:i + n] for i in range(0, len(values), n)] if n > 1 else values
    return out


def series(case, kind):
    path = os.path.join(case, "VTK", CLOUD, "%s_%s.series" % (CLOUD, kind))
    with open(path) as f:
        data = json.load(f)
    check(data.get("file-series-version") == "1.0", "%s: file-series-version 1.0" % path)
    return [(os.path.join(os.path.dirname(path), e["name"]), e["time"]) for e in data["files"]]


def rotate_to_particle(q, v):
    """R v with R of Eq. (12) of [Wedel2023] = Q^T, Q the rotation of the unit quaternion q = (w, x, y, z)."""
    w, x, y, z = q
    # Q^T v = conj(q) v q
    qv = (x, y, z)
    t = [2*(qv[1]*v[2] - qv[2]*v[1]), 2*(qv[2]*v[0] - qv[0]*v[2]), 2*(qv[0]*v[1] - qv[1]*v[0])]
    # v' = v - w t + qv x t (rotation by the conjugate)
    c = (qv[1]*t[2] - qv[2]*t[1], qv[2]*t[0] - qv[0]*t[2], qv[0]*t[1] - qv[1]*t[0])
    return [v[i] - w*t[i] + c[i] for i in range(3)]


def gauge(xp, half, e1, e2):
    a, b, c = half
    f = (abs(xp[0]/a)**(2/e2) + abs(xp[1]/b)**(2/e2))**(e2/e1) + abs(xp[2]/c)**(2/e1)
    return f**(e1/2)


def check_case(case):
    """Counts and the on-surface bound of every file of one run; returns the
    parsed (particles, surfaces) of every time."""
    frames = []
    sv = series(case, "surfaces")
    pv = series(case, "particles")
    check([round(t, 9) for _, t in sv] == list(TIMES), "%s: surfaces series at t = %s" % (case, [t for _, t in sv]))
    check([round(t, 9) for _, t in pv] == list(TIMES), "%s: particles series at t = %s" % (case, [t for _, t in pv]))
    n_eta, n_omega = RESOLUTION
    ppp, tpp = 2 + (n_eta - 1)*n_omega, 2*n_omega*(n_eta - 1)
    worst = 0.0
    for (sfile, t), (pfile, _) in zip(sv, pv):
        try:
            s, p = arrays(sfile), arrays(pfile)
        except (OSError, ET.ParseError) as err:
            check(False, "%s: %s" % (case, err))
            continue
        n = len(p["id"])
        good = n == N_PARTICLES and int(p["_piece"]["NumberOfVerts"]) == n
        good &= int(s["_piece"]["NumberOfPoints"]) == n*ppp and len(s["Points"]) == n*ppp
        good &= int(s["_piece"]["NumberOfPolys"]) == n*tpp and len(s["particleId"]) == n*tpp
        good &= all(s["particleId"][k] == p["id"][k // tpp] for k in range(n*tpp))
        good &= all(c // ppp == k // tpp for k in range(n*tpp) for c in [int(s["connectivity"][3*k])])
        check(good, "%s t = %g: %d particles, %d points, %d triangles, cell ids in particle order"
              % (os.path.basename(case), t, n, len(s["Points"]), len(s["particleId"])))
        bad = 0
        for k, r in enumerate(s["Points"]):
            i = k // ppp
            centre, q = p["Points"][i], p["quaternion"][i]
            half, e1, e2 = p["halfAxes"][i], p["epsilon1"][i], p["epsilon2"][i]
            xp = rotate_to_particle(q, [r[j] - centre[j] for j in range(3)])
            delta = math.sqrt(3)/2*1e-9*max(abs(v) for v in r)
            tol = math.sqrt(3)*delta/half[2] + 1e-12
            err = abs(gauge(xp, half, e1, e2) - 1)
            worst = max(worst, err/tol)
            bad += err > tol
        check(bad == 0, "%s t = %g: every surface point on its particle's surface (%d outside the bound)"
              % (os.path.basename(case), t, bad))
        frames.append((t, p, s))
    print("    largest |lambda - 1| / bound: %.3g" % worst)
    return frames


def compare(serial, parallel):
    for (t, ps, ss), (_, pp, sp) in zip(serial, parallel):
        before_contact = t < 1.4e-3
        tol_x = 1e-10*D_EQ if before_contact else 2.6e-6*D_EQ
        tol_u = 1e-10 if before_contact else 1e-6
        tol_e = 1e-10 if before_contact else 5.2e-6
        dx = max(abs(a - b) for u, v in zip(ps["Points"], pp["Points"]) for a, b in zip(u, v))
        du = max(abs(a - b) for u, v in zip(ps["velocity"], pp["velocity"]) for a, b in zip(u, v))
        wmax = max([2000.0] + [abs(a) for u in ps["angularVelocity"] for a in u])
        dw = max(abs(a - b) for u, v in zip(ps["angularVelocity"], pp["angularVelocity"]) for a, b in zip(u, v))
        dq = max(abs(a - b) for u, v in zip(ps["quaternion"], pp["quaternion"]) for a, b in zip(u, v))
        same_shape = ps["halfAxes"] == pp["halfAxes"] and ps["shapeId"] == pp["shapeId"]
        check(dx <= tol_x and du <= tol_u and dw <= tol_u*wmax and dq <= tol_e and same_shape,
              "t = %g: serial = parallel (%s): |dx|/d_eq %.2g, |du| %.2g m/s, |domega|/max %.2g, |de| %.2g"
              % (t, "before contact" if before_contact else "after contact", dx/D_EQ, du, dw/wmax, dq))
        a_max = max(h[0] for h in ps["halfAxes"])
        ds = max(abs(a - b) - 1e-9*max(abs(a), abs(b)) for u, v in zip(ss["Points"], sp["Points"])
                 for a, b in zip(u, v))
        check(ds <= tol_x + 2*a_max*tol_e,
              "t = %g: serial = parallel surface points (to the 10th digit + %.2g m, bound %.2g m)"
              % (t, max(ds, 0), tol_x + 2*a_max*tol_e))
    ids = [int(i) for i in parallel[-1][1]["id"]]
    # id = origId*nProcs + origProc: odd ids come from processor 1
    check(any(i % 2 == 0 for i in ids) and any(i % 2 == 1 for i in ids),
          "parallel files gather parcels of both ranks (ids %s)" % ids)


def check_renderer_rebuild(case):
    """tutorials/plotting/renderParticles.py rebuilds the surfaces from the
    particles file (for runs with 'surfaces no'): its points equal the
    written ones to the 10-digit rounding (0.5e-9 max|x_i| per coordinate,
    + 1e-15 m round-off), with the same triangles and cell data."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "..", "tutorials", "plotting"))
    try:
        import numpy as np
        import renderParticles
    except ImportError as err:
        print("skipped: renderer check (%s)" % err)
        return
    for (sfile, t), (pfile, _) in zip(series(case, "surfaces"), series(case, "particles")):
        ps, ts, ids, cs = renderParticles.read_surfaces(sfile)
        pp, tp, idp, cp = renderParticles.read_surfaces(pfile, RESOLUTION)
        same = ps.shape == pp.shape and np.array_equal(ts, tp) and np.array_equal(ids, idp) \
            and np.array_equal(cs["shapeId"], cp["shapeId"])
        excess = np.max(np.abs(ps - pp) - 0.5e-9*np.abs(ps).max(axis=1)[:, None]) if same else np.inf
        check(same and excess <= 1e-15, "t = %g: renderParticles.py rebuilds the surfaces from the particles "
              "file (%s points, beyond the rounding by %.2g m)" % (t, len(pp), max(excess, 0)))


def check_vtk_reader(case):
    """Where Python VTK is installed (Debian: python3-vtk9; not required),
    VTK's own vtkXMLPolyDataReader (ParaView's reader) reads every file
    without error, with the counts, arrays and point coordinates seen here."""
    try:
        import vtk
    except ImportError:
        print("skipped: VTK reader check (no python3-vtk9)")
        return
    for kind in ("surfaces", "particles"):
        for path, t in series(case, kind):
            reader = vtk.vtkXMLPolyDataReader()
            reader.SetFileName(path)
            reader.Update()
            data = reader.GetOutput()
            mine = arrays(path)
            names = sorted(k for k in mine if k not in ("_piece", "Points", "connectivity", "offsets"))
            attributes = data.GetCellData() if kind == "surfaces" else data.GetPointData()
            vtk_names = sorted([attributes.GetArrayName(i) for i in range(attributes.GetNumberOfArrays())]
                               + (["Normals"] if kind == "surfaces" else []))
            pts = data.GetPoints()
            dx = max((abs(pts.GetPoint(i)[j] - mine["Points"][i][j])
                      for i in range(data.GetNumberOfPoints()) for j in range(3)), default=0.0)
            ok = reader.GetErrorCode() == 0 and data.GetNumberOfPoints() == len(mine["Points"]) \
                and names == vtk_names and dx == 0.0 \
                and (data.GetNumberOfPolys() if kind == "surfaces" else data.GetNumberOfVerts()) \
                == int(mine["_piece"]["NumberOfPolys" if kind == "surfaces" else "NumberOfVerts"])
            check(ok, "VTK reads %s t = %g: %d points, arrays %s"
                  % (os.path.basename(path), t, data.GetNumberOfPoints(), ", ".join(vtk_names)))


def check_binary(ascii_case, binary_case):
    """The binary files (format binary: raw appended data) of the serial run
    repeated: every file holds the raw-data marker; where Python VTK is
    installed, VTK's reader reads each one with the counts, connectivity and
    arrays of the ASCII file of the same time (points and normals to the
    ASCII file's digits, the rest exactly)."""
    for kind in ("surfaces", "particles"):
        files = series(binary_case, kind)
        check(len(files) == len(TIMES), "binary %s series lists %d files" % (kind, len(files)))
        for path, _ in files:
            with open(path, "rb") as f:
                check(b'<AppendedData encoding="raw">' in f.read(), "%s holds raw appended data" % os.path.basename(path))
    # renderParticles.py reads the binary surfaces like the ASCII ones
    # (points within the ASCII rounding, 0.5e-9 max|x_i|)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "..", "tutorials", "plotting"))
    try:
        import numpy as np
        import renderParticles
        for (pa, t), (pb, _) in zip(series(ascii_case, "surfaces"), series(binary_case, "surfaces")):
            xa, ta, ia, _ = renderParticles.read_surfaces(pa)
            xb, tb, ib, _ = renderParticles.read_surfaces(pb)
            same = xa.shape == xb.shape and np.array_equal(ta, tb) and np.array_equal(ia, ib)
            dx = float(np.abs(xa - xb).max()) if same and len(xa) else 0.0
            check(same and dx <= 0.5e-9*float(np.abs(xa).max())*(1 + 1e-9),
                  "t = %g: renderParticles.py reads the binary surfaces (points within %.3g m)" % (t, dx))
    except ImportError as err:
        print("skipped: renderer check of the binary files (%s)" % err)
    try:
        import vtk
        from vtk.util.numpy_support import vtk_to_numpy
    except ImportError:
        print("skipped: VTK reader check of the binary files (no python3-vtk9)")
        return
    import numpy as np

    def read(path):
        reader = vtk.vtkXMLPolyDataReader()
        reader.SetFileName(path)
        reader.Update()
        return reader.GetErrorCode(), reader.GetOutput()

    for kind in ("surfaces", "particles"):
        for (pa, t), (pb, _) in zip(series(ascii_case, kind), series(binary_case, kind)):
            ea, a = read(pa)
            eb, b = read(pb)
            cells = (lambda d: d.GetPolys()) if kind == "surfaces" else (lambda d: d.GetVerts())
            ok = ea == 0 and eb == 0 and a.GetNumberOfPoints() == b.GetNumberOfPoints() \
                and np.array_equal(vtk_to_numpy(cells(a).GetConnectivityArray()),
                                   vtk_to_numpy(cells(b).GetConnectivityArray()))
            worst = bound = 0.0
            if ok and a.GetNumberOfPoints():
                xa = vtk_to_numpy(a.GetPoints().GetData())
                worst = float(np.abs(xa - vtk_to_numpy(b.GetPoints().GetData())).max())
                # surface points: rounded to 10 significant digits in ASCII
                if kind == "surfaces":
                    bound = 0.5e-9*float(np.abs(xa).max())*(1 + 1e-9)
                for da, db in ((a.GetPointData(), b.GetPointData()), (a.GetCellData(), b.GetCellData())):
                    for i in range(da.GetNumberOfArrays()):
                        name = da.GetArrayName(i)
                        x = vtk_to_numpy(da.GetArray(name)).astype(float)
                        y = vtk_to_numpy(db.GetArray(name)).astype(float) if db.GetArray(name) else None
                        # normals: 6 ASCII digits; the rest exact
                        tol = 1e-6 if name == "Normals" else 0.0
                        ok = ok and y is not None and x.shape == y.shape and float(np.abs(x - y).max()) <= tol
            ok = ok and worst <= bound
            check(ok, "VTK reads binary %s t = %g like the ASCII file (points within %.3g m, bound %.3g)"
                  % (os.path.basename(pb), t, worst, bound))


def check_restart(case):
    sv = series(case, "surfaces")
    names = [os.path.basename(f) for f, _ in sv]
    check([round(t, 9) for _, t in sv] == list(TIMES) and "stale.vtp" not in names,
          "restart at 2 ms: series %s" % names)
    for kind in ("surfaces", "particles"):
        check(all(os.path.isfile(f) for f, _ in series(case, kind)), "restart: every listed %s file exists" % kind)


def main():
    scratch = sys.argv[1]
    serial = check_case(os.path.join(scratch, "serial"))
    check_renderer_rebuild(os.path.join(scratch, "serial"))
    check_vtk_reader(os.path.join(scratch, "parallel"))
    parallel = check_case(os.path.join(scratch, "parallel"))
    if len(serial) == len(parallel) == len(TIMES):
        compare(serial, parallel)
    check_binary(os.path.join(scratch, "serial"), os.path.join(scratch, "binary"))
    restart = check_case(os.path.join(scratch, "restart"))
    check_restart(os.path.join(scratch, "restart"))
    if len(restart) == len(serial):
        last_r, last_s = restart[-1][1], serial[-1][1]
        dx = max(abs(a - b) for u, v in zip(last_s["Points"], last_r["Points"]) for a, b in zip(u, v))
        # the same run continued (a fresh or re-injected run would be off by
        # ~d_eq); the collision model's pair cache is not part of the
        # restart data, so the states agree to round-off amplified by the
        # contacts rather than bit for bit
        check(dx <= 1e-3*D_EQ, "restart continues the serial run: 4 ms states agree (|dx|/d_eq %.2g)" % (dx/D_EQ))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

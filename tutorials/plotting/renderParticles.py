#!/usr/bin/python3
"""Render superellipsoid particles (true shapes) to a PNG without ParaView.

Reads a surfaces file written by the superellipsoidVTK cloud function object
or by superellipsoidFilling (VTK XML PolyData, ASCII: triangulated surfaces
with cell data particleId), or a particles file (centres with quaternion,
halfAxes, epsilon1, epsilon2: the same surfaces are built here, --resolution),
or a ParaView .series of either (the last time, or the one nearest to
--time), and draws the triangles with flat
Lambert shading, back faces culled and the rest depth-sorted (painter's
algorithm: exact for the convex, non-interpenetrating particle surfaces up
to triangles that straddle another particle's depth, invisible at the
default resolution). Orthographic views:

  front   looking along +y: x to the right, z up
  bottom  looking up along +z from below: x to the LEFT (mirrored), y up
  iso     from (1, -1, 0.8) towards the centre, z up

Optional outlines: a vertical cylinder (axis z, base at z = 0, centred at
x = y = 0 unless --centre) and an axis-aligned box; --fit particles zooms
to the particles (e.g. a low pile in a tall cylinder), clipping the outlines.

Usage (Debian's matplotlib; only numpy and matplotlib needed):
  /usr/bin/python3 renderParticles.py FILE.vtp|FILE.series [--view front|bottom|iso] [--resolution NETA NOMEGA]
      [--cylinder RADIUS HEIGHT] [--centre X Y] [--box XMIN YMIN ZMIN XMAX YMAX ZMAX]
      [--fit all|particles] [--time T] [--color-by particle|shape|height|none] [--title TEXT]
      [--dpi N] [--output FILE.png]
"""

import argparse
import json
import os
import sys
import xml.etree.ElementTree as ET

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection, PolyCollection  # noqa: E402

VIEWS = {
    # forward (view direction), up
    "front": ((0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "bottom": ((0.0, 0.0, 1.0), (0.0, 1.0, 0.0)),
    "iso": ((-1.0, 1.0, -0.8), (0.0, 0.0, 1.0)),
}
AMBIENT = 0.3          # share of the colour without light
DIFFUSE = 0.7          # Lambert share
SPECULAR = 0.15        # small highlight (Blinn-Phong, exponent SHININESS)
SHININESS = 30


def fail(message):
    sys.exit("renderParticles.py: " + message)


# ----------------------------------------------------------------- reading --

def parse_series(path):
    """List of (name, time) of a ParaView .series file."""
    try:
        with open(path) as f:
            data = json.load(f)
        return [(e["name"], float(e["time"])) for e in data["files"]]
    except (OSError, ValueError, KeyError, TypeError) as err:
        fail("cannot read series %s: %s" % (path, err))


def pick_from_series(path, time):
    """Data file and time of a series: the last entry, or the nearest to time."""
    entries = parse_series(path)
    if not entries:
        fail("series %s lists no files" % path)
    if time is None:
        name, t = entries[-1]
    else:
        name, t = min(entries, key=lambda e: abs(e[1] - time))
    return os.path.join(os.path.dirname(path), name), t


# Raw appended data of the file being read (superellipsoidVTK 'format
# binary') and its byte order
_APPENDED = {"raw": b"", "order": "<"}
_TYPES = {"Float64": "f8", "Float32": "f4", "Int64": "i8", "Int32": "i4"}


def parse_vtk(path):
    """XML root of a .vtp file; the raw appended data of a binary file (each
    array: UInt64 byte count, then its values) kept for data_array."""
    with open(path, "rb") as f:
        data = f.read()
    marker = b'<AppendedData encoding="raw">'
    at = data.find(marker)
    raw = b""
    if at >= 0:
        raw = data[data.index(b"_", at + len(marker)) + 1:]
        data = data[:at] + b"</VTKFile>"
    root = ET.fromstring(data)
    if raw and root.get("header_type") != "UInt64":
        fail("%s: raw appended data with header_type %s (UInt64 expected)" % (path, root.get("header_type")))
    _APPENDED.update(raw=raw, order="<" if root.get("byte_order", "LittleEndian") == "LittleEndian" else ">")
    return root


def data_array(parent, name):
    """Values of the DataArray 'name' under parent (ASCII or raw appended),
    or None."""
    for a in parent.iter("DataArray"):
        if a.get("Name") == name:
            n = int(a.get("NumberOfComponents", "1"))
            fmt = a.get("format", "ascii")
            if fmt == "ascii":
                values = np.array((a.text or "").split(), dtype=float)
            elif fmt == "appended" and a.get("type") in _TYPES:
                raw, order = _APPENDED["raw"], _APPENDED["order"]
                offset = int(a.get("offset"))
                size = int.from_bytes(raw[offset:offset + 8], "little" if order == "<" else "big")
                dtype = np.dtype(order + _TYPES[a.get("type")])
                values = np.frombuffer(raw, dtype=dtype, count=size//dtype.itemsize, offset=offset + 8).astype(float)
            else:
                fail("DataArray %s: format %s, type %s not supported" % (name, fmt, a.get("type")))
            return values.reshape(-1, n) if n > 1 else values
    return None


def signed_pow(v, e):
    """sgn(v)|v|^e, with |v| < 1e-15 taken as 0 (as the core's surfacePoint)."""
    return np.where(np.abs(v) < 1e-15, 0.0, np.sign(v)*np.abs(v)**e)


def unit_mesh(n_eta, n_omega):
    """Parameters (eta, omega) of the points and the triangles of
    Superellipsoid::triangulate (src/core/shape): south pole, n_eta - 1
    rings of n_omega points from south to north, north pole; triangles
    counter-clockwise seen from outside."""
    eta = [-0.5*np.pi] + [-0.5*np.pi + np.pi*i/n_eta for i in range(1, n_eta) for _ in range(n_omega)] \
        + [0.5*np.pi]
    omega = [0.0] + [-np.pi + 2*np.pi*j/n_omega for _ in range(1, n_eta) for j in range(n_omega)] + [0.0]
    n_rings = n_eta - 1
    south, north = 0, 1 + n_rings*n_omega

    def ring(i, j):
        return 1 + (i - 1)*n_omega + (j % n_omega)
    tri = [(south, ring(1, j + 1), ring(1, j)) for j in range(n_omega)]
    for i in range(1, n_rings):
        for j in range(n_omega):
            tri.append((ring(i, j), ring(i, j + 1), ring(i + 1, j)))
            tri.append((ring(i, j + 1), ring(i + 1, j + 1), ring(i + 1, j)))
    tri += [(north, ring(n_rings, j), ring(n_rings, j + 1)) for j in range(n_omega)]
    return np.array(eta), np.array(omega), np.array(tri, dtype=np.int64)


def quaternion_matrix(q):
    """Rotation matrices Q (particle -> global) of unit quaternions (w, x, y, z), shape (n, 3, 3)."""
    q = q/np.linalg.norm(q, axis=1)[:, None]
    w, x, y, z = q.T
    return np.stack([
        np.stack([1 - 2*(y*y + z*z), 2*(x*y - w*z), 2*(x*z + w*y)], axis=-1),
        np.stack([2*(x*y + w*z), 1 - 2*(x*x + z*z), 2*(y*z - w*x)], axis=-1),
        np.stack([2*(x*z - w*y), 2*(y*z + w*x), 1 - 2*(x*x + y*y)], axis=-1)], axis=1)


def surfaces_from_particles(piece, resolution):
    """Triangulated true shapes built from a particles file (centres,
    quaternion, halfAxes, epsilon1, epsilon2): the same parametric surface
    as the surfaces file, r = Q r' + r_c (Eq. 27 of [Wedel2023])."""
    centres = data_array(piece.find("Points"), "Points").reshape(-1, 3)
    point_data = piece.find("PointData")
    needed = {}
    for key in ("quaternion", "halfAxes", "epsilon1", "epsilon2", "id", "shapeId"):
        needed[key] = data_array(point_data, key) if point_data is not None else None
        if needed[key] is None:
            fail("particles file without point data '%s'" % key)
    n = len(centres)
    eta, omega, tri = unit_mesh(*resolution)
    half = needed["halfAxes"].reshape(n, 3)
    e1 = needed["epsilon1"].reshape(n, 1)
    e2 = needed["epsilon2"].reshape(n, 1)
    ce, se = signed_pow(np.cos(eta)[None, :], e1), signed_pow(np.sin(eta)[None, :], e1)
    cw, sw = signed_pow(np.cos(omega)[None, :], e2), signed_pow(np.sin(omega)[None, :], e2)
    local = np.stack((half[:, :1]*ce*cw, half[:, 1:2]*ce*sw, half[:, 2:3]*se), axis=-1)   # (n, p, 3)
    rotation = quaternion_matrix(needed["quaternion"].reshape(n, 4))
    points = np.einsum("nij,npj->npi", rotation, local) + centres[:, None, :]
    n_points = len(eta)
    triangles = (tri[None, :, :] + n_points*np.arange(n)[:, None, None]).reshape(-1, 3)
    per_triangle = np.repeat(np.arange(n), len(tri))
    ids = needed["id"].astype(np.int64)[per_triangle]
    cell_data = {"particleId": ids, "shapeId": needed["shapeId"].astype(np.int64)[per_triangle]}
    return points.reshape(-1, 3), triangles, ids, cell_data


def read_surfaces(path, resolution=(12, 24)):
    """points (N, 3), triangles (M, 3), particle id per triangle (M,), cell
    data; from a surfaces file, or built from a particles file."""
    try:
        root = parse_vtk(path)
    except (OSError, ValueError, ET.ParseError) as err:
        fail("cannot read %s: %s" % (path, err))
    piece = root.find("PolyData/Piece")
    if piece is None:
        fail("%s is not VTK PolyData" % path)
    polys = piece.find("Polys")
    if polys is None or int(piece.get("NumberOfPolys", "0")) == 0:
        if int(piece.get("NumberOfPoints", "0")) == 0:
            return np.zeros((0, 3)), np.zeros((0, 3), dtype=int), np.zeros(0, dtype=int), {}
        if int(piece.get("NumberOfVerts", "0")) > 0:
            return surfaces_from_particles(piece, resolution)
        fail("%s has neither triangles nor particle vertices" % path)
    points = data_array(piece.find("Points"), "Points")
    conn = data_array(polys, "connectivity").astype(np.int64)
    offsets = data_array(polys, "offsets").astype(np.int64)
    if not np.all(np.diff(np.concatenate(([0], offsets))) == 3):
        fail("%s: only triangles are supported" % path)
    triangles = conn.reshape(-1, 3)
    cell = piece.find("CellData")
    cell_data = {}
    for key in ("particleId", "shapeId"):
        values = data_array(cell, key) if cell is not None else None
        if values is not None:
            cell_data[key] = values.astype(np.int64)
    return points, triangles, cell_data.get("particleId", np.zeros(len(triangles), dtype=int)), cell_data


# --------------------------------------------------------------- rendering --

def camera(view):
    forward, up = (np.array(v, dtype=float) for v in VIEWS[view])
    forward /= np.linalg.norm(forward)
    up = up - up.dot(forward)*forward
    up /= np.linalg.norm(up)
    right = np.cross(forward, up)
    return forward, up, right


def project(p, cam):
    forward, up, right = cam
    return np.stack((p @ right, p @ up), axis=-1), p @ forward


def cylinder_lines(radius, height, centre, cam):
    """Projected outline of the cylinder as (behind, in front) line lists:
    the top and bottom circles split into their far and near halves, and the
    two silhouette lines (in front)."""
    forward = cam[0]
    horizontal = np.hypot(forward[0], forward[1])
    # start the circle at a silhouette point, so each half is one polyline
    t0 = np.arctan2(forward[0], -forward[1]) if horizontal > 1e-12 else 0.0
    behind, front = [], []
    for half, lines in ((0, behind), (1, front)):
        theta = t0 + np.pi*half + np.linspace(0, np.pi, 91)
        arc = np.stack((centre[0] + radius*np.cos(theta), centre[1] + radius*np.sin(theta),
                        np.zeros_like(theta)), axis=-1)
        far = (arc[45] - [centre[0], centre[1], 0]) @ forward > 0
        for z in (0.0, height):
            (behind if far else front).append(project(arc + [0, 0, z], cam)[0])
    if horizontal > 1e-12:
        # side lines where the wall normal (cos t, sin t, 0) is normal to forward
        for t in (t0, t0 + np.pi):
            base = np.array([centre[0] + radius*np.cos(t), centre[1] + radius*np.sin(t), 0.0])
            front.append(project(np.array([base, base + [0, 0, height]]), cam)[0])
    else:
        # seen along the axis: the circle is the outline, drawn in front
        front += behind
        behind = []
    return behind, front


def box_lines(lo, hi, cam):
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    edges = [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)]
    return [project(corners[[i, j]], cam)[0] for i, j in edges]


def face_colours(ids, points, triangles, cell_data, color_by):
    """Base RGB per triangle."""
    m = len(triangles)
    if color_by == "none" or m == 0:
        return np.tile(np.array(matplotlib.colors.to_rgb("tab:orange")), (m, 1))
    if color_by == "height":
        z = points[triangles].mean(axis=1)[:, 2]
        per_particle = {}
        for pid, zc in zip(ids, z):
            per_particle.setdefault(pid, []).append(zc)
        zmean = {pid: np.mean(v) for pid, v in per_particle.items()}
        values = np.array([zmean[pid] for pid in ids])
        span = np.ptp(values) or 1.0
        return plt.get_cmap("viridis")((values - values.min())/span)[:, :3]
    key = cell_data.get("shapeId", ids) if color_by == "shape" else ids
    palette = np.array(plt.get_cmap("Set2" if color_by == "shape" else "tab10").colors)
    # particle ids are persistent: a particle keeps its colour over a series
    return palette[np.asarray(key) % len(palette)]


def render(args):
    path = args.file
    time = None
    if path.endswith(".series"):
        path, time = pick_from_series(path, args.time)
    points, triangles, ids, cell_data = read_surfaces(path, tuple(args.resolution))
    cam = camera(args.view)
    forward = cam[0]

    # Flat shading with the geometric normals (triangles are oriented
    # counter-clockwise seen from outside: outward normals); back faces
    # (normal along the view direction) are hidden by the front ones
    corners = points[triangles]
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = np.linalg.norm(normals, axis=1)
    keep = (length > 0) & (normals @ forward < 0)
    corners, normals, length, ids_kept = corners[keep], normals[keep], length[keep], ids[keep]
    normals /= length[:, None]
    base = face_colours(ids, points, triangles, cell_data, args.color_by)[keep]

    light = -forward + 0.6*cam[1] - 0.4*cam[2]          # from the upper left, behind the viewer
    light /= np.linalg.norm(light)
    halfway = light - forward
    halfway /= np.linalg.norm(halfway)
    diffuse = np.clip(normals @ light, 0, None)
    specular = np.clip(normals @ halfway, 0, None)**SHININESS
    rgb = np.clip(base*(AMBIENT + DIFFUSE*diffuse)[:, None] + SPECULAR*specular[:, None], 0, 1)

    xy, depth = project(corners.reshape(-1, 3), cam)
    xy = xy.reshape(-1, 3, 2)
    depth = depth.reshape(-1, 3).mean(axis=1)
    order = np.argsort(-depth)                           # far first
    xy, rgb = xy[order], rgb[order]

    outlines, hidden = [], []         # drawn in front of / behind the particles
    if args.cylinder:
        behind, front = cylinder_lines(args.cylinder[0], args.cylinder[1], args.centre, cam)
        outlines += front
        hidden += behind
    if args.box:
        outlines += box_lines(args.box[:3], args.box[3:], cam)

    # The bottom view's screen x is -x: plot x and reverse the axis, so
    # that the ticks read x
    flip = -1.0 if args.view == "bottom" else 1.0
    xy[..., 0] *= flip
    outlines = [line*[flip, 1.0] for line in outlines]
    hidden = [line*[flip, 1.0] for line in hidden]

    everything = [xy.reshape(-1, 2)] + ([] if args.fit == "particles" and len(xy) else outlines + hidden)
    allxy = np.concatenate(everything) if any(len(e) for e in everything) else np.zeros((1, 2))
    lo, hi = allxy.min(axis=0), allxy.max(axis=0)
    span = np.maximum(hi - lo, 1e-12)
    margin = 0.04*span.max()
    lo, hi = lo - margin, hi + margin
    aspect = (hi[1] - lo[1])/(hi[0] - lo[0])
    height_in = float(np.clip(7.5*aspect, 3.0, 10.0))
    width_in = float(np.clip(height_in/aspect, 3.5, 10.0)) + 1.0

    fig, ax = plt.subplots(figsize=(width_in, height_in))
    # no anti-aliasing of the triangles: anti-aliased neighbours leave light
    # seams, and edge lines draw the mesh (the silhouettes stay sharp enough
    # at >= 100 dpi, and the PNG is ~4x smaller)
    ax.add_collection(PolyCollection(xy, facecolors=rgb, edgecolors="none", linewidths=0,
                                     antialiaseds=False, zorder=2))
    if hidden:
        ax.add_collection(LineCollection(hidden, colors="0.25", linewidths=1.0, zorder=1))
    if outlines:
        ax.add_collection(LineCollection(outlines, colors="0.25", linewidths=1.0, zorder=3))
    ax.set_xlim((lo[0], hi[0]) if flip > 0 else (hi[0], lo[0]))
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal")
    if args.view == "front":
        ax.set_xlabel("x [m]")
        ax.set_ylabel("z [m]")
    elif args.view == "bottom":
        ax.set_xlabel("x [m] (seen from below)")
        ax.set_ylabel("y [m]")
    else:
        ax.set_axis_off()
    n_particles = len(np.unique(ids))
    title = args.title
    if title is None:
        title = os.path.basename(path)
        if time is not None:
            title += ", t = %.4g s" % time
    ax.set_title("%s\n%d particles, %s view" % (title, n_particles, args.view), fontsize=9, wrap=True)
    fig.tight_layout()
    output = args.output or os.path.splitext(os.path.basename(path))[0] + "_" + args.view + ".png"
    fig.savefig(output, dpi=args.dpi)
    plt.close(fig)
    print("renderParticles.py: %s (%d particles, %d of %d triangles visible) -> %s"
          % (path, n_particles, len(xy), len(triangles), output))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="surfaces .vtp or .series")
    parser.add_argument("--view", choices=sorted(VIEWS), default="front")
    parser.add_argument("--cylinder", nargs=2, type=float, metavar=("RADIUS", "HEIGHT"))
    parser.add_argument("--centre", nargs=2, type=float, metavar=("X", "Y"), default=[0.0, 0.0],
                        help="cylinder axis position (default 0 0)")
    parser.add_argument("--box", nargs=6, type=float, metavar=("XMIN", "YMIN", "ZMIN", "XMAX", "YMAX", "ZMAX"))
    parser.add_argument("--resolution", nargs=2, type=int, metavar=("NETA", "NOMEGA"), default=[12, 24],
                        help="triangulation when the input is a particles file (default 12 24)")
    parser.add_argument("--fit", choices=["all", "particles"], default="all",
                        help="zoom to particles and outlines (all) or to the particles only (outlines clipped)")
    parser.add_argument("--time", type=float, help="series: the entry nearest to this time (default: last)")
    parser.add_argument("--color-by", "--colour-by", dest="color_by", default="particle",
                        choices=["particle", "shape", "height", "none"])
    parser.add_argument("--title")
    parser.add_argument("--dpi", type=int, default=150)
    parser.add_argument("--output", help="PNG file (default <file>_<view>.png)")
    args = parser.parse_args()
    if args.cylinder and (args.cylinder[0] <= 0 or args.cylinder[1] <= 0):
        fail("--cylinder RADIUS HEIGHT must be positive, got %g %g" % tuple(args.cylinder))
    if args.box and any(args.box[i] >= args.box[i + 3] for i in range(3)):
        fail("--box needs XMIN < XMAX, YMIN < YMAX, ZMIN < ZMAX")
    if args.resolution[0] < 2 or args.resolution[1] < 3:
        fail("--resolution NETA NOMEGA needs NETA >= 2 and NOMEGA >= 3")
    if args.dpi < 10:
        fail("--dpi must be at least 10")
    render(args)


if __name__ == "__main__":
    main()

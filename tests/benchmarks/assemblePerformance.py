#!/usr/bin/python3
"""Assemble docs/performance.md from the outputs of ./Allbenchmark.

Inputs in --out: micro/<Benchmark>.json (Google Benchmark) with
micro/<Benchmark>.load.start/.end, studies/<name>/result.md (+ log.Allrun,
seconds, load.start/.end), failures.txt, load.start/.end, date.start/.end.
Study result.md files report their targets as lines "- target met: ..." /
"- target missed: ..."; they are collected into the summary. Every figure
comes from these files; a piece run while the 1-minute load average exceeded
half the CPU count is marked with its load. The one exception: the section
that starts at the heading HAND_KEPT (cost figures of runs too long for
./Allbenchmark, each with its own date and load) is copied unchanged from the
existing document to the end of the new one.
Standard library only (runs with Debian's /usr/bin/python3).
"""

import argparse
import glob
import json
import os
import re
import subprocess

HAND_KEPT = "## Hand-kept figures (not written by ./Allbenchmark)"


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def run(cmd, cwd=None):
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return ""


def machine():
    lscpu = run(["lscpu"])
    info = {}
    for line in lscpu.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            info[k.strip()] = v.strip()
    mem = read("/proc/meminfo")
    m = re.search(r"MemTotal:\s+(\d+) kB", mem)
    memGiB = "%.1f GiB" % (int(m.group(1))/1024**2) if m else "?"
    return {
        "model": info.get("Model name", "?"),
        "cpus": info.get("CPU(s)", run(["nproc"]) or "?"),
        "threads": info.get("Thread(s) per core", "?"),
        "mhz": info.get("CPU max MHz", info.get("CPU MHz", "?")),
        "memory": memGiB,
        "kernel": run(["uname", "-r"]),
    }


def pieceLoad(prefix):
    """Largest 1-minute load average of <prefix>.start / <prefix>.end, or None."""
    values = []
    for end in ("start", "end"):
        fields = read("%s.%s" % (prefix, end)).split()
        try:
            values.append(float(fields[0]))
        except (ValueError, IndexError):
            pass
    return max(values) if values else None


def loadNote(load, cpus):
    """' (loaded machine: load 3.2 on 2 CPUs)' when load > cpus/2, else ''."""
    if load is None or not load > 0.5*cpus:
        return ""
    return " (loaded machine: load %.1f on %d CPUs)" % (load, int(cpus))


def fmtTime(t, unit):
    return "%.4g %s" % (t, {"ns": "ns", "us": "µs", "ms": "ms", "s": "s"}.get(unit, unit))


def microTables(outDir):
    """Rows per executable: (name, label, cpu median, counters) and the parsed entries."""
    tables = {}
    entries = []
    for path in sorted(glob.glob(os.path.join(outDir, "micro", "*.json"))):
        exe = os.path.basename(path)[:-5]
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError):
            tables[exe] = None
            continue
        rows = []
        for b in data.get("benchmarks", []):
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            name = b.get("run_name", b.get("name", "?"))
            counters = {k: v for k, v in b.items()
                        if k not in ("name", "run_name", "run_type", "repetitions", "repetition_index",
                                     "threads", "iterations", "real_time", "cpu_time", "time_unit",
                                     "label", "aggregate_name", "aggregate_unit", "family_index",
                                     "per_family_instance_index", "error_occurred", "error_message")
                        and isinstance(v, (int, float))}
            row = {
                "exe": exe, "name": name, "label": b.get("label", ""),
                "cpu": b.get("cpu_time", float("nan")), "real": b.get("real_time", float("nan")),
                "unit": b.get("time_unit", "ns"), "counters": counters,
            }
            rows.append(row)
            entries.append(row)
        tables[exe] = rows
    return tables, entries


def fmtCounter(k, v):
    if k == "items_per_second":
        return "%s %.3g/s" % (k, v)
    if isinstance(v, float):
        return "%s %.4g" % (k, v)
    return "%s %s" % (k, v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--mode", default="full")
    a = ap.parse_args()

    mach = machine()
    commit = run(["git", "rev-parse", "--short", "HEAD"], cwd=a.root) or "?"
    subject = run(["git", "log", "-1", "--format=%s"], cwd=a.root)
    # Uncommitted changes other than the document being written
    docPath = os.path.relpath(os.path.realpath(a.doc), os.path.realpath(a.root))
    dirty = [l for l in run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=a.root).splitlines()
             if l.split(maxsplit=1)[-1] != docPath]
    loadStart = read(os.path.join(a.out, "load.start")).split()[:3]
    loadEnd = read(os.path.join(a.out, "load.end")).split()[:3]
    try:
        cpus = float(mach["cpus"])
        busy = max(float(x) for x in loadStart[:1] + loadEnd[:1])
    except (ValueError, IndexError):
        cpus, busy = 1.0, 0.0
    failures = [l.split("\t", 1) for l in read(os.path.join(a.out, "failures.txt")).splitlines() if l.strip()]

    tables, entries = microTables(a.out)
    microLoad = {exe: pieceLoad(os.path.join(a.out, "micro", exe + ".load")) for exe in tables}

    # Targets: contact detection medians from ContactBenchmark counters
    targets = []  # (status, text, source)
    for kind, limit in (("BM_PairWarm", 1.0), ("BM_PairCold", 3.0)):
        rows = [r for r in entries if r["name"].startswith(kind + "/") and "med_us" in r["counters"]]
        if not rows:
            targets.append(("not measured", "superellipsoid contact %s median <= %g µs" % (
                "warm" if "Warm" in kind else "cold", limit), "ContactBenchmark missing"))
            continue
        for r in rows:
            med = r["counters"]["med_us"]
            targets.append(("met" if med <= limit else "missed",
                            "contact detection %s, %s: median %.3g µs (target <= %g µs)%s" % (
                                "warm" if "Warm" in kind else "cold", r["label"] or r["name"], med, limit,
                                loadNote(microLoad.get("ContactBenchmark"), cpus)),
                            "ContactBenchmark %s" % r["name"]))
    failRows = [r for r in entries if r["name"].startswith(("BM_PairWarm/", "BM_PairCold/")) and "fail" in r["counters"]]
    if failRows:
        nFail = sum(r["counters"]["fail"] for r in failRows)
        targets.append(("met" if nFail == 0 else "missed",
                        "detection failures after fallback: %d in the pair benchmarks (target 0)" % nFail,
                        "ContactBenchmark"))

    # Studies
    studies = []
    for d in sorted(glob.glob(os.path.join(a.out, "studies", "*"))):
        name = os.path.basename(d)
        result = read(os.path.join(d, "result.md"))
        seconds = read(os.path.join(d, "seconds"), "?")
        load = pieceLoad(os.path.join(d, "load"))
        studies.append((name, result, seconds, load))
        note = loadNote(load, cpus)
        for line in result.splitlines():
            # "- target met: text" (openfoamSpheres) or any bullet naming a
            # target and its status, e.g. "- slope ... (target <= 1.1: met)"
            m = re.match(r"^\s*[-*]\s*\**\s*target\s+(met|missed|not measured)\**\s*:?\s*(.*)$", line, re.I)
            if m:
                targets.append((m.group(1).lower(), m.group(2).strip() + note, "study " + name))
                continue
            if re.match(r"^\s*[-*]\s", line) and re.search(r"\btarget", line, re.I):
                states = re.findall(r"\b(met|missed|not measured)\b", line, re.I)
                if states:
                    text = re.sub(r"^\s*[-*]\s*", "", line).replace("**", "").strip()
                    targets.append((states[-1].lower(), text + note, "study " + name))
    expected = {
        "openfoamSpheres": "spheres >= 8x faster per particle-substep than OpenFOAM's colliding cloud",
        "coreScaling": "cost O(N): log-log slope <= 1.1 from 1e3 to 1e5 particles",
        "parallelScaling": "2-rank parallel efficiency >= 80 % at 1e5 particles",
    }
    present = {s[0] for s in studies if s[1]}
    reported = {t[2] for t in targets}
    for name, text in expected.items():
        if name not in present:
            targets.append(("not measured", text, "study %s missing or failed" % name))
        elif "study " + name not in reported:
            targets.append(("not measured", text, "study %s (its result states no target line)" % name))

    L = []
    L.append("# Performance")
    L.append("")
    L.append("Written by `./Allbenchmark%s` (do not edit by hand: run it again)." % (
        {"quick": " -quick", "quick-micro": " -quick-micro"}.get(a.mode, "")))
    L.append("")
    if a.mode == "quick":
        L.append("**Mode: quick (smoke test).** Short runs: the figures below show that every piece runs, they are "
                 "not the measured performance.")
        L.append("")
    elif a.mode == "quick-micro":
        L.append("**Mode: quick-micro.** Studies at full size; micro-benchmarks one short run each (>= 10 ms, "
                 "thousands of calls for the sub-microsecond kernels), without the boundary-element tensor solves.")
        L.append("")
    L.append("| | |")
    L.append("|---|---|")
    L.append("| date | %s to %s |" % (read(os.path.join(a.out, "date.start"), "?"), read(os.path.join(a.out, "date.end"), "?")))
    L.append("| commit | `%s` %s%s |" % (commit, subject.replace("|", "/"), " (+ uncommitted changes)" if dirty else ""))
    L.append("| CPU | %s, %s logical CPUs (%s threads per core), max %s MHz |" % (
        mach["model"], mach["cpus"], mach["threads"], mach["mhz"]))
    L.append("| memory | %s |" % mach["memory"])
    L.append("| kernel | %s |" % mach["kernel"])
    L.append("| load average (1/5/15 min) | start %s, end %s |" % (" ".join(loadStart) or "?", " ".join(loadEnd) or "?"))
    L.append("")
    if busy > 0.5*cpus:
        L.append("**The machine was not idle** (load average up to %.2f on %d CPUs): other jobs shared the cores, so "
                 "wall-clock figures are inflated; the figures below are CPU times (Google Benchmark's CPU time, "
                 "OpenFOAM's `ExecutionTime`), which suffer less, but cache and memory-bandwidth sharing still "
                 "make them pessimistic." % (busy, int(cpus)))
        L.append("")

    L.append("## Targets met / missed")
    L.append("")
    L.append("| status | target and figure | from |")
    L.append("|---|---|---|")
    order = {"missed": 0, "not measured": 1, "met": 2}
    for st, text, src in sorted(targets, key=lambda t: order.get(t[0], 3)):
        L.append("| %s | %s | %s |" % ("**%s**" % st if st != "met" else st, text.replace("|", "/"), src))
    L.append("")
    nMet = sum(1 for t in targets if t[0] == "met")
    nMissed = sum(1 for t in targets if t[0] == "missed")
    nNot = sum(1 for t in targets if t[0] == "not measured")
    L.append("Summary: %d met, %d missed, %d not measured; %d failed pieces." % (nMet, nMissed, nNot, len(failures)))
    L.append("")

    if failures:
        L.append("## Failures")
        L.append("")
        for piece, msg in failures:
            L.append("- **%s**: %s" % (piece, msg))
        L.append("")

    L.append("## How the figures are measured")
    L.append("")
    L.append("- **Micro-benchmarks** (`tests/benchmarks/*Benchmark.C`, Google Benchmark, single thread): CPU time per "
             "iteration, %s. Counters are the benchmarks' own (e.g. `med_us`: median CPU microseconds per call "
             "over the benchmark's sample of configurations, `iter/det`: Newton iterations per detection, "
             "`fail`: detections not converged after the fallback)." % (
                 "median of 3 repetitions of >= 0.2 s each" if a.mode == "full" else "one short run (>= 10 ms)"))
    L.append("- **Studies** (`tests/benchmarks/studies/*/Allrun <dir>`): each says how its figures are measured in "
             "its section below; OpenFOAM-level figures use the solvers' own `ExecutionTime` (process CPU time).")
    L.append("- Reproduce: `./Allbenchmark` (full) or `./Allbenchmark -quick` (smoke test). Raw outputs: "
             "`build/benchmark/` (JSON, logs, study cases).")
    L.append("")

    L.append("## Studies")
    L.append("")
    if not studies:
        L.append("No study ran.")
        L.append("")
    for name, result, seconds, load in studies:
        L.append("### `%s` (%s s)" % (name, seconds))
        L.append("")
        if load is not None:
            L.append("Load average (1 min) during the study: up to %.2f on %d CPUs%s." % (
                load, int(cpus), ": **loaded machine**, CPU-time figures pessimistic" if loadNote(load, cpus) else ""))
            L.append("")
        if result:
            # demote the study's headings below "### <study>" (top level -> ####)
            levels = [len(l) - len(l.lstrip("#")) for l in result.splitlines() if l.startswith("#")]
            shift = max(0, 4 - min(levels)) if levels else 0
            for line in result.splitlines():
                L.append(("#"*shift + line) if line.startswith("#") else line)
        else:
            L.append("**No result** (see the failures above; tail of the log:)")
            L.append("")
            L.append("```")
            L.extend(read(os.path.join(a.out, "studies", name, "log.Allrun")).splitlines()[-15:])
            L.append("```")
        L.append("")

    L.append("## Micro-benchmarks (medians)")
    L.append("")
    if not tables:
        L.append("No micro-benchmark ran.")
        L.append("")
    for exe, rows in tables.items():
        L.append("### %s" % exe)
        L.append("")
        if microLoad.get(exe) is not None:
            L.append("Load average (1 min) during the run: up to %.2f on %d CPUs%s." % (
                microLoad[exe], int(cpus), ": **loaded machine**" if loadNote(microLoad[exe], cpus) else ""))
            L.append("")
        if rows is None:
            L.append("**No result** (JSON unreadable).")
            L.append("")
            continue
        L.append("| benchmark | label | CPU time | counters |")
        L.append("|---|---|---|---|")
        for r in rows:
            L.append("| %s | %s | %s | %s |" % (
                r["name"], r["label"], fmtTime(r["cpu"], r["unit"]),
                ", ".join(fmtCounter(k, v) for k, v in sorted(r["counters"].items()))))
        L.append("")

    old = read(a.doc)
    if HAND_KEPT in old:
        L.extend(old[old.index(HAND_KEPT):].rstrip("\n").splitlines())

    os.makedirs(os.path.dirname(a.doc), exist_ok=True)
    with open(a.doc, "w") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()

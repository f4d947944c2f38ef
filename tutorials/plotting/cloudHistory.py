"""Shared part of the single-parcel tutorials' scripts (settlingFiniteRe's
incidence.py, resolvedCoefficientTables' settling.py): the written times of
a case and the first parcel's value of an ASCII lagrangian field.
"""
import os
import re


def firstEntry(path):
    """The first value of a one-parcel ASCII IOField: a scalar or a tuple."""
    text = open(path).read()
    body = text[text.index("}") + 1:] if "FoamFile" in text else text
    m = re.search(r"\d+\s*\(\s*(\([^()]*\)|[-+0-9.eE]+)", body)
    if not m:
        raise ValueError("no entry in %s" % path)
    return [float(x) for x in m.group(1).strip("()").split()]


def cloudTimes(caseDir, cloud="kinematicCloud"):
    """[(t, folder of the cloud's fields)] of the written times t > 0, sorted."""
    times = []
    for entry in os.listdir(caseDir):
        try:
            t = float(entry)
        except ValueError:
            continue
        folder = os.path.join(caseDir, entry, "lagrangian", cloud)
        if t > 0 and os.path.isdir(folder):
            times.append((t, folder))
    return sorted(times)

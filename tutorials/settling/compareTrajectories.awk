#------------------------------------------------------------------------------
# Usage: awk [-v after=t0] -f compareTrajectories.awk reference other
# Both files from parcelTrajectories (inertialCase): lines
#   time x y z Ux Uy Uz e0 e1 e2 e3 wx wy wz
# in the same order. Prints, per quantity (position, U, orientation,
# omegaP), the largest difference |a - b| over all steps and parcels
# divided by the largest |a| of that quantity in the whole reference (so
# that a decayed spin at round-off level is not compared relative to
# itself). With 'after', reference lines up to time t0 only set the scales
# and 'other' starts at t0 (a run continued from t0).
# Exits 1 if the files differ in length or in the step times.
#------------------------------------------------------------------------------
BEGIN {
    split("position U orientation omegaP", names, " ")
    first["position"] = 2; last["position"] = 4
    first["U"] = 5; last["U"] = 7
    first["orientation"] = 8; last["orientation"] = 11
    first["omegaP"] = 12; last["omegaP"] = 14
}
NR == FNR {
    for (k in first)
    {
        s = 0
        for (i = first[k]; i <= last[k]; i++) s += $i^2
        if (sqrt(s) > scale[k]) scale[k] = sqrt(s)
    }
    if (after == "" || $1 > after + 1e-12) ref[++nRef] = $0
    next
}
{
    split(ref[FNR], x, " "); split($0, y, " ")
    if (x[1] != y[1]) { printf "step time mismatch on line %d: %s %s\n", FNR, x[1], y[1]; bad = 1 }
    for (k in first)
    {
        d = 0
        for (i = first[k]; i <= last[k]; i++) d += (x[i] - y[i])^2
        if (sqrt(d) > diff[k]) diff[k] = sqrt(d)
    }
    n = FNR
}
END {
    if (n == 0 || n != nRef) { printf "line counts differ: %d %d\n", nRef, n; exit 1 }
    for (j = 1; j <= 4; j++)
    {
        k = names[j]
        printf "%s %.17g\n", k, (scale[k] > 0) ? diff[k]/scale[k] : diff[k]
    }
    exit bad
}

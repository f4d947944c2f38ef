# Per-step parcel state from a superellipsoidPimpleFoam log with
# 'logParcels yes': one line per time step and parcel:
#   t id x y z ux uy uz wx wy wz KEtrans KErot
# (w = omega' in the particle frame; KE = the cloud's totals of that step)
/^Time = / { t = $3 }
/Linear kinetic energy/ { ket = $NF }
/Rotational kinetic energy/ { ker = $NF }
/^    parcel / {
    line = $0; gsub(/[()]/, " ", line); n = split(line, f, " ");
    # parcel proc id shape NAME position x y z U ux uy uz e0 E e123 a b c omegaP wx wy wz
    pending[++np] = sprintf("%s %s:%s %s %s %s %s %s %s %s %s %s", t, f[2], f[3], f[7], f[8], f[9], f[11], f[12], f[13], f[21], f[22], f[23])
}
/^ExecutionTime/ {
    for (i = 1; i <= np; ++i) printf "%s %s %s\n", pending[i], ket, ker
    np = 0
}

"""Compare the lagrangian fields of two cloud directories parcel by parcel
(keyed by origProcId, origId; decomposePar/reconstructPar reorder parcels).
Every field of the first must exist in the second with the same values as
written (tokens compared as text: writePrecision 17 round-trips doubles, so
equal text is bitwise equality). Exit 1 with a message on any difference."""
import os
import re
import sys


def readField(path):
    text = open(path).read()
    body = text[text.index('}', text.index('FoamFile')) + 1:]
    body = re.sub(r'//.*', '', body)
    m = re.search(r'(\d+)\s*([({])', body)
    n = int(m.group(1))
    rest = body[m.end(2) - 1:]
    if rest.startswith('{'):
        return [rest[1:rest.index('}')].strip()]*n
    inner = rest[1:rest.rindex(')')]
    items = re.findall(r'\([^()]*\)', inner) if '(' in inner else inner.split()
    return [' '.join(i.split()) for i in items]


def readCloud(d):
    fields = {}
    for name in sorted(os.listdir(d)):
        if name == 'coordinates':  # barycentric, relative to the (decomposed) mesh's tets
            continue
        fields[name] = readField(os.path.join(d, name))
    keys = list(zip(fields['origProcId'], fields['origId']))
    return fields, keys


a, b = sys.argv[1], sys.argv[2]
fa, ka = readCloud(a)
fb, kb = readCloud(b)
errors = []
if sorted(ka) != sorted(kb):
    errors.append('parcels differ: %s vs %s' % (sorted(ka), sorted(kb)))
for name in list(fa):
    if name.startswith('collisionRecords'):
        # OpenFOAM's DEM pair/wall records (collisionModel none): must be
        # empty; decomposePar/reconstructPar do not carry them
        if any(v not in ('0()', '()', '0') for v in fa[name]):
            errors.append('field %s is not empty: %s' % (name, fa[name][:2]))
        del fa[name]
        continue
    if name not in fb:
        errors.append('field %s missing after the round trip' % name)
        continue
    va = dict(zip(ka, fa[name]))
    vb = dict(zip(kb, fb[name]))
    bad = [k for k in va if va[k] != vb.get(k)]
    if bad:
        errors.append('field %s differs for parcels %s: %s vs %s'
                      % (name, bad, va[bad[0]], vb.get(bad[0])))
if errors:
    print('\n'.join('FAIL: ' + e for e in errors))
    sys.exit(1)
print('ok: %d fields of %d parcels identical (%s)'
      % (len(fa), len(ka), ' '.join(fa)))

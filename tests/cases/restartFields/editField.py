"""Edit an ascii OpenFOAM lagrangian field written on one line as N(...) or
N{v}: 'truncate' drops the last value, 'set I V' replaces value I by V."""
import re
import sys

path, op = sys.argv[1], sys.argv[2]
lines = open(path).read().split('\n')
for k, line in enumerate(lines):
    m = re.match(r'^(\d+)([({].*)$', line)
    if not m:
        continue
    n, body = int(m.group(1)), m.group(2)
    if body.startswith('{'):
        items = [body[1:body.rindex('}')]]*n
    else:
        inner = body[1:body.rindex(')')]
        items = re.findall(r'\([^()]*\)', inner) if '(' in inner else inner.split()
    if op == 'truncate':
        items = items[:-1]
    elif op == 'set':
        items[int(sys.argv[3])] = sys.argv[4]
    lines[k] = '%d(%s)' % (len(items), ' '.join(items))
    break
else:
    sys.exit('no one-line list in ' + path)
open(path, 'w').write('\n'.join(lines))

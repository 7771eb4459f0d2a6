"""What the seed scripts share: where the fixtures and the fuzz inputs are, and an atomic seed writer that keeps
existing seeds unless the script runs with --force."""
import os, sys

FORCE = '--force' in sys.argv
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FX = os.path.join(ROOT, 'testdata')
RES = os.path.join(ROOT, 'fuzz', 'src', 'test', 'resources', 'org', 'chunkcdm')
written = 0


def out(pkg, cls, method, name, data):
    """Writes seed-<name> for <Class>#<method> of package <pkg> (temporary file, then renamed)."""
    global written
    d = os.path.join(RES, pkg, cls + 'Inputs', method)
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, 'seed-' + name)
    if os.path.exists(p) and not FORCE:
        return
    with open(p + '.tmp', 'wb') as f:
        f.write(data)
    os.replace(p + '.tmp', p)
    written += 1


def rd(p):
    with open(p, 'rb') as f:
        return f.read()

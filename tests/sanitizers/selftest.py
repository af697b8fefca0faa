#!/usr/bin/env python3
"""Each planted bug of sanitizer_selftest must be reported under the 'sanitize' setup, and
the clean run must stay silent: the suppressions hide PoCL's leaks, not ours.
usage: selftest.py PATH/TO/sanitizer_selftest"""
import subprocess
import sys

exe = sys.argv[1]
cases = [('clean', None), ('leak', 'LeakSanitizer: detected memory leaks'),
         ('overflow', 'heap-buffer-overflow'), ('ub', 'runtime error: signed integer overflow')]
failures = 0
for mode, needle in cases:
    p = subprocess.run([exe, mode], capture_output=True, text=True, timeout=300)
    if needle is None:
        ok = p.returncode == 0 and 'Sanitizer' not in p.stderr and 'runtime error' not in p.stderr
    else:
        ok = p.returncode != 0 and needle in p.stderr
    failures += not ok
    print('%s %-8s exit %d%s' % ('ok  ' if ok else 'FAIL', mode, p.returncode,
                                 '' if ok else '\n' + p.stderr[-3000:]))
sys.exit(1 if failures else 0)

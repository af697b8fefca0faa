#!/usr/bin/env python3
"""A build without CLBlast (-Dclblast=disabled): the clblast row says it is unavailable
instead of pretending, the kernels still run and verify, nothing crashes.  Registered only in
such a build.      usage: test_noclblast.py PATH/TO/clgemm"""
import csv
import io
import json
import os
import subprocess
import sys

CLGEMM = sys.argv[1]
DEVICE = os.environ.get('CLGEMM_TEST_DEVICE') or 'pocl'
failures = checks = 0


def run(*args):
    p = subprocess.run([CLGEMM, *args], capture_output=True, text=True, timeout=900)
    return p.returncode, p.stdout, p.stderr


def expect(cond, what, detail=''):
    global failures, checks
    checks += 1
    if cond:
        print('ok  ', what)
    else:
        failures += 1
        print('FAIL', what, detail[-3000:] if detail else '')


def crashed(rc):
    return rc < 0 or rc > 2  # a signal, or a sanitizer's exit status


rc, out, err = run('--algo', 'list', '--format', 'csv')
names = [r['name'] for r in csv.DictReader(io.StringIO(out))] if rc == 0 else []
kernels = [n for n in names if n not in ('clblast', 'auto')]
expect(rc == 0 and len(kernels) >= 6, '--algo list works', out + err)

# Every algorithm: kernels verified, the clblast row "unsupported" with the reason, exit 0.
rc, out, err = run('--device', DEVICE, '--size', '65x33x17', '--iters', '1', '--warmup', '0',
                   '--format', 'csv', '--quiet')
rows = {r['algorithm']: r for r in csv.DictReader(io.StringIO(out))} if out.strip() else {}
blast = rows.get('clblast', {})
expect(not crashed(rc), 'no crash (exit %d)' % rc, err)
# (A kernel the device cannot run, a matrix-unit one on a CPU, says unsupported with its own
# reason.)
expect(rc == 0 and all(rows.get(k, {}).get('status') == 'ok' or
                       (rows.get(k, {}).get('status') == 'unsupported' and
                        'CLBlast' not in rows[k].get('note', '')) for k in kernels) and
       sum(rows.get(k, {}).get('status') == 'ok' for k in kernels) >= 6,
       'every kernel ok (or unsupported by the device) without CLBlast', out + err)
expect(blast.get('status') == 'unsupported' and 'unavailable' in blast.get('note', ''),
       'clblast row: unsupported, "%s"' % blast.get('note', ''), out + err)
expect(all(r.get('vs_clblast', '') == '' for r in rows.values()),
       'no ratio against a baseline that did not run', out)

# Only the baseline asked for.
rc, out, err = run('--device', DEVICE, '--algo', 'clblast', '--size', '20', '--iters', '1',
                   '--format', 'csv', '--quiet')
rows = list(csv.DictReader(io.StringIO(out))) if out.strip() else []
expect(not crashed(rc) and rc == 0 and len(rows) == 1 and rows[0]['status'] == 'unsupported',
       '--algo clblast alone: one unsupported row, exit %d' % rc, out + err)

# JSON: null ratio, the note says why.
rc, out, err = run('--device', DEVICE, '--algo', 'tiled', '--size', '40', '--iters', '1',
                   '--format', 'json', '--quiet')
try:
    res = json.loads(out)['results'][0]['rows']
    ok = (rc == 0 and [r['algorithm'] for r in res] == ['tiled', 'clblast'] and
          res[0]['vs_clblast'] is None and res[1]['status'] == 'unsupported' and
          'unavailable' in res[1]['note'])
except (ValueError, KeyError, IndexError) as exc:
    ok = False
    out += repr(exc)
expect(ok, '--format json: clblast unsupported, ratio null', out + err)

# The table says it in words, on the large-problem (sampled) check path too, where CLBlast
# would otherwise be the full-result comparison.
rc, out, err = run('--device', DEVICE, '--algo', 'block_tiled', '--size', '1024x1024x257',
                   '--iters', '1', '--warmup', '0', '--quiet')
expect(not crashed(rc) and rc == 0 and 'unsupported' in out and 'CLBlast unavailable' in out
       and 'FAIL' not in out, 'table, sampled check: block_tiled ok, CLBlast unavailable',
       out + err)

# The general call (transposed, column-major, a batch, tight lines) without the baseline.
rc, out, err = run('--device', DEVICE, '--algo', 'tiled', '--size', '33x17x9', '--iters', '1',
                   '--trans', 'TN', '--layout', 'col', '--batch', '2', '--ld-pad', '0',
                   '--format', 'csv', '--quiet')
rows = {r['algorithm']: r for r in csv.DictReader(io.StringIO(out))} if out.strip() else {}
expect(not crashed(rc) and rc == 0 and rows.get('tiled', {}).get('status') == 'ok' and
       rows.get('clblast', {}).get('status') == 'unsupported' and
       'unavailable' in rows['clblast'].get('note', ''),
       '--trans TN --layout col --batch 2: tiled ok, CLBlast unavailable', out + err)

rc, out, err = run('--device', 'all', '--size', '24', '--iters', '1', '--quiet')
expect(not crashed(rc) and rc == 0, '--device all without CLBlast', out + err)

print('%d checks, %d failed' % (checks, failures))
sys.exit(1 if failures else 0)

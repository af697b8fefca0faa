#!/usr/bin/env python3
"""The on-disk program cache from outside: a second run loads instead of compiling, a
corrupted or truncated entry is detected and rebuilt, an unwritable directory costs one
warning and nothing else, CLGEMM_NO_CACHE turns it off.   usage: test_cache.py PATH/TO/clgemm"""
import csv
import io
import os
import stat
import subprocess
import sys
import tempfile

CLGEMM = sys.argv[1]
failures = checks = 0


def run(cache_env):
    env = dict(os.environ)
    env.pop('CLGEMM_NO_CACHE', None)
    env.update(cache_env)
    p = subprocess.run([CLGEMM, '--device', 'pocl', '--algo', 'block_tiled', '--no-baseline',
                        '--size', '40x30x20', '--iters', '1', '--warmup', '0', '--format', 'csv',
                        '--quiet'], capture_output=True, text=True, env=env, timeout=600)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    return p.returncode, rows[0] if rows else {}, p.stderr


def expect(cond, what, detail=''):
    global failures, checks
    checks += 1
    failures += not cond
    print('ok  ' if cond else 'FAIL', what, '' if cond else detail)


with tempfile.TemporaryDirectory() as tmp:
    cache = os.path.join(tmp, 'cache')
    env = {'CLGEMM_CACHE_DIR': cache}
    rc, row, err = run(env)
    expect(rc == 0 and row.get('status') == 'ok' and row.get('from_cache') == '0',
           'first run compiles', repr((rc, row, err)))
    entries = [os.path.join(cache, f) for f in os.listdir(cache)] if os.path.isdir(cache) else []
    expect(len(entries) == 1 and entries[0].endswith('.bin'), 'one entry written', repr(entries))
    compiled_ms = float(row.get('build_ms') or 'nan')

    rc, row, err = run(env)
    expect(rc == 0 and row.get('status') == 'ok' and row.get('from_cache') == '1',
           'second run loads from the cache', repr((rc, row, err)))
    print('     build %.1f ms, from cache %.1f ms' % (compiled_ms, float(row.get('build_ms') or 'nan')))

    entry = entries[0] if entries else os.path.join(cache, 'missing')
    data = open(entry, 'rb').read() if entries else b''
    for name, damaged in [('flipped byte', data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 0xff]) + data[len(data) // 2 + 1:]),
                          ('truncated', data[:len(data) // 3]),
                          ('empty', b''),
                          ('garbage', b'not a cache entry at all' * 10)]:
        with open(entry, 'wb') as f:
            f.write(damaged)
        rc, row, err = run(env)
        expect(rc == 0 and row.get('status') == 'ok' and row.get('from_cache') == '0',
               '%s entry is detected and rebuilt' % name, repr((rc, row, err)))
        rc, row, err = run(env)  # the rewritten entry must be whole again: it loads
        expect(rc == 0 and row.get('from_cache') == '1' and os.path.getsize(entry) > 64,
               '%s entry is rewritten whole' % name, repr((rc, row, err)))

    readonly = os.path.join(tmp, 'readonly')
    os.mkdir(readonly)
    os.chmod(readonly, stat.S_IRUSR | stat.S_IXUSR)
    probe = os.path.join(readonly, 'probe')
    try:
        open(probe, 'w').close()
        writable = True  # root ignores permissions: point at a path under a file instead
    except OSError:
        writable = False
    blocked = os.path.join(entry, 'sub') if writable else readonly
    p = subprocess.run([CLGEMM, '--device', 'pocl', '--size', '24', '--iters', '1', '--warmup',
                        '0', '--quiet', '--no-baseline'], capture_output=True, text=True,
                       env=dict(os.environ, CLGEMM_CACHE_DIR=blocked), timeout=600)
    warnings = [l for l in p.stderr.splitlines() if 'cannot write the kernel cache' in l]
    expect(p.returncode == 0 and len(warnings) == 1 and 'FAIL' not in p.stdout,
           'unwritable cache directory: one warning, the run goes on',
           repr((p.returncode, p.stderr[-800:])))

    rc, row, err = run({'CLGEMM_CACHE_DIR': cache, 'CLGEMM_NO_CACHE': '1'})
    expect(rc == 0 and row.get('from_cache') == '0', 'CLGEMM_NO_CACHE=1 compiles', repr(row))

print('%d checks, %d failed' % (checks, failures))
sys.exit(1 if failures else 0)

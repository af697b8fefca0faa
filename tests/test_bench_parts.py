#!/usr/bin/env python3
"""bench/run.py --part K/N on PoCL: two parts of the epilogues preset (at 24^3, so the whole
test takes seconds) make one run -- every case once, in the preset's order of parts, the union
of sizes, both parts in meta.json's "parts" -- which bench/render.py's loader reads as one run
with every part's rows; part 2 with no part 1 to add to, and K > N, are refused with one line
and exit status 2.  cuBLAS is not measured here (no CUDA): each part must say so, not pass
for measured.
usage: test_bench_parts.py PATH/TO/clgemm"""
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'bench'))
import presets  # noqa: E402
import render_load  # noqa: E402

CLGEMM = os.path.abspath(sys.argv[1])
failed = 0


def expect(ok, what, detail=''):
    global failed
    print('%s %s' % ('ok  ' if ok else 'FAIL', what))
    if not ok:
        failed += 1
        if detail:
            print('     ' + detail.strip().replace('\n', '\n     '))


def run_py(*args):
    p = subprocess.run([sys.executable, os.path.join(ROOT, 'bench', 'run.py'), 'epilogues',
                        '--clgemm', CLGEMM, '--device', 'pocl', '--sizes', '24', *args],
                       capture_output=True, text=True, timeout=600)
    return p.returncode, p.stderr


with tempfile.TemporaryDirectory() as out:
    rc, err = run_py('--out', out, '--part', '2/2')
    expect(rc == 2 and 'run part 1 first' in err,
           'part 2 with no part 1 to add to: refused, exit 2 (rc=%d)' % rc, err[-300:])
    rc, err = run_py('--out', out, '--part', '3/2')
    expect(rc == 2 and 'expected K/N' in err, 'K > N: refused, exit 2 (rc=%d)' % rc, err[-300:])
    expect(not glob.glob(os.path.join(out, '*', '*')), 'the refusals wrote no folder')

    for k in (1, 2):
        rc, err = run_py('--out', out, '--part', '%d/2' % k)
        expect(rc == 0, 'part %d/2 ran (rc=%d)' % (k, rc), err[-500:])
    folders = glob.glob(os.path.join(out, '*', 'epilogues*'))
    expect(len(folders) == 1, 'both parts wrote one folder: %s' % folders)
    if len(folders) == 1:
        meta = json.load(open(os.path.join(folders[0], 'meta.json')))
        want = [c.name for c in presets.preset_cases('epilogues', ['24'])]
        got = [c['name'] for c in meta['cases']]
        expect(sorted(got) == sorted(want) and len(got) == len(set(got)),
               'every case of the preset once (%d of %d)' % (len(got), len(want)),
               'got %s\nwant %s' % (got, want))
        expect(got == want[0::2] + want[1::2], 'part 1 took cases 1, 3, ..., part 2 the rest')
        expect(sorted(meta.get('parts', {})) == ['1/2', '2/2'] and meta.get('part_count') == 2,
               'meta.json lists both parts: %s' % sorted(meta.get('parts', {})))
        expect(all(p.get('finished') for p in meta['parts'].values()), 'each part finished')
        expect(meta.get('cublas') != 'measured',
               'cuBLAS not measured here, and meta.json does not say it was: %s'
               % meta.get('cublas'))
        expect(all(os.path.exists(os.path.join(folders[0], n + '.json')) for n in want),
               "every case's clgemm JSON is there")
        runs = [r for r in render_load.load_runs(out) if 'epilogues' in r.presets]
        cases = {r['file'].split(os.sep)[-1] for r in runs[0].rows} if len(runs) == 1 else set()
        expect(len(runs) == 1 and cases == {n + '.json' for n in want},
               'render.py reads one run with the rows of both parts (%d runs, %d files)'
               % (len(runs), len(cases)))
        rc, err = run_py('--out', out, '--part', '2/2')
        expect(rc == 2, 'a part that already ran is not run into the folder again (rc=%d)' % rc,
               err[-300:])

print('%d failed' % failed)
sys.exit(1 if failed else 0)

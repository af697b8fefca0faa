#!/usr/bin/env python3
"""tools/split_audit.py on PoCL (seconds): under a tuning file with one rule that splits, it
times every split asked for at every shape, verified, beside what auto runs, reads auto's own
count out of its note (which must be the count the rule computes for this CPU), fits the rounds
model on half the shapes and writes it all to JSON; an --only that names no rule, or a bad
list, fails with one line.
usage: test_split_audit.py PATH/TO/clgemm PATH/TO/tools"""
import json
import math
import os
import subprocess
import sys
import tempfile

clgemm, tools = sys.argv[1], sys.argv[2]
failed = 0


def expect(ok, what, detail=''):
    global failed
    print(('ok   ' if ok else 'FAIL ') + what + ('' if ok else '\n' + detail[-2000:]))
    failed += not ok


def audit(*extra):
    return subprocess.run([sys.executable, os.path.join(tools, 'split_audit.py'), '--clgemm',
                           clgemm, '--device', 'pocl', '--rounds', '1', '--iters', '2', *extra],
                          capture_output=True, text=True, timeout=600)


rule = {'device': '*', 'purpose': 'auto', 'dtype': 'f32', 'trans': 'NT', 'm_max': 4,
        'algorithm': 'skinny', 'params': 'WG=256,KT=32,RN=8,UNROLL=1,BM=16',
        'split_per_cu': 2, 'split_kmin': 128}
with tempfile.TemporaryDirectory() as tmp:
    tuning, out = os.path.join(tmp, 'tuning.json'), os.path.join(tmp, 'audit.json')
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rule]}, open(tuning, 'w'))
    widths, depths, splits = [64, 200, 300, 520], [512, 1024], [1, 2, 3, 4]
    p = audit('--tuning', tuning, '--widths', ','.join(map(str, widths)), '--depths',
              ','.join(map(str, depths)), '--splits', ','.join(map(str, splits)), '--json', out)
    try:
        doc = json.load(open(out))
        entry = doc['rules'][0]
        shapes = entry['shapes']
        cus = doc['compute_units']
        ok = (p.returncode == 0 and len(doc['rules']) == 1 and
              [(s['N'], s['K']) for s in shapes] == [(n, k) for k in depths for n in widths] and
              all(sorted(s['splits']) == [str(x) for x in splits] or
                  sorted(map(int, s['splits'])) == splits for s in shapes))
        # auto's count is the rule's: split_per_cu x CUs blocks, to nearest, over the blocks
        # (64 columns each), no more than K / 128 slices
        def want(s):
            tiles = math.ceil(s['N'] / 64)
            if tiles >= 2 * cus:
                return 1
            return max(1, min(int(math.floor(2 * cus / tiles + 0.5)), s['K'] // 128, 32))
        counts = [(s['chosen'][1], want(s)) for s in shapes]
        ok = ok and all(got == w for got, w in counts)
        ok = ok and len(entry['fit']) == 4 and 'rule_loss' in entry
    except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
        ok, counts = False, repr(exc)
    expect(ok, 'every split of the rule at every shape, auto\'s own count, a fit, in JSON',
           p.stdout + p.stderr + repr(counts))
    p = audit('--tuning', tuning, '--only', 'auto:f32:NN:4', '--widths', '64', '--depths',
              '512')
    expect(p.returncode == 1 and '0 rule(s) to audit' in p.stdout,
           'an --only that names no rule audits nothing and fails', p.stdout + p.stderr)
    p = audit('--widths', '64,x')
    expect(p.returncode == 2 and p.stderr.strip().splitlines()[-1].endswith(
        '--widths takes a comma-separated list of positive integers'),
        'a bad list fails with one line', p.stdout + p.stderr)
print('3 checks, %d failed' % failed)
sys.exit(1 if failed else 0)

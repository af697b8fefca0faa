#!/usr/bin/env python3
"""A batch rule for a purpose name, through the clgemm binary: a tuning file's rule with
"batch": true picks what `tensor_core` runs for a strided batch of bf16 data alone, not for a
single GEMM of the same shape (step 10 emulated on PoCL).  In the slow suite: its two cold
builds of the emulated kernel cost a minute of CPU that the quick suite has no room for;
test_cli.py checks the same rule mechanism for `auto` there.
usage: test_cli_batch_rule.py PATH/TO/clgemm"""
import json
import os
import sys
import tempfile

from clgemm_run import runner

CLGEMM = sys.argv[1]


run = runner(CLGEMM)


rc, out, err = run('--list-devices')
pocl_line = next((line for line in out.splitlines() if 'PoCL' in line), None)
if rc != 0 or pocl_line is None:
    print('FAIL --list-devices shows no PoCL device:', out + err)
    sys.exit(1)
pocl_name = pocl_line.split('|')[0].split(None, 3)[3].strip()

with tempfile.TemporaryDirectory() as tmp:
    tuning = os.path.join(tmp, 'tuning.json')
    rule = {'device': pocl_name, 'purpose': 'tensor_core', 'dtype': 'bf16', 'trans': 'any',
            'm_max': 512, 'algorithm': 'wgmma_tma', 'params': 'BN=128,WGN=128,STAGES=2',
            'split_per_cu': 0, 'split_kmin': 0, 'batch': True}
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rule]}, open(tuning, 'w'))
    params = {}
    for batch in ('3', '1'):
        rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--dtype', 'bf16',
                           '--size', '100x130x64', '--batch', batch, '--out', 'bf16',
                           '--iters', '1', '--quiet', '--format', 'json', '--no-baseline',
                           env={'CLGEMM_TUNING_FILE': tuning, 'CLGEMM_EMULATE_MATRIX': '1'})
        try:
            row = json.loads(out)['results'][0]['rows'][0]
            params[batch] = row['params'] if rc == 0 and row['status'] == 'ok' else 'FAILED'
        except (ValueError, KeyError, IndexError):
            params[batch] = 'FAILED: ' + out + err

ok = 'WGN=128 STAGES=2' in params['3'] and 'STAGES=2' not in params['1']
print('%s a batch rule: a batch of 3 runs its kernel, a single GEMM does not %s' %
      ('ok  ' if ok else 'FAIL', '' if ok else repr(params)))
sys.exit(0 if ok else 1)

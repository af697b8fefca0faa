#!/usr/bin/env python3
"""A batch rule for a purpose name, through the clgemm binary: a tuning file's rule with
"batch": true picks what `tensor_core` runs for a strided batch of bf16 data alone, not for a
single GEMM of the same shape (step 10 emulated on PoCL); and where the tightest class's kernel
cannot run a batch in one launch (step 8 reads no transposed operand), the next looser class's
rule runs it, not the purpose's defaults; and where no rule's kernel reads it in place, the
tightest still runs it in one launch, the operand copied first.  In the slow suite: its two cold
builds of the emulated kernel cost a minute of CPU that the quick suite has no room for;
test_cli_tuning.py checks the same rule mechanism for `auto` there.
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

    # TF32: step 8 for M <= 128, step 10 with PERSIST for M <= 512.  NN runs step 8; NT
    # (B stored N x K, which step 8 would pack per problem) falls to the M <= 512 rule.
    rules = [dict(rule, dtype='f32', m_max=128, algorithm='mma', params=''),
             dict(rule, dtype='f32', params='BN=128,WGN=128,STAGES=4,PACKA=3,PERSIST=1')]
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': rules}, open(tuning, 'w'))
    ran = {}
    for trans in ('NN', 'NT'):
        rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--trans', trans,
                           '--size', '40x24x32', '--batch', '3', '--iters', '1', '--quiet',
                           '--format', 'json', '--no-baseline',
                           env={'CLGEMM_TUNING_FILE': tuning, 'CLGEMM_EMULATE_MATRIX': '1'})
        try:
            row = json.loads(out)['results'][0]['rows'][0]
            ran[trans] = (row['backend'] + ' ' + row['params']
                          if rc == 0 and row['status'] == 'ok' else 'FAILED')
        except (ValueError, KeyError, IndexError):
            ran[trans] = 'FAILED: ' + out + err

    # Where no kernel (rule or candidate) reads every strided operand in place, the tightest
    # rule's still runs the batch in one launch, the operand copied first for all problems at
    # once (16-bit rows of 33 values, off 16 bytes), rather than a kernel per problem.
    rules = [dict(rule, m_max=128, algorithm='mma', params='BM=64,BN=64')]
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': rules}, open(tuning, 'w'))
    rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--dtype', 'bf16',
                       '--size', '40x24x33', '--ld-pad', '0', '--batch', '3', '--iters', '1',
                       '--quiet', '--format', 'json', '--no-baseline',
                       env={'CLGEMM_TUNING_FILE': tuning, 'CLGEMM_EMULATE_MATRIX': '1'})
    try:
        row = json.loads(out)['results'][0]['rows'][0]
        copied = row['params'] if rc == 0 and row['status'] == 'ok' else 'FAILED'
    except (ValueError, KeyError, IndexError):
        copied = 'FAILED: ' + out + err

ok = 'WGN=128 STAGES=2' in params['3'] and 'STAGES=2' not in params['1']
print('%s a batch rule: a batch of 3 runs its kernel, a single GEMM does not %s' %
      ('ok  ' if ok else 'FAIL', '' if ok else repr(params)))
ok_next = 'mma.sync' in ran['NN'] and 'wgmma+tma' in ran['NT'] and 'PERSIST=1' in ran['NT']
print('%s the next class: an NN batch runs step 8, an NT batch the M <= 512 rule %s' %
      ('ok  ' if ok_next else 'FAIL', '' if ok_next else repr(ran)))
ok_copied = copied.startswith('BM=64 BN=64')
print('%s no kernel reads A in place: the tightest rule runs the batch, A copied first %s' %
      ('ok  ' if ok_copied else 'FAIL', '' if ok_copied else repr(copied)))
sys.exit(0 if ok and ok_next and ok_copied else 1)

#!/usr/bin/env python3
"""The clgemm binary under a tuning file (CLGEMM_TUNING_FILE): tuned parameters and auto's
pick, shape rules (small M, mirrored tall and narrow calls, 16-bit, the wide form) and batch
rules (by layout and height), each verified as it runs.  Part of the cli suite (test_cli.py
says which file checks what; test_cli_batch_rule.py, in the slow suite, a purpose name's batch
rule).  usage: test_cli_tuning.py PATH/TO/clgemm PATH/TO/cl"""
import json
import os
import tempfile

from cli_common import expect, finish, pocl_device_line, run


# The entries and rules below name the PoCL device as --list-devices does.
pocl_line = pocl_device_line()
pocl_name = pocl_line.split('|')[0].split(None, 3)[3].strip()

# A tuning file changes what runs: tuned parameters for a named algorithm, and auto's pick.
with tempfile.TemporaryDirectory() as tmp:
    tuning = os.path.join(tmp, 'tuning.json')
    entry = {'device': pocl_name, 'driver': 'any', 'algorithm': 'block_tiled', 'M': 64, 'N': 64,
             'K': 64, 'params': 'BM=32,BN=32,BK=8,TM=4,TN=4', 'gflops': 1e6}
    json.dump({'format': 'clgemm-tuning-1', 'entries': [entry]}, open(tuning, 'w'))
    rc, out, err = run('--device', 'pocl', '--algo', 'block_tiled', '--algo', 'auto', '--size',
                       '60x70x50', '--iters', '1', '--quiet', '--format', 'json',
                       env={'CLGEMM_TUNING_FILE': tuning})
    try:
        rows = {r['algorithm']: r for r in json.loads(out)['results'][0]['rows']}
        ok = (rc == 0 and rows['block_tiled']['params'].startswith('BM=32 BN=32 BK=8 TM=4 TN=4')
              and rows['auto']['note'].startswith(
                  'auto chose block_tiled:BM=32,BN=32,BK=8,TM=4,TN=4 (tuning entry of ')
              and rows['auto']['status'] == 'ok')
    except (ValueError, KeyError, IndexError) as exc:
        ok = False
        out += repr(exc)
    expect(ok, 'a tuning file sets parameters and auto follows it', out + err)

    # A shape rule (host/lib/shape_rule.h): auto runs its kernel for small M, splits K where
    # the blocks are few, says why, and leaves larger M to the default.
    rule = {'device': pocl_name, 'purpose': 'auto', 'dtype': 'f32', 'trans': 'NT', 'm_max': 4,
            'algorithm': 'skinny', 'params': 'BM=4,KT=8', 'split_per_cu': 1000,
            'split_kmin': 64, 'measured': '4x64x512'}
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rule]}, open(tuning, 'w'))
    notes = {}
    for size in ('3x70x300', '5x70x300'):
        rc, out, err = run('--device', 'pocl', '--algo', 'auto', '--size', size, '--trans', 'NT',
                           '--iters', '1', '--quiet', '--format', 'json', '--no-baseline',
                           env={'CLGEMM_TUNING_FILE': tuning})
        try:
            row = json.loads(out)['results'][0]['rows'][0]
            notes[size] = row['note'] if rc == 0 and row['status'] == 'ok' else 'FAILED'
        except (ValueError, KeyError, IndexError):
            notes[size] = 'FAILED: ' + out + err
    expect(notes['3x70x300'].startswith('auto chose skinny:WG=256,KT=8,RN=2,BM=4,UNROLL=4,'
                                        'SPLITK=4 (') and 'shape class M <= 4' in notes['3x70x300']
           and 'K in 4 slices' in notes['3x70x300'] and 'skinny' not in notes['5x70x300'],
           'a shape rule: auto runs its kernel and split for M <= 4, says why; not for M = 5',
           repr(notes))
    # A rule that splits by rounds of several groups per compute unit (groups_per_cu) says
    # so in its reason; the counts themselves are test_shape_rule.c's.
    rounds = dict(rule, m_max=16, params='BM=16,KT=16,RN=4,UNROLL=1,AL=512', split_per_cu=0,
                  split_slice_k=256, split_partial_k=160, split_kmin=512, groups_per_cu=2)
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rounds]}, open(tuning, 'w'))
    rc, out, err = run('--device', 'pocl', '--algo', 'auto', '--size', '16x100x4096', '--trans',
                       'NT', '--iters', '1', '--quiet', '--format', 'json', '--no-baseline',
                       env={'CLGEMM_TUNING_FILE': tuning})
    try:
        row = json.loads(out)['results'][0]['rows'][0]
        note = row['note'] if rc == 0 and row['status'] == 'ok' else 'FAILED ' + out + err
    except (ValueError, KeyError, IndexError):
        note = 'FAILED: ' + out + err
    expect('2 groups at once on each: K in' in note and 'SPLITK=' in note,
           'a rounds rule of two groups per compute unit splits and says so', note)
    # A malformed rule in the user's file is left out, and said so on stderr.
    bad = dict(rounds, groups_per_cu=1.5)
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rounds, bad]},
              open(tuning, 'w'))
    rc, out, err = run('--device', 'pocl', '--algo', 'naive', '--size', '8', '--iters', '1',
                       '--quiet', '--no-baseline', env={'CLGEMM_TUNING_FILE': tuning})
    expect(rc == 0 and 'ignored 1 malformed entry or rule' in err,
           'a malformed rule in a tuning file is reported, not silently dropped', out + err)
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rule]}, open(tuning, 'w'))

    # Mirrored: a tall, narrow C (N <= 4 here) takes the rule of C^T's shape, SWAP turned over
    # (C^T = op(B)^T op(A)^T, so the rule's B stored N x K is the call's A stored M x K), and
    # verifies; the same call stored column-major is C^T's shape itself, no mirror; T N has
    # neither (the rule names B stored N x K only).
    # (A bias per column of C runs along the kernel's rows in the swapped store.)
    epi = ('--epilogue', 'bias_gelu', '--out', 'bf16', '--beta', '0.5')
    for trans, layout, size, want, more in (('NN', 'row', '70x3x300', 'mirrored', ()),
                                            ('NT', 'row', '70x3x300', 'mirrored', ()),
                                            ('NT', 'row', '70x3x300', 'mirrored', epi),
                                            ('NN', 'col', '3x70x300', 'mirrored', ()),
                                            ('TN', 'col', '70x3x300', 'direct', ()),
                                            ('TN', 'row', '70x3x300', 'none', ())):
        rc, out, err = run('--device', 'pocl', '--algo', 'auto', '--size', size, '--trans', trans,
                           '--layout', layout, '--iters', '1', '--quiet', '--format', 'json',
                           '--no-baseline', *more, env={'CLGEMM_TUNING_FILE': tuning})
        try:
            row = json.loads(out)['results'][0]['rows'][0]
            note = row['note'] if rc == 0 and row['status'] == 'ok' else 'FAILED ' + out + err
        except (ValueError, KeyError, IndexError):
            note = 'FAILED: ' + out + err
        got = ('none' if 'skinny' not in note else
               'mirrored' if 'mirrored' in note and 'SWAP=1,SPLITK=4' in note else
               'direct' if 'SWAP' not in note and 'SPLITK=4' in note else note)
        expect(got == want, 'a tall, narrow %s %s %s call%s: rule %s (verified)' %
               (layout, trans, size, ' with ' + ' '.join(more) if more else '', want), note)
    # The same for a purpose name's 16-bit rule (step 10's 16-column tile, emulated): N T is
    # mirrored; N N is not (that tile reads no 16-bit B stored K x N: the plan refuses it
    # before any compiler runs, so nothing is printed on stderr) and runs the default.
    rule16 = {'device': pocl_name, 'purpose': 'tensor_core', 'dtype': 'bf16', 'trans': 'NT',
              'm_max': 16, 'algorithm': 'wgmma_tma',
              'params': 'BM=64,BN=16,WGN=16,STAGES=2,SWAP=1,INFLIGHT=1',
              'split_per_cu': 0, 'split_kmin': 0}
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rule, rule16]},
              open(tuning, 'w'))
    for trans, want in (('NT', True), ('NN', False)):
        rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--dtype', 'bf16', '--out',
                           'bf16', '--size', '130x16x64', '--trans', trans, '--iters', '1',
                           '--quiet', '--format', 'json', '--no-baseline',
                           env={'CLGEMM_TUNING_FILE': tuning, 'CLGEMM_EMULATE_MATRIX': '1'})
        try:
            row = json.loads(out)['results'][0]['rows'][0]
            ok = (rc == 0 and row['status'] == 'ok' and not err.strip() and
                  ('mirrored' in row['note'] and 'SWAP=0' in row['note']) == want)
        except (ValueError, KeyError, IndexError):
            ok = False
        expect(ok, 'a 16-bit tall, narrow %s call: %s' %
               (trans, 'mirrored' if want else 'the default, quietly'), out + err)
    # A rule's wide form (shape_rule_wide): unsplit rounds of the wider tile, each wide_round
    # of the rule's, against the rule's own tile; 64 blocks of 32 x 32 against 32 of 64 x 64
    # leave the wide form cheaper on up to 32 compute units at 1.25, never at 100.  With
    # "wide_split" the wide form takes the rule's split as well: K = 256 in 4 slices for both
    # tiles (split_kmin 64), 128 wide blocks against 256 narrow ones.
    def wide_note(size, **fields):
        """What auto chose (its note) for an N T call of this size under a wide-form rule."""
        rulew = {'device': pocl_name, 'purpose': 'auto', 'dtype': 'f32', 'trans': 'NT',
                 'm_max': 8, 'algorithm': 'block_tiled', 'params': 'BM=32,BN=32,BK=8,TM=4,TN=4',
                 'wide_params': 'BM=64,BN=64,BK=8,TM=4,TN=4', **fields}
        json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rulew]},
                  open(tuning, 'w'))
        rc, out, err = run('--device', 'pocl', '--algo', 'auto', '--size', size, '--trans',
                           'NT', '--iters', '1', '--quiet', '--format', 'json', '--no-baseline',
                           env={'CLGEMM_TUNING_FILE': tuning})
        try:
            row = json.loads(out)['results'][0]['rows'][0]
            return row['note'] if rc == 0 and row['status'] == 'ok' else 'FAILED ' + out + err
        except (ValueError, KeyError, IndexError):
            return 'FAILED: ' + out + err
    # "wide_min_per_cu": the wide form only where its blocks reach that many per compute
    # unit: 32 wide blocks are at least one per CU here (PoCL has fewer than 32), never 1000;
    # the reason then names the share it met.
    for fields, want, what, sign in (
            ({'wide_round': 1.25}, True, 'at wide_round 1.25', 'the wide form'),
            ({'wide_round': 100}, False, 'at wide_round 100', None),
            ({'wide_round': 1.25, 'wide_min_per_cu': 1}, True, 'from 1 block per CU',
             'at least the rule\'s 1.00'),
            ({'wide_round': 1.25, 'wide_min_per_cu': 1000}, False, 'from 1000 blocks per CU',
             None)):
        note = wide_note('8x2048x64', **fields)
        chose = note.split('(')[0]
        wide = 'BM=64,BN=64' in chose and sign is not None and sign in note
        narrow = 'BM=32,BN=32' in chose and 'the wide form' not in note
        expect((wide if want else narrow) and 'FAILED' not in note,
               'a rule\'s wide form %s: %s (verified)' % (what, 'taken' if want else 'not taken'),
               note)
    note = wide_note('8x2048x256', wide_round=1.25, split_per_cu=1000, split_kmin=64,
                     wide_split=True)
    chose = note.split('(')[0]
    expect('BM=64,BN=64' in chose and 'SPLITK=4' in chose and 'the wide form' in note,
           'a rule\'s wide form split as the rule splits (wide_split; verified)', note)
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rule, rule16]},
              open(tuning, 'w'))
    rc, out, err = run('--device', 'pocl', '--algo', 'list', env={'CLGEMM_TUNING_FILE': tuning})
    expect(rc == 0 and 'M <= 4     -> skinny:BM=4,KT=8, K split below' in out,
           '--algo list prints the device\'s shape rules', out)

    # A batch rule ("batch": true) picks what a purpose name runs for a strided batch alone;
    # here auto's fp32 one (auto resolves to a step before it sees the batch).  The same for
    # tensor_core's bf16 batches (step 10 emulated, a minute of cold builds) is
    # test_cli_batch_rule.py, in the slow suite.
    rule = {'device': pocl_name, 'purpose': 'auto', 'dtype': 'f32', 'trans': 'any',
            'm_max': 512, 'algorithm': 'warp_tiled',
            'params': 'BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16,CLAMP=1',
            'split_per_cu': 0, 'split_kmin': 0, 'batch': True}
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [rule]}, open(tuning, 'w'))
    params = {}
    # A's rows of 63 values (tight; B and C aligned) must be copied for the rule's kernel:
    # it still runs the batch, every problem's A copied in one launch first.
    for batch, size, pad in (('3', '100x130x64', []), ('1', '100x130x64', []),
                             ('tight', '100x128x63', ['--ld-pad', '0'])):
        rc, out, err = run('--device', 'pocl', '--algo', 'auto', '--size', size,
                           '--batch', '1' if batch == '1' else '3', *pad, '--iters', '1',
                           '--quiet', '--format', 'json', '--no-baseline',
                           env={'CLGEMM_TUNING_FILE': tuning})
        try:
            row = json.loads(out)['results'][0]['rows'][0]
            params[batch] = row['params'] if rc == 0 and row['status'] == 'ok' else 'FAILED'
        except (ValueError, KeyError, IndexError):
            params[batch] = 'FAILED: ' + out + err
    expect('WM=64' in params['3'] and 'CLAMP=1' in params['3'] and 'CLAMP=1' not in params['1'],
           'an auto batch rule: a batch of 3 runs its kernel, a single GEMM does not',
           repr(params))
    expect('WM=64' in params['tight'] and 'CLAMP=1' in params['tight'],
           'an auto batch rule: a tight batch (A copied first) runs its kernel too',
           repr(params))

    # A rule naming A's layout ("trans_a") serves that layout's batches ahead of the rule for
    # either; a batch of problems taller than every class, each too few 128 x 128 blocks to
    # fill the device, takes the loosest class's rule; one whose problems fill it on their own
    # keeps auto's choice for their size.
    cus = int(pocl_line.split(' CUs')[0].split('|')[-1].strip())
    either = dict(rule, m_max=64, params='BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16,CLAMP=1,'
                  'READT=1')
    for_t = dict(either, trans_a='T', params='BK=16,READT=1,PREFETCH=0,WM=64,WN=32')
    json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [either, for_t]},
              open(tuning, 'w'))
    # more blocks of 128 x 128 than compute units, and more than 4 GFLOP (BATCH_OWN_FLOPS)
    side = max(128 * (int(cus ** 0.5) + 1) + 1, 1024)
    cases = {'TN 40x24x32': ['PREFETCH=0'], 'NN 40x24x32': ['WN=16', 'CLAMP=1'],
             'NN 100x24x32': ['WN=16', 'CLAMP=1'], 'NN 300x300x32': ['WN=16', 'CLAMP=1'],
             'NN %dx%dx2048' % (side, side): None}
    for case, want in cases.items():
        trans, size = case.split()
        big = size.endswith('x2048')  # its result is not what this checks: no reference
        rc, out, err = run('--device', 'pocl', '--algo', 'auto', '--size', size, '--trans',
                           trans, '--batch', '2', '--iters', '1', '--warmup', '0', '--quiet',
                           '--format', 'json', '--no-baseline', *(['--no-check'] if big else []),
                           env={'CLGEMM_TUNING_FILE': tuning})
        try:
            row = json.loads(out)['results'][0]['rows'][0]
            got = row['params'] + ' | ' + row['note'] \
                if rc == 0 and row['status'] in ('ok', 'unchecked') else 'FAILED'
        except (ValueError, KeyError, IndexError):
            got = 'FAILED: ' + out + err
        ok = got != 'FAILED' and (all(w in got for w in want) if want else
                                  'CLAMP=1' not in got and 'PREFETCH=0' not in got)
        if case in ('NN 100x24x32', 'NN 300x300x32'):
            ok = ok and 'taller than every batch class' in got
        expect(ok, 'auto batch rules by layout and height: %s runs %s' %
               (case, ' '.join(want) if want else "auto's own choice"), got)

finish()

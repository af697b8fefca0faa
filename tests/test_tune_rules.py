#!/usr/bin/env python3
"""tools/tune_rules.py's fit of the split model (split_slice_k, split_partial_k) on times the
H100 measured: step 7 swapped (fp32 auto, B stored N x K) at nine shapes of M <= 512 with
several splits each (probes 169-171 in bench/results/2026-11-27_nvidia-h100/probes).  The
fitted model must name the fastest measured split at every shape, as must the constants
shipped in the rules (80, 72; tests/test_shape_rule.c checks the library's side, over every
count); a model that weighs nothing (0, 0) misses, so the check can fail.  And save() keeps a
replaced rule's wide form only where the new rule runs the same tile.
usage: test_tune_rules.py PATH/TO/tools"""
import json
import os
import sys
import tempfile

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else
                os.path.join(os.path.dirname(__file__), '..', 'tools'))
import tune_rules  # noqa: E402

CUS = 132
# (N, K) as the tuner keys shapes, the blocks of 128 x 128 the swapped kernel runs, and
# {slices: ms}; M in the name only.
MEASURED = [
    ('128x4096x4096', (4096, 4096), 32, {4: 0.1318, 8: 0.1367, 16: 0.1478}),
    ('128x6144x4096', (6144, 4096), 48, {4: 0.2399, 8: 0.1971, 16: 0.2143}),
    ('128x28672x4096', (28672, 4096), 224, {1: 0.7583, 2: 0.9068, 4: 0.8284}),
    ('256x4096x4096', (4096, 4096), 64, {1: 0.4246, 2: 0.2385, 4: 0.2440, 8: 0.2529}),
    ('512x4096x4096', (4096, 4096), 128, {1: 0.4326, 2: 0.4655, 4: 0.4756}),
    ('200x6144x4096', (6144, 4096), 96, {1: 0.4567, 2: 0.4677, 4: 0.3823}),
    ('384x28672x4096', (28672, 4096), 672, {1: 2.2144, 2: 2.4960, 4: 2.4466}),
    ('256x4096x14336', (4096, 14336), 64, {1: 1.4351, 2: 0.7424, 4: 0.7475}),
    ('512x5120x5120', (5120, 5120), 160, {1: 0.9281, 2: 0.8123, 4: 0.7012}),
]

failed = 0


def expect(ok, what):
    global failed
    print(('ok   ' if ok else 'FAIL ') + what)
    failed += not ok


per_shape = [{S: (t, blocks) for S, t in times.items()} for _, _, blocks, times in MEASURED]
shapes = [shape for _, shape, _, _ in MEASURED]
L, P = tune_rules.fit_split_model(per_shape, shapes, CUS)
expect(L > 0, 'the fit finds a model (slice_k %d, partial_k %d)' % (L, P))
for (name, (N, K), _, times), runs in zip(MEASURED, per_shape):
    fastest = min(times, key=times.get)
    fitted = tune_rules.rounds_choice(runs, K, CUS, L, P)
    shipped = tune_rules.rounds_choice(runs, K, CUS, 80, 72)
    expect(fitted == fastest and shipped == fastest,
           '%s: the fit and the shipped rule name %d and %d slices, the fastest %d' %
           (name, fitted, shipped, fastest))
misses = sum(tune_rules.rounds_choice(runs, K, CUS, 0, 0) != min(times, key=times.get)
             for (_, (N, K), _, times), runs in zip(MEASURED, per_shape))
expect(misses > 0, 'a model that weighs nothing misses %d shapes' % misses)
# The rest of K that a two-launch split leaves to a second launch (K = 1024 in 3 slices of
# multiples of 8: 1024 = 3 x 336 + 16) costs it SPLIT_UNEVEN_ROUNDS, as in the library's
# model: 44 blocks on 132 CUs fill them in 3 slices, which a split in one launch takes and a
# two-launch kernel leaves for the 2 that cut K evenly.
runs = {S: (1.0, 44) for S in (1, 2, 3, 4)}
two, one = (tune_rules.rounds_choice(runs, 1024, CUS, 0, 0, in_launch)
            for in_launch in (False, True))
expect(two == 2 and one == 3, 'an uneven cut costs a two-launch split only (%d and %d slices, '
       'want 2 and 3)' % (two, one))
# A class measured again keeps its rule's hand-measured wide form where the new rule runs the
# same tile, and drops it where the tile changed (tune_rules.keep_wide_form).
base = {'device': 'D', 'driver': '1', 'purpose': 'tensor_core', 'dtype': 'bf16', 'trans': 'any',
        'm_max': 128, 'algorithm': 'wgmma_tma', 'params': 'BM=64,BN=128'}
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, 'tuning.json')
    for params, kept in (('BM=64,BN=128', True), ('BM=64,BN=64', False)):
        was = dict(base, wide_params='BM=128,BN=128', wide_round=1.5, note='old')
        json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [was]}, open(path, 'w'))
        tune_rules.save(path, [dict(base, params=params)])
        got = json.load(open(path))['rules']
        ok = len(got) == 1 and (got[0].get('wide_params') == 'BM=128,BN=128' and
                                got[0].get('wide_round') == 1.5) == kept
        expect(ok, 'a re-tuned rule %s its wide form where its tile %s' %
               (('keeps', 'stays') if kept else ('drops', 'changed')))
print('%d checks, %d failed' % (len(MEASURED) + 5, failed))
sys.exit(1 if failed else 0)

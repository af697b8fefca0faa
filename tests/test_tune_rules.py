#!/usr/bin/env python3
"""tools/tune_rules.py's fit of the split model (split_slice_k, split_partial_k, groups_per_cu)
on times the H100 measured: step 7 swapped (fp32 auto, B stored N x K) at nine shapes of
M <= 512 with several splits each (probes 169-171 in bench/results/2026-11-27_nvidia-h100/
probes).  The fitted model must name the fastest measured split at every shape, as must the
constants shipped in the rules (80, 72; tests/test_shape_rule.c checks the library's side,
over every count); a model that weighs nothing (0, 0) misses, so the check can fail.  On step
11's fp32 M = 16 N T sweep (probe278 in bench/results/2026-11-28_nvidia-h100/probes), where
the kernel runs two groups per SM, the fit must count rounds of two and name the fastest
split at 12 of 13 shapes, where rounds of one group name it at no more than 8; on step 7's
M = 64 sweep (probe284), where 7 slices that leave a rest of K ran fastest, the fit must price
that rest below the default and lose less than any model at the default.  And save() keeps a
replaced rule's wide form only where the new rule runs the same tile, and its register cap only
where the new rule runs the same kernel and parameters.
usage: test_tune_rules.py PATH/TO/tools"""
import json
import math
import os
import sys
import tempfile

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else
                os.path.join(os.path.dirname(__file__), '..', 'tools'))
import split_model  # noqa: E402
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
L, P, G, R = split_model.fit_split_model(per_shape, shapes, CUS)
expect(L > 0 and G == 1, 'the fit finds a model (slice_k %d, partial_k %d, groups %d, rest %g)'
       % (L, P, G, R))
for (name, (N, K), _, times), runs in zip(MEASURED, per_shape):
    fastest = min(times, key=times.get)
    fitted = split_model.rounds_choice(runs, K, CUS, L, P, False, G, R)
    shipped = split_model.rounds_choice(runs, K, CUS, 80, 72)
    expect(fitted == fastest and shipped == fastest,
           '%s: the fit and the shipped rule name %d and %d slices, the fastest %d' %
           (name, fitted, shipped, fastest))
misses = sum(split_model.rounds_choice(runs, K, CUS, 0, 0) != min(times, key=times.get)
             for (_, (N, K), _, times), runs in zip(MEASURED, per_shape))
expect(misses > 0, 'a model that weighs nothing misses %d shapes' % misses)
# The rest of K that a two-launch split leaves to a second launch (K = 1024 in 3 slices of
# multiples of 8: 1024 = 3 x 336 + 16) costs it SPLIT_UNEVEN_ROUNDS, as in the library's
# model: 44 blocks on 132 CUs fill them in 3 slices, which a split in one launch takes and a
# two-launch kernel leaves for the 2 that cut K evenly.
runs = {S: (1.0, 44) for S in (1, 2, 3, 4)}
two, one = (split_model.rounds_choice(runs, 1024, CUS, 0, 0, in_launch)
            for in_launch in (False, True))
expect(two == 2 and one == 3, 'an uneven cut costs a two-launch split only (%d and %d slices, '
       'want 2 and 3)' % (two, one))
# Step 11 at M = 16, B stored N x K (WG=256,KT=16,RN=4,UNROLL=1,AL=512: blocks of 64 columns),
# every split 1..16, ms (probe278, the faster of two rounds): two groups run per SM.
SKINNY = [
    ((2048, 4096), {1: 64.77, 2: 38.14, 3: 28.93, 4: 23.30, 5: 26.37, 6: 25.22, 8: 21.76,
                    10: 33.79, 12: 33.54, 16: 29.70}),
    ((3072, 4096), {1: 73.98, 2: 45.82, 3: 43.90, 4: 36.10, 5: 33.79, 6: 48.51, 8: 41.73,
                    10: 42.50, 12: 50.94, 16: 46.59}),
    ((4096, 4096), {1: 74.50, 2: 47.62, 3: 45.31, 4: 39.30, 5: 55.55, 6: 53.25, 8: 46.08,
                    10: 57.60, 12: 57.34, 16: 58.88}),
    ((5120, 4096), {1: 75.78, 2: 57.60, 3: 48.38, 4: 63.74, 5: 58.37, 6: 56.58, 8: 61.06,
                    10: 69.89, 12: 71.17, 16: 70.91}),
    ((6144, 4096), {1: 76.80, 2: 59.14, 3: 76.42, 4: 66.05, 5: 61.82, 6: 76.54, 8: 65.02,
                    10: 77.06, 12: 84.48, 16: 82.56}),
    ((8192, 4096), {1: 80.00, 2: 65.02, 3: 85.25, 4: 71.68, 5: 86.02, 6: 82.18, 8: 82.43,
                    10: 93.95, 12: 102.40, 16: 104.45}),
    ((11008, 4096), {1: 98.56, 2: 111.36, 3: 92.42, 4: 98.05, 5: 110.85, 6: 105.98, 8: 113.66,
                     10: 124.42, 12: 131.07, 16: 135.68}),
    ((14336, 4096), {1: 104.96, 2: 115.71, 3: 127.23, 4: 127.23, 5: 136.96, 6: 144.13,
                     8: 135.42, 10: 157.70, 12: 170.75, 16: 168.58}),
    ((28672, 4096), {1: 203.78, 2: 222.72, 3: 245.63, 4: 225.28, 5: 247.30, 6: 263.81,
                     8: 262.14, 10: 296.83, 12: 324.99, 16: 322.56}),
    ((2048, 14336), {1: 242.69, 2: 132.86, 3: 98.56, 4: 77.57, 5: 79.36, 6: 71.17, 8: 60.93,
                     10: 89.09, 12: 82.69, 16: 72.45}),
    ((4096, 14336), {1: 245.50, 2: 141.31, 3: 128.26, 4: 104.96, 5: 141.31, 6: 137.73,
                     8: 113.15, 10: 135.68, 12: 126.72, 16: 129.54}),
    ((6144, 14336), {1: 252.67, 2: 179.20, 3: 221.44, 4: 188.03, 5: 168.19, 6: 190.85,
                     8: 164.61, 10: 183.55, 12: 195.58, 16: 187.52}),
    ((11008, 14336), {1: 329.34, 2: 318.46, 3: 277.76, 4: 287.23, 5: 302.34, 6: 287.49,
                      8: 296.19, 10: 311.30, 12: 313.98, 16: 320.90}),
]
sk_runs = [{S: (t, (N + 63) // 64) for S, t in times.items()} for (N, K), times in SKINNY]
sk_shapes = [shape for shape, _ in SKINNY]
L, P, G, _ = split_model.fit_split_model(sk_runs, sk_shapes, CUS, in_launch=True)


def hits(groups, slice_k, partial_k):
    return sum(split_model.rounds_choice(runs, K, CUS, slice_k, partial_k, True, groups) ==
               min(times, key=times.get) for ((N, K), times), runs in zip(SKINNY, sk_runs))


one = max(hits(1, l, p) for l in range(0, 513, 32) for p in split_model.FIT_PARTIAL_K[::4])
expect(G == 2 and hits(G, L, P) >= 12 and one <= 8,
       'step 11 at M = 16: rounds of %d groups per CU (slice_k %d, partial_k %d) name the '
       'fastest split at %d of 13 shapes; rounds of one at most %d' % (G, L, P, hits(G, L, P), one))
# Step 7 at 16 < M <= 64 (64-row blocks, the slices' sum a second launch), splits 2 to 32,
# ms (probe284 in bench/results/2026-11-28_nvidia-h100/probes, the faster of two rounds):
# 7 slices, which leave a rest of K at K = 4096 and 8192, ran fastest at 10 of 12 shapes.
STEP7 = [
    ('NN', (9216, 14336), 48, {2: 764.3, 4: 767.5, 7: 449.3, 8: 585.5, 12: 537.3, 16: 501.9,
                               24: 493.3, 28: 479.7, 32: 479.0}),
    ('NN', (4096, 14336), 64, {2: 419.1, 4: 217.2, 7: 229.9, 8: 202.9, 12: 221.4, 16: 211.5,
                               24: 232.7, 28: 227.3, 32: 230.7}),
    ('NN', (7168, 4096), 64, {2: 130.3, 4: 123.1, 7: 122.4, 8: 128.0, 12: 140.8, 16: 127.9,
                              24: 157.7, 28: 153.9, 32: 151.9}),
    ('NN', (9216, 8192), 64, {2: 442.1, 4: 347.3, 7: 272.0, 8: 295.4, 12: 292.1, 16: 280.1,
                              24: 309.5, 28: 311.3, 32: 303.4}),
    ('NN', (18944, 4096), 64, {2: 343.8, 4: 292.9, 7: 289.5, 8: 301.6, 12: 311.2, 16: 305.4,
                               24: 359.7, 28: 358.9, 32: 358.7}),
    ('NN', (18944, 14336), 64, {2: 1161.7, 4: 963.2, 7: 886.5, 8: 962.2, 12: 937.9,
                                16: 903.9, 24: 947.8, 28: 951.4, 32: 951.2}),
    ('NT', (9216, 14336), 48, {2: 953.9, 4: 671.0, 7: 504.1, 8: 770.0, 12: 601.0, 16: 613.2,
                               24: 581.4, 28: 528.8, 32: 546.0}),
    ('NT', (4096, 14336), 64, {2: 615.8, 4: 327.4, 7: 258.3, 8: 230.8, 12: 228.5, 16: 219.8,
                               24: 269.4, 28: 256.6, 32: 234.5}),
    ('NT', (7168, 4096), 64, {2: 192.6, 4: 139.8, 7: 123.9, 8: 132.2, 12: 149.5, 16: 139.6,
                              24: 155.6, 28: 154.2, 32: 156.5}),
    ('NT', (9216, 8192), 64, {2: 496.5, 4: 365.2, 7: 284.7, 8: 333.6, 12: 333.6, 16: 315.5,
                              24: 319.5, 28: 318.5, 32: 306.9}),
    ('NT', (18944, 4096), 64, {2: 363.5, 4: 334.8, 7: 297.0, 8: 316.4, 12: 318.8, 16: 316.8,
                               24: 345.3, 28: 351.5, 32: 347.5}),
    ('NT', (18944, 14336), 64, {2: 1195.0, 4: 1081.7, 7: 916.1, 8: 1002.6, 12: 964.2,
                                16: 925.1, 24: 952.3, 28: 955.1, 32: 949.9}),
]
st_runs = [{S: (t, (N + 127) // 128) for S, t in times.items()} for _, (N, K), _, times in STEP7]
st_shapes = [shape for _, shape, _, _ in STEP7]


def st_loss(L, P, G, R):
    return sum(math.log(runs[split_model.rounds_choice(runs, K, CUS, L, P, False, G, R)][0] /
                        min(t for t, _ in runs.values()))
               for runs, (N, K) in zip(st_runs, st_shapes))


fit = split_model.fit_split_model(st_runs, st_shapes, CUS)
fixed = min(st_loss(L, P, G, split_model.SPLIT_UNEVEN_ROUNDS) for G in split_model.FIT_GROUPS
            for P in split_model.FIT_PARTIAL_K[::2] for L in range(0, 513, 32))
expect(fit[0] > 0 and fit[3] < split_model.SPLIT_UNEVEN_ROUNDS and
       st_loss(*fit) < fixed - 0.1,
       'step 7 at M = 64: the fit prices a rest of K at %g (slice_k %d, partial_k %d, groups '
       '%d), %.1f%% behind the fastest against %.1f%% at the default 0.4' % (
           fit[3], fit[0], fit[1], fit[2], 100 * (math.exp(st_loss(*fit) / 12) - 1),
           100 * (math.exp(fixed / 12) - 1)))
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
# ... and its register cap (MAXNREG, probes 286-287) where the kernel and its parameters stay,
# dropping it where they changed (tune_rules.keep_register_cap).
base = dict(base, algorithm='skinny', purpose='tensor_core', dtype='f16', trans='NN', m_max=1)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, 'tuning.json')
    for params, kept in (('WG=512,KT=64,BM=1', True), ('WG=256,KT=64,BM=1', False)):
        was = dict(base, params='WG=512,KT=64,BM=1,MAXNREG=32', note='old')
        json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': [was]}, open(path, 'w'))
        tune_rules.save(path, [dict(base, params=params)])
        got = json.load(open(path))['rules']
        ok = len(got) == 1 and got[0]['params'] == (params + ',MAXNREG=32' if kept else params)
        expect(ok, 'a re-tuned rule %s its register cap where its kernel %s' %
               (('keeps', 'stays') if kept else ('drops', 'changed')))
print('%d checks, %d failed' % (len(MEASURED) + 9, failed))
sys.exit(1 if failed else 0)

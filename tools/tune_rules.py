#!/usr/bin/env python3
"""Measure the shape rule (host/lib/shape_rule.h) on one device: for each purpose (fp32 auto,
tensor_core on fp32, f16 and bf16 data, tensor_core_tf32x3), layout of B and class of M, the
kernel, parameters and split that run fastest, written as "rules" into a tuning database.

Each class is measured at a few (N, K) of its own (not the shapes it will serve) with every
candidate and every split count S (1, 2, 4, 8, 16, with K / S >= 128); each run is verified by
clgemm and a wrong one is dropped.  A candidate's score is the geometric mean over the shapes
of its best time; the winner's split becomes split_per_cu = the geometric mean over the shapes
where it split of S x (its blocks of C) / (compute units), so that the rule scales the split
to other N and M, and split_kmin the shortest slice K / S that paid off (a split must win by
5%), so that a shorter K is not cut; where the rounds model names the fastest splits, its
constants instead (split_slice_k, split_partial_k where the partial products' traffic
must be weighed, groups_per_cu where the kernel runs several groups per CU at once:
fit_split_model).  A rule's wide form (wide_params, measured by hand against the rule's
tile) survives a new measurement of its class where the tile stays the same
(keep_wide_form), as is a register cap (keep_register_cap).  Run by tools/tune.py --rules.

usage: tools/tune_rules.py [--clgemm build/clgemm] [--device SPEC] [--out FILE]
                           [--purposes auto,tensor_core,...] [--time-limit S]
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

from split_model import SPLIT_IN_LAUNCH, SPLIT_UNEVEN_ROUNDS, fit_split_model

# (class upper bound m_max, the M it is measured at); beyond the last, the default choice.
CLASSES = [(1, 1), (4, 4), (16, 16), (32, 32), (64, 64), (128, 128), (256, 256), (512, 512)]
SHAPES_SMALL_M = [(4096, 4096), (16384, 4096), (4096, 16384)]
# 6144 = 48 blocks of 128: no split fills 132 units in one round (where the rounds model of
# split_slice_k and the blocks-per-CU one part)
SHAPES = [(4096, 4096), (16384, 4096), (6144, 4096)]
SPLITS = [1, 2, 4, 8, 16]
KSLICE_MIN = 128
ALGOS_PER_RUN = 48  # clgemm takes at most 48 --algo per process

SKINNY = {  # per class: step 11's parameter sets worth trying (B stored N x K / K x N)
    'NT': ['WG=256,KT=128,RN=4,UNROLL=2', 'WG=256,KT=64,RN=2,UNROLL=4',
           'WG=256,KT=32,RN=1,UNROLL=8', 'WG=256,KT=32,RN=8,UNROLL=1',
           'WG=128,KT=32,RN=4,UNROLL=2', 'WG=256,KT=8,RN=2,UNROLL=2,AL=512',
           'WG=256,KT=16,RN=4,UNROLL=1,AL=512'],
    'NN': ['WG=512,KT=64,UNROLL=2', 'WG=256,KT=128,UNROLL=4', 'WG=256,KT=64,UNROLL=2',
           'WG=128,KT=32,UNROLL=1', 'WG=256,KT=32,UNROLL=1', 'WG=512,KT=32,UNROLL=2,AL=512'],
}

# purpose -> (clgemm --dtype, dtype of the rule, bases: (algorithm, params, splittable))
PURPOSES = {
    'auto': ('f32', 'f32', [('warp_tiled', '', True),
                            ('warp_tiled', 'BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16,CLAMP=1',
                             True)]),
    'tensor_core': None,  # one entry per element type, below
    'tensor_core_tf32x3': ('f32', 'f32', [('wgmma_tma', 'BN=128,WGN=128,STAGES=3,SPLIT=1,'
                                           'PROMOTE=2', True),
                                          ('wgmma_tma', 'BM=64,BN=128,WGN=128,STAGES=4,SPLIT=1,'
                                           'PROMOTE=2', True), ('mma', 'SPLIT=1', True),
                                          # what tensor_core_tf32x3 runs beyond the rules:
                                          # A split in registers, the producer's registers
                                          ('wgmma_tma', 'BN=128,WGN=128,STAGES=3,SPLIT=1,'
                                           'PROMOTE=2,PACKA=3,SETMAXNREG=1', True),
                                          # the weight split in registers, swapped (no hi/lo
                                          # pass over W: probe95), 128 and 64 rows of W per
                                          # tile, 128 or 16 columns of X
                                          ('wgmma_tma', 'BM=128,BN=128,WGN=128,STAGES=4,'
                                           'SWAP=1,SPLIT=1,PACKA=3', True),
                                          ('wgmma_tma', 'BM=64,BN=16,WGN=16,STAGES=8,'
                                           'SWAP=1,SPLIT=1,PACKA=3', True),
                                          # fp32 step 7 and 11 (more accurate than tf32x3)
                                          ('warp_tiled', 'READT=1', True)]),
}
# tensor_core per element type: step 10's default and narrower tiles (more blocks of C where M
# is small; the stages fill what the wider tile's ring held), each splittable, and step 8.
# Slices are 128-byte rows either way (BK 64 16-bit values, 32 TF32 values).
TENSOR = {
    'bf16': [('wgmma_tma', '', True), ('wgmma_tma', 'BM=128,BN=128,WGN=128,STAGES=4', True),
             ('wgmma_tma', 'BM=64,BN=128,WGN=128,STAGES=6', True),
             ('wgmma_tma', 'BM=64,BN=64,WGN=64,STAGES=8', True), ('mma', '', True)],
    'f32': [('wgmma_tma', '', True), ('wgmma_tma', 'BM=128,BN=128,WGN=128,STAGES=5', True),
            ('wgmma_tma', 'BM=64,BN=128,WGN=128,STAGES=6', True),
            ('wgmma_tma', 'BM=64,BN=64,WGN=64,STAGES=8', True), ('mma', '', True)]
    # TF32 without the pre-pass where the operands lie K-major (rounded in local memory):
    # at small M the pre-pass's pass over all of B costs more than the GEMM.
    + [('wgmma_tma', t + ',PACKA=2,PACKB=2', True) for t in
       ('BM=128,BN=128,WGN=128,STAGES=5', 'BM=64,BN=128,WGN=128,STAGES=6',
        'BM=64,BN=64,WGN=64,STAGES=8')]
    # One operand rounded in registers, the other pre-passed: what tensor_core runs beyond
    # the rules on the wide tile (with the producer's registers, swapped where N > M), and
    # the swapped 128 x 128 form that won M = 512 in four widths (probes 163 and 167 in
    # bench/results/2026-11-27_nvidia-h100/probes)
    + [('wgmma_tma', 'PACKA=3,SETMAXNREG=1', True),
       ('wgmma_tma', 'SWAP=1,PACKA=3,SETMAXNREG=1', True),
       ('wgmma_tma', 'BM=128,BN=128,WGN=128,STAGES=5,SWAP=1,PACKA=3,PACKB=1', True)],
}
TENSOR['f16'] = TENSOR['bf16']


def swapped(M, dtype):
    """Step 10 on the swapped problem (SWAP=1: C^T = B^T A^T), where the small M becomes
    wgmma's N: a tile BN (8 .. 128) just wider than M, so that no row of a wgmma is padding
    and the long N runs down the tile's 64-row side; as many stages as ~200 KiB holds."""
    bn = next((b for b in (8, 16, 32, 64, 128) if M <= b), None)
    if bn is None:
        return []
    # TF32 rounds both operands in local memory (read in place), by the consumers or by a
    # rounding warpgroup with the weight rounded in registers; 16-bit lets one slice's
    # wgmmas run while the next is waited for (TF32's default already does)
    tails = [',PACKA=2,PACKB=2', ',PACKA=3,PACKB=2,ROUNDER=1'] if dtype == 'f32' else [',INFLIGHT=1']
    return [('wgmma_tma', 'BM=%d,BN=%d,WGN=%d,STAGES=%d,SWAP=1%s' % (
        bm, bn, bn, min(16, 200 * 1024 // ((bm + bn) * 128)), tail), True)
        for bm in (64, 128) for tail in tails]


def bn_of(algo, params, trans, dtype):
    """The columns of C per work-group, as plan.c derives them."""
    p = dict(kv.split('=') for kv in params.split(',') if kv)
    if algo == 'skinny':
        wg, kt = int(p.get('WG', 256)), int(p.get('KT', 32))
        own = int(p.get('RN', 2)) if trans == 'NT' else (4 if dtype == 'f32' else 8)
        return wg // kt * own, int(p.get('BM', 1))
    defaults = {'warp_tiled': (128, 128), 'mma': (128, 128), 'wgmma_tma': (256, 128)}
    bn, bm = defaults.get(algo, (128, 128))
    return int(p.get('BN', bn)), int(p.get('BM', bm))


def tiles_of(algo, params, trans, dtype, M, N):
    """The blocks of C a call of M x N launches (the swapped problem's are N x M)."""
    bn, bm = bn_of(algo, params, trans, dtype)
    if 'SWAP=1' in params.split(','):
        M, N = N, M
    return math.ceil(M / bm) * math.ceil(N / bn)


def run_clgemm(args, size, trans, extra, algos, tuning=os.devnull, who='tune_rules'):
    """The first result of one clgemm run on args.device (args.clgemm, args.iters), its
    options extra and algorithms algos, under the tuning file tuning (by default none: what
    is measured is the kernels, not the rules); None where it failed, said on stderr."""
    cmd = [args.clgemm, '--device', args.device, '--size', size, '--trans', trans,
           '--format', 'json', '--quiet', '--iters', str(args.iters), '--warmup', '2',
           '--no-baseline'] + list(extra)
    for a in algos:
        cmd += ['--algo', a]
    env = dict(os.environ, CLGEMM_TUNING_FILE=tuning) if tuning else dict(os.environ)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    try:
        return json.loads(p.stdout)['results'][0]
    except (ValueError, KeyError, IndexError):
        sys.stderr.write('%s: clgemm failed (exit %d): %s\n' % (who, p.returncode,
                                                                p.stderr[-400:]))
        return None


def compute_units(args, device):
    """The device's compute units, from its line of clgemm --list-devices (1 where none)."""
    listing = subprocess.run([args.clgemm, '--list-devices'], capture_output=True, text=True)
    line = next((l for l in listing.stdout.splitlines() if device in l), '')
    m = re.search(r'(\d+) CUs', line)
    return int(m.group(1)) if m else 1


def run(args, size, trans, dtype, algos):
    res = run_clgemm(args, size, trans, ['--dtype', dtype], algos)
    if res is None:
        return None, {}
    return res, {r['algorithm']: r['ms_min'] for r in res['rows']
                 if r['status'] == 'ok' and r.get('ms_min')}


def join(*parts):
    return ','.join(p for p in parts if p)


def tune_class(args, purpose, cdtype, rdtype, bases, trans, m_max, M, cus):
    cands = list(bases)
    if purpose == 'tensor_core':
        cands += swapped(M, rdtype)
    if M <= 16:
        cands += [('skinny', join(p, 'BM=%d' % M), True) for p in SKINNY[trans]]
    shapes = SHAPES_SMALL_M if M <= 16 else SHAPES
    times = {}  # (algo, params, N, K) -> (best ms, S, tiles)
    every = {}  # (algo, params, N, K) -> {S: (ms, tiles)}
    for N, K in shapes:
        algos, what = [], {}
        for algo, params, splittable in cands:
            for S in SPLITS if splittable else [1]:
                if S > 1 and K // S < KSLICE_MIN:
                    continue
                extra = join(params, 'SPLITK=%d' % S if S > 1 else '')
                name = '%s:%s' % (algo, extra) if extra else algo
                algos.append(name)
                what[name] = (algo, params, S)
        res, ms = None, {}
        for at in range(0, len(algos), ALGOS_PER_RUN):
            part, part_ms = run(args, '%dx%dx%d' % (M, N, K), trans, cdtype,
                                algos[at:at + ALGOS_PER_RUN])
            res = res or part
            ms.update(part_ms)
        for name, t in ms.items():
            algo, params, S = what[name]
            tiles = tiles_of(algo, params, trans, rdtype, M, N)
            every.setdefault((algo, params, N, K), {})[S] = (t, tiles)
            best = times.setdefault((algo, params, N, K), (t, S, tiles))
            # a split must beat what it replaces by 5%: it costs a second kernel and a
            # pass over partial sums that the timing of one shape hardly separates from noise
            if t < best[0] * (0.95 if S > best[1] else 1.0 / 0.95 if S < best[1] else 1.0):
                times[(algo, params, N, K)] = (t, S, tiles)
        if res is None:
            return None, res
    scored = []
    for algo, params, _ in cands:
        per = [times.get((algo, params, N, K)) for N, K in shapes]
        if any(p is None for p in per):
            continue
        score = math.exp(sum(math.log(p[0]) for p in per) / len(per))
        splits = [p[1] * p[2] / cus for p in per if p[1] > 1]
        per_cu = math.exp(sum(map(math.log, splits)) / len(splits)) if splits else 0
        # the shortest slice that paid off: shorter K is not split (at K = 4096 a split
        # that won at K = 16384 can cost more than it gains)
        kmin = min((K // p[1] for (N, K), p in zip(shapes, per) if p[1] > 1), default=0)
        scored.append((score, algo, params, per_cu, per, kmin))
    if not scored:
        return None, None
    scored.sort()
    score, algo, params, per_cu, per, kmin = scored[0]
    if (algo, params) == bases[0][:2] and not per_cu:
        return None, scored  # the purpose's own first choice, unsplit: no rule needed
    slice_k, partial_k, groups, rest = (
        fit_split_model([every[(algo, params, N, K)] for N, K in shapes], shapes, cus,
                        algo in SPLIT_IN_LAUNCH) if per_cu else (0, 0, 1, SPLIT_UNEVEN_ROUNDS))
    N, K = shapes[0]
    e = 4 if rdtype == 'f32' else 2
    gbps = ((M * K + K * N) * e + M * N * 4) / (per[0][0] * 1e-3) / 1e9
    return {'purpose': purpose, 'dtype': rdtype, 'trans': trans if M <= 16 else 'any',
            'm_max': m_max, 'algorithm': algo, 'params': params,
            'split_per_cu': round(per_cu, 4), 'split_kmin': max(KSLICE_MIN, kmin) if per_cu else 0,
            **({'split_slice_k': slice_k, 'split_kmin': KSLICE_MIN} if slice_k else {}),
            **({'split_partial_k': partial_k} if slice_k and partial_k else {}),
            **({'groups_per_cu': groups} if slice_k and groups > 1 else {}),
            **({'split_rest': rest} if slice_k and rest != SPLIT_UNEVEN_ROUNDS else {}),
            'measured': '%dx%dx%d' % (M, N, K), 'ms': round(per[0][0], 5),
            'gbps': round(gbps, 1)}, scored


WIDE_FIELDS = ('wide_params', 'wide_round', 'wide_split', 'wide_min_per_cu')


def keep_wide_form(was, rule):
    """A rule's wide form (wide_params, wide_round, wide_split, wide_min_per_cu) is measured by
    hand against the rule's own tile (probes 181-188, 208-222 in bench/results/2026-11-27_*,
    probes 257-258 in 2026-11-28_nvidia-h100): the tuner does not
    produce one.  A class measured again keeps it where the new rule runs the same tile, and
    drops it, saying so, where the tile changed and the comparison no longer holds."""
    if not was or not was.get('wide_params') or rule.get('wide_params'):
        return
    if was.get('params') == rule.get('params'):
        for field in WIDE_FIELDS:
            if field in was:
                rule[field] = was[field]
        kept = ('wide form (%s, wide_round %g) kept from the rule this one replaces, which ran '
                'the same tile' % (was['wide_params'], was.get('wide_round', 0)))
        rule['note'] = rule['note'] + '  ' + kept if rule.get('note') else kept
    else:
        sys.stderr.write('tune_rules: %s %s M <= %d: the tile changed (%s -> %s), so the wide '
                         'form %s measured against the old one is dropped\n' %
                         (rule['purpose'], rule['dtype'], rule['m_max'], was.get('params'),
                          rule.get('params'), was['wide_params']))


def keep_register_cap(was, rule):
    """A register cap in a rule's parameters (MAXNREG=N) is measured by hand against the same
    kernel uncapped (probes 286-287 in bench/results/2026-11-28_nvidia-h200: f16 step 11 at
    38 registers held three groups per SM, capped at 32 four), and the tuner's sweep does not
    try one.  A class measured again keeps the cap where the new rule runs the same kernel
    with the same parameters, and drops it, saying so, where they changed."""
    caps = [p for p in ((was or {}).get('params') or '').split(',') if p.startswith('MAXNREG=')]
    if not caps or 'MAXNREG=' in (rule.get('params') or ''):
        return
    bare = ','.join(p for p in was['params'].split(',') if not p.startswith('MAXNREG='))
    if was.get('algorithm') == rule.get('algorithm') and bare == rule.get('params'):
        rule['params'] = join(rule['params'], caps[0])
        kept = '%s kept from the rule this one replaces, which ran the same kernel' % caps[0]
        rule['note'] = rule['note'] + '  ' + kept if rule.get('note') else kept
    else:
        sys.stderr.write('tune_rules: %s %s M <= %d: the kernel changed (%s:%s -> %s:%s), so '
                         'the register cap %s measured on the old one is dropped\n' %
                         (rule['purpose'], rule['dtype'], rule['m_max'], was.get('algorithm'),
                          was.get('params'), rule.get('algorithm'), rule.get('params'),
                          caps[0]))


def save(out, rules, measured=()):
    """Merges the rules into the database at out: a class measured again replaces its rule,
    or drops it where the default choice won this time (measured: keys of the classes run)."""
    doc = {'format': 'clgemm-tuning-1', 'entries': [], 'rules': []}
    if out and os.path.exists(out):
        try:
            doc = json.load(open(out))
        except ValueError:
            pass
    # A rule naming A's layout (trans_a) or serving batches alone is a class of its own, which
    # the tuner's classes (neither) must not replace.
    key = lambda r: (r['device'], r.get('driver'), r['purpose'], r['dtype'], r['trans'],
                     r.get('trans_a'), r.get('batch', False), r['m_max'])
    new = {key(r) for r in rules} | set(measured)
    old = {key(r): r for r in doc.get('rules', [])}
    for r in rules:
        keep_wide_form(old.get(key(r)), r)
        keep_register_cap(old.get(key(r)), r)
    doc['rules'] = [r for r in doc.get('rules', []) if key(r) not in new] + rules
    doc.setdefault('entries', [])
    if out:
        with open(out, 'w') as f:
            json.dump(doc, f, indent=1)
            f.write('\n')


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--clgemm', default='build/clgemm')
    ap.add_argument('--device', default='')
    ap.add_argument('--out', default='')
    ap.add_argument('--purposes', default='tensor_core:bf16,auto,tensor_core:f32,'
                    'tensor_core_tf32x3,tensor_core:f16',
                    help='in this order; tensor_core:DT for one element type')
    ap.add_argument('--classes', default='', help='m_max values to measure (default: all)')
    ap.add_argument('--iters', type=int, default=10)
    ap.add_argument('--time-limit', type=float, default=0)
    args = ap.parse_args(argv)
    started = time.time()
    cus = 0
    rules, measured, device, driver = [], [], None, None
    jobs = []
    for purpose in args.purposes.split(','):
        if purpose.startswith('tensor_core') and purpose.split(':')[0] == 'tensor_core':
            for dt in purpose.split(':')[1:] or ('f32', 'bf16', 'f16'):
                jobs.append(('tensor_core', dt, dt, TENSOR[dt]))
        else:
            cdtype, rdtype, bases = PURPOSES[purpose]
            jobs.append((purpose, cdtype, rdtype, bases))
    classes = [c for c in CLASSES
               if not args.classes or str(c[0]) in args.classes.split(',')]
    for purpose, cdtype, rdtype, bases in jobs:
        for m_max, M in classes:
            for trans in (('NT', 'NN') if M <= 16 else ('NT',)):
                if args.time_limit and time.time() - started > args.time_limit:
                    sys.stderr.write('tune_rules: time limit reached\n')
                    break
                if not cus:  # the device's compute units, from its --list-devices line
                    res, _ = run(args, '8x8x8', 'NN', 'f32', ['naive'])
                    if res is None:
                        return 1
                    device, driver = res['device'], res['driver']
                    cus = compute_units(args, device)
                rule, scored = tune_class(args, purpose, cdtype, rdtype, bases, trans, m_max, M,
                                          cus)
                if scored:
                    measured.append((device, driver, purpose, rdtype,
                                     trans if M <= 16 else 'any', m_max))
                if not rule:
                    if scored:
                        print('%-18s %-4s %-3s M<=%-4d the default (%s) wins: no rule' % (
                            purpose, rdtype, trans, m_max, scored[0][1]))
                        save(args.out, rules, measured)
                    continue
                rule = dict(rule, device=device, driver=driver, date=time.strftime('%Y-%m-%d'))
                rules.append(rule)
                print('%-18s %-4s %-3s M<=%-4d %s:%s split/CU %.2f slice_k %d partial_k %d  '
                      '%.4f ms (%s), next: %s' % (
                    purpose, rdtype, rule['trans'], m_max, rule['algorithm'], rule['params'],
                    rule['split_per_cu'], rule.get('split_slice_k', 0),
                    rule.get('split_partial_k', 0), rule['ms'],
                    rule['measured'],
                    '; '.join('%s:%s %.4f' % (s[1], s[2], s[4][0][0]) for s in scored[1:3])))
                sys.stdout.flush()
                save(args.out, rules, measured)  # after each class: a run cut short keeps what it found
    sys.stderr.write('tune_rules: %d rules in %.0f s\n' % (len(rules), time.time() - started))
    return 0 if rules else 1


if __name__ == '__main__':
    sys.exit(main())

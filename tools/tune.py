#!/usr/bin/env python3
"""Search the tile parameters of clgemm's tunable kernels on one device and write the winners
to a tuning database (see tuning/README.md).

Each kernel's space is a set of value lists and constraints (the ones its #error lines
enforce, plus resource limits), so only launchable candidates are tried.  Every candidate is
run by clgemm itself: verified against the reference (a wrong one is dropped, never timed
into the database) and timed on the device against CLBlast in the same process.

usage: tools/tune.py [--clgemm build/clgemm] [--device SPEC] [--sizes 1024,4096]
                     [--algos warp_tiled,block_tiled_vectorized] [--out FILE] [--quick]
       tools/tune.py --rules [tools/tune_rules.py's options]
Progress goes to stderr; the database is merged into --out (default: the user's file).
With --rules it measures the shape rule instead (what auto and the purpose names run per
class of shapes: tools/tune_rules.py, host/lib/shape_rule.h).
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import time

LOCAL_MEM = 48 * 1024  # the smallest local memory among the GPUs we target (NVIDIA)


def block_tiled_space(quick, vectorized):
    for BM, BN, BK, TM, TN in itertools.product([32, 64, 128, 256], [32, 64, 128, 256],
                                                [8, 16, 32], [4, 8], [4, 8]):
        threads = (BM // TM) * (BN // TN)
        if not 64 <= threads <= 256 or BM % TM or BN % TN:
            continue
        vec = 4 if vectorized else 1
        if (BM * BK // vec) % threads or (BK * BN // vec) % threads:
            continue
        if (BM + 4 + BN) * BK * 4 > LOCAL_MEM:
            continue
        if quick and (BK == 32 or (BM, BN) in [(32, 32), (256, 256), (32, 256), (256, 32)]):
            continue
        p = 'BM=%d,BN=%d,BK=%d,TM=%d,TN=%d' % (BM, BN, BK, TM, TN)
        yield p + (',VEC=4' if vectorized else '')


def warp_tiled_space(quick):
    for BM, BN, BK, TM, TN, WM, WN in itertools.product(
            [64, 128, 256], [64, 128, 256], [8, 16, 32], [4, 8], [4, 8], [16, 32, 64, 128],
            [16, 32, 64, 128]):
        threads = (BM // TM) * (BN // TN)
        if BM % WM or BN % WN or WM % TM or WN % TN or (WM // TM) * (WN // TN) != 32:
            continue
        if not 64 <= threads <= 256 or (BM * BK // 4) % threads or (BK * BN // 4) % threads:
            continue
        if 2 * (BM + 4 + BN) * BK * 4 > LOCAL_MEM:  # double-buffered tiles
            continue
        if quick and (BK == 32 or TM * TN < 32):
            continue
        # CLAMP: edge tiles' loads clamped (3 more registers) or guarded; see cl/07.
        for clamp in (0, 1):
            yield 'BM=%d,BN=%d,BK=%d,TM=%d,TN=%d,WM=%d,WN=%d,CLAMP=%d' % (
                BM, BN, BK, TM, TN, WM, WN, clamp)


SPACES = {
    'block_tiled': lambda q: block_tiled_space(q, False),
    'block_tiled_vectorized': lambda q: block_tiled_space(q, True),
    'warp_tiled': warp_tiled_space,
}


def default_out():
    if os.environ.get('CLGEMM_TUNING_FILE'):
        return os.environ['CLGEMM_TUNING_FILE']
    base = os.environ.get('XDG_CONFIG_HOME') or os.path.join(os.path.expanduser('~'), '.config')
    return os.path.join(base, 'clgemm', 'tuning.json')


def run_batch(args, size, variants):
    """One clgemm process: the variants plus CLBlast, verified and timed."""
    cmd = [args.clgemm, '--device', args.device, '--size', size, '--format', 'json', '--quiet',
           '--iters', str(args.iters), '--warmup', '1']
    for v in variants:
        cmd += ['--algo', v]
    env = dict(os.environ, CLGEMM_TUNING_FILE=os.devnull)  # tune from the registry defaults
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    try:
        return json.loads(p.stdout)['results'][0]
    except (ValueError, KeyError, IndexError):
        sys.stderr.write('tune: clgemm failed (exit %d): %s\n' % (p.returncode, p.stderr[-500:]))
        return None


def main():
    if '--rules' in sys.argv[1:]:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import tune_rules
        rest = [a for a in sys.argv[1:] if a != '--rules']
        if '--out' not in rest:
            rest += ['--out', default_out()]
        return tune_rules.main(rest)
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--clgemm', default='build/clgemm')
    ap.add_argument('--device', default='')
    ap.add_argument('--sizes', default='1024,4096')
    ap.add_argument('--algos', default='warp_tiled,block_tiled_vectorized')
    ap.add_argument('--iters', type=int, default=5)
    ap.add_argument('--batch', type=int, default=24, help='variants per clgemm process')
    ap.add_argument('--quick', action='store_true', help='a pruned space')
    ap.add_argument('--out', default=default_out())
    ap.add_argument('--time-limit', type=float, default=0,
                    help='seconds; stop starting new batches after this and keep what was found')
    args = ap.parse_args()

    entries, started = [], time.time()
    for algo in args.algos.split(','):
        space = list(SPACES[algo](args.quick))
        for size in args.sizes.split(','):
            best, tried, rejected = None, 0, 0
            for i in range(0, len(space), args.batch):
                if args.time_limit and time.time() - started > args.time_limit:
                    sys.stderr.write('tune: time limit reached: %s %s searched %d of %d\n' % (
                        algo, size, tried, len(space)))
                    break
                res = run_batch(args, size, ['%s:%s' % (algo, p) for p in space[i:i + args.batch]])
                if res is None:
                    continue
                device, driver = res['device'], res['driver']
                clblast = next((r['gflops'] for r in res['rows'] if r['algorithm'] == 'clblast'),
                               None)
                for row in res['rows']:
                    if row['algorithm'] == 'clblast':
                        continue
                    tried += 1
                    if row['status'] != 'ok' or not row['gflops']:
                        rejected += 1
                        continue
                    if best is None or row['gflops'] > best['gflops']:
                        best = dict(row, device=device, driver=driver, M=res['M'], N=res['N'],
                                    K=res['K'], clblast=clblast)
                sys.stderr.write('tune: %s %s: %d/%d tried, %d rejected, best %.0f GFLOP/s %s '
                                 '(%.0f s)\n' % (algo, size, tried, len(space), rejected,
                                                 best['gflops'] if best else 0,
                                                 best['algorithm'].split(':', 1)[1] if best else '',
                                                 time.time() - started))
            if best:
                entries.append({'device': best['device'], 'driver': best['driver'],
                                'algorithm': algo, 'M': best['M'], 'N': best['N'],
                                'K': best['K'], 'params': best['algorithm'].split(':', 1)[1],
                                'gflops': round(best['gflops'], 1),
                                'clblast_gflops': round(best['clblast'] or 0, 1),
                                'date': time.strftime('%Y-%m-%d')})
                print('%-24s %-12s %10.0f GFLOP/s (CLBlast %.0f)  %s' % (
                    algo, size, best['gflops'], best['clblast'] or 0, entries[-1]['params']))

    # Merge: our new entries replace older ones for the same device, driver, algorithm, size.
    old, rules = [], []
    if os.path.exists(args.out):
        try:
            doc = json.load(open(args.out))
            old, rules = doc.get('entries', []), doc.get('rules', [])
        except ValueError:
            sys.stderr.write('tune: %s is not valid JSON; starting it afresh\n' % args.out)
    key = lambda e: (e.get('device'), e.get('driver'), e.get('algorithm'), e.get('M'),
                     e.get('N'), e.get('K'))
    new_keys = {key(e) for e in entries}
    merged = [e for e in old if key(e) not in new_keys] + entries
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, 'w') as f:
        doc = {'format': 'clgemm-tuning-1', 'entries': merged}
        if rules:  # the shape rules (--rules) stay as they were
            doc['rules'] = rules
        json.dump(doc, f, indent=1)
        f.write('\n')
    sys.stderr.write('tune: %d entries written to %s in %.0f s\n' % (len(entries), args.out,
                                                                    time.time() - started))
    return 0 if entries else 1


if __name__ == '__main__':
    sys.exit(main())

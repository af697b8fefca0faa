#!/usr/bin/env python3
"""Audit the split counts of a device's shape rules: for each rule that splits K (split_per_cu
or split_slice_k) at small M, time every split of the rule's own kernel at a set of widths and
depths, beside what the purpose runs there (auto, tensor_core, ...), and say how far the
rule's count is from the fastest; then fit the rounds model (tools/tune_rules.py's
fit_split_model: split_slice_k, split_partial_k, groups_per_cu, split_rest) on half the
shapes and check it on the other half, so that a rule is replaced only by a model that held
where it was not fitted.  This is how probes 278-284 (bench/results/2026-11-28_nvidia-h100/probes) audited the
H100's rules; the output is what a change to tuning/ quotes.

usage: tools/split_audit.py [--clgemm build/clgemm] [--device SPEC] [--tuning FILE]
           [--only PURPOSE:DTYPE:TRANS:M_MAX,...] [--max-m 64] [--widths 2048,4096,...]
           [--depths 4096,14336] [--splits 1,2,3,4,5,6,8,12,16] [--rounds 2] [--iters 30]
           [--time-limit S] [--json FILE]
Every run is verified by clgemm; a split that fails or is refused is left out.  A rule takes
about 18 runs of clgemm per round on a GPU (a minute or two): --only or --time-limit (no rule
is started after S seconds; the report holds those done) keeps a command within its limit."""
import argparse
import json
import math
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import split_model  # noqa: E402
import tune_rules  # noqa: E402

# What each purpose runs from the command line, by the rule's element type.
DTYPE_ARGS = {'f32': [], 'f16': ['--dtype', 'f16', '--out', 'f16'],
              'bf16': ['--dtype', 'bf16', '--out', 'bf16']}


def run_json(args, size, trans, extra, algos):
    """The first result of one clgemm run under the rules audited (None where it failed)."""
    return tune_rules.run_clgemm(args, size, trans, extra, algos, tuning=args.tuning,
                                 who='split_audit')


def clgemm(args, size, trans, extra, algos):
    """{algorithm: (median ms, its SPLITK, note)} of one verified run (rows not ok dropped)."""
    res = run_json(args, size, trans, extra, algos)
    out = {}
    for r in res['rows'] if res else []:
        if r['status'] != 'ok' or not r.get('ms_median'):
            continue
        text = (r.get('note') or '') + ' ' + (r.get('params') or '')
        m = re.search(r'SPLITK[=\s](\d+)', text)
        out[r['algorithm']] = (r['ms_median'], int(m.group(1)) if m else 1, r.get('note') or '')
    return out


def device_rules(args):
    """The device's name and the rules to audit: those of its tuning file(s) that split K,
    single GEMMs with A stored M x K (no batch rules, none naming A's layout) with m_max <=
    --max-m, or those --only names."""
    res = run_json(args, '8x8x8', 'NN', [], ['naive'])
    if res is None:
        return None, []
    device = res['device']
    files = [args.tuning] if args.tuning else [
        os.path.join(args.tuning_dir, f) for f in sorted(os.listdir(args.tuning_dir))
        if f.endswith('.json')]
    rules = []
    for path in files:
        try:
            with open(path) as f:
                rules += [r for r in json.load(f).get('rules', [])
                          if r.get('device') in (device, '*')]
        except (OSError, ValueError):
            continue
    only = [tuple(o.split(':')) for o in args.only.split(',')] if args.only else None
    chosen = []
    for r in rules:
        name = (r['purpose'], r['dtype'], r['trans'], str(r['m_max']))
        if only is not None:
            if name in only:
                chosen.append(r)
        elif (not r.get('batch') and not r.get('trans_a') and r['m_max'] <= args.max_m and
              (r.get('split_per_cu', 0) > 0 or r.get('split_slice_k', 0) > 0)):
            chosen.append(r)
    return device, chosen


def audit_rule(args, rule):
    """Every split of the rule's kernel and the purpose's own choice at each shape."""
    trans = 'NT' if rule['trans'] == 'any' else rule['trans']
    algo, params = rule['algorithm'], rule['params']
    purpose = rule['purpose']
    M = rule['m_max']
    shapes = []
    for K in args.depths:
        for N in args.widths:
            splits = [S for S in args.splits if K // S >= tune_rules.KSLICE_MIN or S == 1]
            forms = {'%s:%s' % (algo, tune_rules.join(params, 'SPLITK=%d' % S)): S
                     for S in splits}
            best = {}
            chose = []
            for _ in range(args.rounds):  # rounds interleave the forms, the minimum of medians
                got = clgemm(args, '%dx%dx%d' % (M, N, K), trans, DTYPE_ARGS[rule['dtype']],
                             [purpose] + list(forms))
                for name, (ms, split, note) in got.items():
                    if name in forms:
                        best[forms[name]] = min(ms, best.get(forms[name], ms))
                    elif name == purpose:
                        chose.append((ms, split, note))
            if not best:
                continue
            tiles = tune_rules.tiles_of(algo, params, trans, rule['dtype'], M, N)
            own = min(chose)[:2] if chose else None  # (ms, slices): its faster round
            shapes.append({'M': M, 'N': N, 'K': K, 'tiles': tiles, 'splits': best,
                           'chosen': own})
            print('  %dx%dx%d: fastest %d slices %.4f ms; %s' % (
                M, N, K, min(best, key=best.get), min(best.values()),
                'the rule: %d slices %.4f ms' % (own[1], own[0]) if own
                else 'the purpose did not run'), flush=True)
    return shapes


def model_loss(shapes, cus, in_launch, model):
    """Geomean of the model's count's time over the fastest, and the shapes where it named a
    count that was not timed."""
    L, P, G, R = model
    loss, untimed = 0.0, []
    for s in shapes:
        runs = runs_of(s)
        every = {S: (0.0, s['tiles']) for S in range(1, min(32, s['K'] // 8) + 1)}
        named = split_model.rounds_choice(every, s['K'], cus, L, P, in_launch, G, R)
        if named not in runs:
            untimed.append('%dx%dx%d: %d' % (s['M'], s['N'], s['K'], named))
            named = split_model.rounds_choice(runs, s['K'], cus, L, P, in_launch, G, R)
        loss += math.log(runs[named][0] / min(t for t, _ in runs.values()))
    return math.exp(loss / max(1, len(shapes))), untimed


def percent(ratio):
    """A time over the fastest as how far behind, or n/a where nothing ran."""
    return '%.1f%%' % (100 * (ratio - 1)) if ratio else 'n/a'


def fit_verdict(entry):
    """One line on the rounds model a rule's audit fitted, and how it held on the other half."""
    if 'fit' not in entry:
        return 'too few shapes to fit a model (4 or more)'
    if not entry.get('fit_loss'):
        return 'no rounds model within 2% on half the shapes'
    untimed = entry['check_untimed']
    return ('rounds model fitted on half the shapes (slice_k %d, partial_k %d, groups %d, '
            'rest %g): %s behind there, %s on the other half (the rule there: %s)%s' % (
                *entry['fit'], percent(entry['fit_loss']), percent(entry['check_loss']),
                percent(entry['rule_check_loss']),
                '; untimed counts it names: ' + ', '.join(untimed) if untimed else ''))


def runs_of(shape):
    """A shape's timed splits as the split model takes them: {S: (ms, blocks of C)}."""
    return {S: (t, shape['tiles']) for S, t in shape['splits'].items()}


def rule_loss(shapes):
    """Geomean of what the purpose ran over the fastest split's time (where it ran)."""
    picked = [s for s in shapes if s['chosen']]
    if not picked:
        return None
    return math.exp(sum(math.log(s['chosen'][0] / min(s['splits'].values())) for s in picked) /
                    len(picked))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--clgemm', default='build/clgemm')
    ap.add_argument('--device', default='')
    ap.add_argument('--tuning', default='', help='a tuning file in place of tuning/*.json')
    ap.add_argument('--tuning-dir', default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), '..', 'tuning'))
    ap.add_argument('--only', default='', help='PURPOSE:DTYPE:TRANS:M_MAX,... to audit')
    ap.add_argument('--max-m', type=int, default=64)
    ap.add_argument('--widths', default='2048,3072,4096,5120,6144,8192,11008,14336,28672')
    ap.add_argument('--depths', default='4096,14336')
    ap.add_argument('--splits', default='1,2,3,4,5,6,8,12,16')
    ap.add_argument('--rounds', type=int, default=2)
    ap.add_argument('--iters', type=int, default=30)
    ap.add_argument('--time-limit', type=float, default=0)
    ap.add_argument('--json', default='')
    args = ap.parse_args(argv)
    started = time.time()
    if args.rounds < 1 or args.iters < 1 or args.time_limit < 0 or args.max_m < 1:
        ap.error('--rounds, --iters and --max-m take a count of 1 or more, --time-limit seconds')
    for key in ('widths', 'depths', 'splits'):
        try:
            values = [int(v) for v in getattr(args, key).split(',') if v]
        except ValueError:
            values = []
        if not values or min(values) < 1:
            ap.error('--%s takes a comma-separated list of positive integers' % key)
        setattr(args, key, values)
    device, rules = device_rules(args)
    if device is None:
        sys.stderr.write('split_audit: clgemm cannot run on --device %r\n' % args.device)
        return 1
    cus = tune_rules.compute_units(args, device)
    print('%s, %d compute units: %d rule(s) to audit' % (device, cus, len(rules)), flush=True)
    report = []
    for rule in rules:
        if args.time_limit and time.time() - started > args.time_limit:
            print('time limit: %d rule(s) left unaudited' % (len(rules) - len(report)))
            break
        print('%s %s %s M <= %d: %s:%s' % (rule['purpose'], rule['dtype'], rule['trans'],
                                           rule['m_max'], rule['algorithm'], rule['params']),
              flush=True)
        shapes = audit_rule(args, rule)
        in_launch = rule['algorithm'] in split_model.SPLIT_IN_LAUNCH
        entry = {'rule': {k: rule[k] for k in ('purpose', 'dtype', 'trans', 'm_max',
                                               'algorithm', 'params')},
                 'shapes': shapes, 'rule_loss': rule_loss(shapes)}
        half = [shapes[0::2], shapes[1::2]]
        if len(shapes) >= 4:
            fit = split_model.fit_split_model(
                [runs_of(s) for s in half[0]],
                [(s['N'], s['K']) for s in half[0]], cus, in_launch)
            entry['fit'] = fit
            if fit[0]:
                entry['fit_loss'], _ = model_loss(half[0], cus, in_launch, fit)
                entry['check_loss'], entry['check_untimed'] = model_loss(half[1], cus,
                                                                         in_launch, fit)
                entry['rule_check_loss'] = rule_loss(half[1])
        report.append(entry)
        print('  the rule: %s behind the fastest split; %s' % (
              percent(entry['rule_loss']), fit_verdict(entry)), flush=True)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'device': device, 'compute_units': cus, 'rules': report}, f, indent=1)
            f.write('\n')
    return 0 if report else 1


if __name__ == '__main__':
    sys.exit(main())

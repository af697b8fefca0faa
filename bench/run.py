#!/usr/bin/env python3
"""The one benchmark runner: re-measures what the README and docs/results.md show.

usage: bench/run.py PRESET [--clgemm build/clgemm] [--device SPEC] [--out bench/results]
                           [--sizes 4096,1000x3000x777] [--iters N] [--part K/N] [--build]
                           [--dry-run]

Presets (each feeds one table of docs/results.md):
  quick        the README's quick-start job: clgemm with no --algo (every algorithm) at the
               default size
  progression  steps 1-7, auto and CLBlast, fp32, at 1024 and 4096
  tensor       tensor_core on fp32 data (TF32), with --dtype f16 and bf16, tensor_core_tf32x3,
               and the lesson rows mma, wgmma (16-bit only) and wgmma_tma, at 4096 and 8192
  sizes        the fp32 kernels that can be the fastest, 256 .. 8192 and odd sizes
  epilogues    at 4096: fp32 auto and TF32 tensor_core, and bf16 tensor_core, each plain,
               with --epilogue bias_gelu, with a 16-bit C (--out bf16 / f16), and bf16 with
               both (a Linear layer); cuBLAS beside the plain ones
  readme       quick + progression + tensor + layouts + epilogues: everything the README
               shows
  llama        issue #17: Llama-3-8B's projections as a PyTorch Linear (X W^T, --trans NT),
               (N, K) in {6144x4096, 4096x4096, 28672x4096, 4096x14336} x M in {1, 16, 128,
               4096}: fp32 auto, TF32 and tf32x3 (with CLBlast), f16 and bf16 tensor_core; at
               M <= 16 once more with --cold-l2; the same timed-run count on both sides

Every case is one clgemm process (--format json) that also times CLBlast on the same buffers.
When PyTorch sees a CUDA device, cuBLAS is timed with the same shapes and precisions in the
same command (bench/cublas.py, after the clgemm processes).  Each preset writes
OUT/<date>_<device>/<preset>/: one clgemm JSON per case, cublas.json and meta.json (device,
driver, date, clgemm version, git commit, command line).  Nothing is built unless --build is
given.  Then run bench/render.py to rewrite docs/results.md and the README's tables.

--part K/N runs every N-th case from the K-th on (so each part gets its share of the large
sizes), for a preset that does not fit one command of a machine lent by the minute.  Part 1
starts a folder; part K > 1 adds its cases to the newest folder of that preset and device
under --out that was measured from the same commit and lacks part K, and appends its cuBLAS
rows to cublas.json.  Every part times cuBLAS in its own command, beside its own clgemm
rows, so each ratio still comes from one command; meta.json's "parts" says when each ran.
Progress goes to stderr.  Exit status: 0 when every clgemm process verified every row, 1 when
one did not (its JSON is kept), 2 on bad usage.
"""
import argparse
import datetime
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import time

from presets import PRESETS, preset_cases
from render import summary
from render_load import load_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def say(text):
    sys.stderr.write('run.py: %s\n' % text)
    sys.stderr.flush()


def slug(device, platform):
    """'NVIDIA H100 80GB HBM3' -> 'nvidia-h100'; a PoCL CPU -> 'pocl-amd-epyc'."""
    words = re.findall(r'[a-z0-9]+', device.lower().replace('(tm)', '').replace('(r)', ''))
    if 'portable computing language' in platform.lower() or 'pocl' in platform.lower():
        return '-'.join(['pocl'] + words[-2:])
    return '-'.join(words[:2]) or 'device'


def git(*args):
    """git's answer about this tree; '' when the tree is not a checkout of its own (a copy
    inside another repository would report that repository's commit)."""
    def ask(*a):
        return subprocess.run(['git', '-C', ROOT] + list(a), capture_output=True,
                              text=True, timeout=30).stdout.strip()
    try:
        top = ask('rev-parse', '--show-toplevel')
        return ask(*args) if top and os.path.samefile(top, ROOT) else ''
    except OSError:
        return ''


def clblast_version():
    try:
        p = subprocess.run(['dpkg-query', '-W', '-f', '${Version}', 'libclblast1'],
                           capture_output=True, text=True, timeout=30)
        return p.stdout.strip() or None
    except OSError:
        return None


def run_clgemm(cmd, timeout):
    """Runs one clgemm process, its progress passed through to stderr; (exit, stdout)."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as ex:
        say('timed out after %d s: %s' % (timeout, shlex.join(cmd)))
        out = ex.stdout.decode() if isinstance(ex.stdout, bytes) else (ex.stdout or '')
        return 124, out
    except OSError as ex:
        say('cannot run %s: %s' % (cmd[0], ex))
        return 127, ''


def probe_device(args):
    """Which device a spec selects, from a one-element run of the naive kernel."""
    cmd = [args.clgemm, '--algo', 'naive', '--size', '1', '--no-baseline', '--no-check',
           '--iters', '1', '--warmup', '0', '--format', 'json', '--quiet']
    if args.device:
        cmd += ['--device', args.device]
    code, out = run_clgemm(cmd, 300)
    try:
        doc = json.loads(out)
        res = doc['results'][0]
        return {'device': res['device'], 'platform': res['platform'], 'driver': res['driver'],
                'device_version': res.get('device_version'), 'type': res.get('type'),
                'clgemm_version': doc.get('clgemm_version')}
    except (ValueError, KeyError, IndexError):
        say('%s could not run on device %r (exit %d)' % (args.clgemm, args.device or
                                                         'default', code))
        return None


def cublas_jobs(cases, docs, iters=None):
    """cublas.py's jobs for every case, sizes read back from its JSON when clgemm chose it."""
    jobs = []
    for case, doc in zip(cases, docs):
        shapes = [(r['M'], r['N'], r['K']) for r in (doc or {}).get('results', [])]
        if not shapes and case.size:
            d = [int(x) for x in case.size.split('x')]
            shapes = [tuple(d * 3 if len(d) == 1 else d)]
        for shape in shapes:
            for mode in case.cublas:
                job = '%s:%dx%dx%d:%s:b%d' % (mode, *shape, case.trans, case.batch)
                if iters or case.iters:
                    job += ':r%d' % (iters or case.iters)
                if case.cold:
                    job += ':cold'
                if job not in jobs:
                    jobs.append(job)
    return jobs


def run_cublas(jobs, folder, dry):
    cmd = [sys.executable, os.path.relpath(os.path.join(ROOT, 'bench', 'cublas.py'))] + jobs
    if dry:
        print(shlex.join(cmd[1:]) + '  > %s/cublas.json' % folder)
        return None
    say('cuBLAS: %d job%s through PyTorch' % (len(jobs), 's' if len(jobs) != 1 else ''))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = {'measured': False, 'reason': 'bench/cublas.py failed (exit %d)' % p.returncode,
               'rows': []}
    if not doc.get('measured'):
        say('cuBLAS not measured: %s' % doc.get('reason'))
    with open(os.path.join(folder, 'cublas.json'), 'w') as f:
        json.dump(doc, f, indent=1)
    return doc


def free_folder(path):
    """path, or path-2, path-3, ... when a run of the same day is already there."""
    if not os.path.exists(path):
        return path
    n = 2
    while os.path.exists('%s-%d' % (path, n)):
        n += 1
    return '%s-%d' % (path, n)


def part_folder(preset, args, device, commit):
    """The folder part K > 1 of --part adds to (see the module's doc), or None."""
    k, n = args.part
    best = None
    for meta_path in glob.glob(os.path.join(args.out, '*', preset + '*', 'meta.json')):
        meta = load_json(meta_path) or {}
        parts = meta.get('parts') or {}
        if (meta.get('preset') == preset and meta.get('device') == device['device'] and
                meta.get('git_commit') == commit and meta.get('part_count') == n and
                '%d/%d' % (k, n) not in parts and
                (best is None or meta.get('started', '') > best[1].get('started', ''))):
            best = (os.path.dirname(meta_path), meta)
    return best


def run_preset(preset, args, device, base):
    cases = preset_cases(preset, args.sizes)
    if args.part:
        k, n = args.part
        cases = cases[k - 1::n]
    folder = os.path.join(base, preset) if args.dry_run else free_folder(
        os.path.join(base, preset))
    if args.dry_run:
        print('# %s -> %s/' % (preset, folder))
        for c in cases:
            print(shlex.join(c.command(args)) + '  > %s/%s.json' % (folder, c.name))
        jobs = cublas_jobs(cases, [None] * len(cases), args.iters)
        if jobs:
            run_cublas(jobs, folder, True)
        if any(c.size is None for c in cases):
            print('# cuBLAS %s at the size the quick job reports' %
                  ', '.join(cases[0].cublas))
        return 0
    started = datetime.datetime.now(datetime.timezone.utc)
    # the GPU machine's copy of .git may be stale: bench/device_session.sh says which
    commit = os.environ.get('CLGEMM_GIT_COMMIT') or git('rev-parse', 'HEAD') or None
    command = shlex.join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:])
    earlier = None
    if args.part and args.part[0] > 1:
        found = part_folder(preset, args, device, commit)
        if not found:
            say('--part %d/%d: no folder of %s on %s from commit %s under %s lacks this part '
                '(run part 1 first, and bring its folder here)' % (
                    *args.part, preset, device['device'], commit, args.out))
            return 2
        folder, earlier = found
    else:
        os.makedirs(folder)
    meta = earlier or {
        'preset': preset, 'date': started.strftime('%Y-%m-%d'),
        'started': started.isoformat(timespec='seconds'), **device,
        'clblast_version': clblast_version(), 'git_commit': commit,
        'git_dirty': bool(git('status', '--porcelain', '--untracked-files=no'))
        if git('rev-parse', 'HEAD') else None,
        'command': command, 'sizes': [], 'cases': []}
    meta['sizes'] = list(dict.fromkeys(meta['sizes'] + [c.size for c in cases if c.size]))
    if args.part:
        meta['part_count'] = args.part[1]
        meta.setdefault('parts', {})['%d/%d' % args.part] = {
            'started': started.isoformat(timespec='seconds'), 'command': command}
    docs, worst = [], 0
    for i, c in enumerate(cases):
        cmd = c.command(args)
        say('[%s %d/%d] %s' % (preset, i + 1, len(cases), shlex.join(cmd)))
        t0 = time.time()
        code, out = run_clgemm(cmd, args.timeout)
        if out.strip():
            with open(os.path.join(folder, c.name + '.json'), 'w') as f:
                f.write(out)
        try:
            doc = json.loads(out)
            say('%s (exit %d, %.0f s)\n%s' % (c.name, code, time.time() - t0, summary(doc)))
        except ValueError:
            doc = None
            say('%s: no JSON came back (exit %d)' % (c.name, code))
            code = code or 1
        docs.append(doc)
        worst = max(worst, 1 if code else 0)
        meta['cases'].append({'name': c.name, 'file': c.name + '.json' if doc else None,
                              'exit': code,
                              'seconds': round(time.time() - t0, 1),
                              'command': shlex.join(cmd)})
    before = load_json(os.path.join(folder, 'cublas.json')) if earlier else None
    jobs = cublas_jobs(cases, docs, args.iters)
    cub = run_cublas(jobs, folder, False) if jobs or not args.part else None
    if cub and cub.get('measured') and cub.get('device') != device['device']:
        say('note: PyTorch timed %s, clgemm ran on %s' % (cub.get('device'), device['device']))
    cublas_said = 'measured' if cub and cub.get('measured') else \
        'not measured: %s' % (cub or {}).get('reason') if cub else 'no cuBLAS call in this part'
    if before:  # the earlier parts' rows first, each measured in its own part's command
        top = before if before.get('measured') or not cub else cub
        merged = dict(top, rows=before.get('rows', []) + (cub or {}).get('rows', []))
        with open(os.path.join(folder, 'cublas.json'), 'w') as f:
            json.dump(merged, f, indent=1)
    finished = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')
    if args.part:
        meta['parts']['%d/%d' % args.part].update(finished=finished, cublas=cublas_said)
        said = [p.get('cublas') for p in meta['parts'].values()
                if p.get('cublas') != 'no cuBLAS call in this part']
        meta['cublas'] = 'measured' if said and all(c == 'measured' for c in said) else \
            '; '.join('part %s: %s' % (k, p.get('cublas')) for k, p in
                      sorted(meta['parts'].items()))
    else:
        meta['cublas'] = cublas_said
    meta['finished'] = finished
    with open(os.path.join(folder, 'meta.json'), 'w') as f:
        json.dump(meta, f, indent=1)
    say('%s: %d cases -> %s' % (preset, len(cases), os.path.relpath(folder)))
    return worst


def build(args):
    bdir = os.path.dirname(args.clgemm) or '.'
    if not os.path.exists(os.path.join(bdir, 'build.ninja')):
        if subprocess.run(['meson', 'setup', bdir, '--buildtype=release'], cwd=ROOT).returncode:
            return False
    return subprocess.run(['meson', 'compile', '-C', bdir], cwd=ROOT).returncode == 0


def part_arg(text):
    m = re.fullmatch(r'(\d+)/(\d+)', text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise argparse.ArgumentTypeError("expected K/N with 1 <= K <= N, e.g. 1/2, got '%s'"
                                         % text)
    return int(m.group(1)), int(m.group(2))


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split('\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split('\n\n', 2)[2])
    ap.add_argument('preset', choices=sorted(PRESETS))
    ap.add_argument('--clgemm', default=os.path.relpath(os.path.join(ROOT, 'build', 'clgemm')),
                    help='the clgemm program (default: build/clgemm)')
    ap.add_argument('--device', default='', help="clgemm's --device SPEC (default: its own)")
    ap.add_argument('--out', default=os.path.relpath(os.path.join(ROOT, 'bench', 'results')),
                    help='results root (default: bench/results)')
    ap.add_argument('--sizes', type=lambda t: t.split(','),
                    help='replace the preset sizes, comma-separated (N or MxNxK)')
    ap.add_argument('--iters', type=int, help="clgemm's --iters (default: its own)")
    ap.add_argument('--extra', action='append', default=[], metavar='ARG',
                    help='one more clgemm argument (repeat)')
    ap.add_argument('--part', type=part_arg, metavar='K/N',
                    help='run the K-th of N interleaved shares of the cases (see below)')
    ap.add_argument('--timeout', type=int, default=1800, help='seconds per clgemm process')
    ap.add_argument('--build', action='store_true', help='meson setup/compile first')
    ap.add_argument('--dry-run', action='store_true', help='print the commands only')
    args = ap.parse_args()
    if args.sizes and not all(re.fullmatch(r'\d+(x\d+x\d+)?', s) for s in args.sizes):
        ap.error('--sizes: N or MxNxK, comma-separated')

    if args.build and not args.dry_run and not build(args):
        say('build failed')
        return 1
    if args.dry_run:
        base = os.path.join(args.out, time.strftime('%Y-%m-%d') + '_<device>')
        return max(run_preset(p, args, None, base) for p in PRESETS[args.preset])
    if not os.access(args.clgemm, os.X_OK):
        say('%s not found: build it (tools/bootstrap, or --build)' % args.clgemm)
        return 2
    device = probe_device(args)
    if not device:
        return 1
    date = time.strftime('%Y-%m-%d', time.gmtime())
    base = os.path.join(args.out, '%s_%s' % (date, slug(device['device'], device['platform'])))
    say('%s (%s, driver %s) -> %s' % (device['device'], device['platform'], device['driver'],
                                       os.path.relpath(base)))
    return max(run_preset(p, args, device, base) for p in PRESETS[args.preset])


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Every portable kernel of the registry under oclgrind, the OpenCL device simulator that
checks each memory access, barrier and (optionally) each value a kernel uses.

usage: test_oclgrind.py MODE OCLGRIND CLGEMM CL_DIR
  MODE kernels        every kernel as built normally, with --data-races --check-api
                      (out-of-bounds accesses and barrier divergence are always checked)
  MODE uninitialized  the same at -cl-opt-disable, adding --uninitialized (see UNINIT_WHY)
  MODE planted        proves the checks can fail: a copy of cl/ with a deliberate bug (out of
                      bounds, a missing barrier, a divergent barrier, an uninitialised value),
                      selected through CLGEMM_KERNEL_DIR, must be reported

oclgrind exits 0 whatever it finds, so its reports are read instead: they go to a log file
(--log), which must stay empty; the API checker writes to stderr, which must stay empty too
(clgemm --quiet writes nothing there on success); and clgemm must say "ok" for the row and
exit 0.  Kernels come from `clgemm --algo list` (CLBlast and 'auto' aside), and those that have a
kernel for 16-bit inputs run again with --dtype f16 and bf16 (f16 alone in the
uninitialized mode), so a new kernel is covered
without touching this file.
"""
import concurrent.futures
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# Odd sizes: every edge path of every tile shape, the beta != 0 path (C is read), K below,
# between and above the K slices of the tiled kernels.
SIZES = [
    ('33', []),
    ('65x17x40', ['--alpha', '-1.5', '--beta', '0.5']),
    ('7x5x3', []),
]

# Oclgrind 21.10's --uninitialized plugin aborts with "OCLGRIND FATAL ERROR ... Unsupported
# instruction: freeze" on every optimised kernel that has local memory (LLVM 10+ emits
# `freeze`, the plugin predates it), so that check runs on unoptimised builds.
UNINIT_WHY = ('--uninitialized needs -cl-opt-disable: on optimised code Oclgrind 21.10 stops '
              'with "Unsupported instruction: freeze"')

# Sizes per mode, (native kernels, kernels run through the matrix emulation).  The
# uninitialized mode runs unoptimised code, several times slower: it keeps the edge cases (33,
# 7x5x3) and leaves the beta path to the kernels mode; the emulated matrix kernels are slower
# still (80 s for one 33^3 run at -O0), so they get the smallest size there.
# The general call: a transposed column-major problem with padded leading dimensions, a
# batch with tight ones (the packing pre-passes of cl/layout.cl run here too), and a 16-bit C
# with an epilogue.  Native
# kernels only: the emulated matrix kernels would double this suite's time.
GENERAL = [
    ('37x29x19', ['--layout', 'col', '--trans', 'TN', '--ld-pad', '3', '--beta', '0.5']),
    ('33x17x9', ['--trans', 'NT', '--batch', '2', '--ld-pad', '0']),
    # A 16-bit C with a fused epilogue: bf16 stores, C read as bf16 (beta), the bias per
    # caller's column along the kernel's rows (column-major), written in place (ldc 36).
    ('36x24x13', ['--layout', 'col', '--out', 'bf16', '--epilogue', 'bias_gelu', '--beta', '0.5',
                  '--ld-pad', '0']),
]
# Split-K (host/lib/splitk.c): step 11's one launch (cl/skinny_ksplit.h: the count and the sum
# through atomics), with A staged in local memory (AL) too; a tiled kernel's sliced, batched
# launches and the reduction (40 = 2 x 16 + 8 and 3 x 8 + 16: both leave a shorter last slice).
SPLIT_JOBS = [
    ('skinny:SPLITK=3', '3x17x40', ['--trans', 'NT', '--beta', '0.5']),
    ('skinny:KT=8,BM=4,AL=32,SPLITK=2', '3x17x80', ['--beta', '0.5']),
    ('warp_tiled:SPLITK=2', '9x13x40', []),
    # swapped: the reduction turns each block of a transposed C in local memory
    ('warp_tiled:SWAP=1,READT=0,SPLITK=3', '37x45x40', ['--trans', 'NT', '--beta', '0.5',
                                                         '--epilogue', 'bias_relu']),
    # step 10's one launch (cl/mma/tma_ksplit.h): 40 = 32 + 8, the count and the sum
    ('wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2,SPLITK=2', '37x45x40', ['--dtype', 'bf16']),
]
# Step 7 reading transposed operands where they lie (READT=1, as the shape rules ask; the
# default packs them): both transposed, a batch, clamped edges with M not a multiple of 4.
IN_PLACE_JOBS = [
    ('warp_tiled:READT=1,CLAMP=1,BM=64,BN=64,BK=8,TM=8,TN=8,WM=64,WN=32', '37x28x17',
     ['--trans', 'TT', '--batch', '2']),
]
SIZES_BY_MODE = {
    'kernels': (SIZES + GENERAL, SIZES),
    'uninitialized': ([SIZES[0], SIZES[2]], [SIZES[2]]),
}

# Matrix-unit kernels (tensor_core...) run on devices without matrix hardware through a
# portable emulation of the matrix instructions, selected with this (host/lib/backend.c).
EMULATE_ENV = {'CLGEMM_EMULATE_MATRIX': '1'}

# Oclgrind's device has 32 KiB of local memory by default; GPUs have 48 to 64 KiB, and a
# Hopper work-group up to 227 KiB, of which step 10's defaults use up to 192 KiB.
LOCAL_MEM = 262144

MODES = {
    'kernels': ['--data-races', '--check-api'],
    'uninitialized': ['--data-races', '--check-api', '--uninitialized',
                      '--build-options', '-cl-opt-disable'],
}

RUN_TIMEOUT = 1200
# Rows of --algo list that are not kernels of ours: the CLBlast baseline, and 'auto', which
# picks one of the kernels (each is run under its own name).
NOT_KERNELS = ('clblast', 'auto')
# Reports beyond this many per run are dropped by oclgrind (a planted race makes thousands).
MAX_ERRORS = 100


def kernel_names(clgemm):
    p = subprocess.run([clgemm, '--algo', 'list', '--format', 'csv'], capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        sys.exit('clgemm --algo list failed (exit %d): %s' % (p.returncode, p.stderr))
    names = [r['name'] for r in csv.DictReader(io.StringIO(p.stdout))]
    return [n for n in names if n not in NOT_KERNELS]


def headline_counts(log_text):
    """Oclgrind's log: messages separated by blank lines, each opening with a headline such
    as "Invalid read of size 4 at global memory address 0x...".  Returns {headline: count}
    with addresses dropped so equal findings group together."""
    counts = {}
    for block in re.split(r'\n\s*\n', log_text):
        lines = [line for line in block.splitlines() if line.strip()]
        if not lines:
            continue
        head = re.sub(r'0x[0-9a-fA-F]+', '0x...', lines[0].strip())
        counts[head] = counts.get(head, 0) + 1
    return counts


def run_one(oclgrind, clgemm, mode, algo, size, extra, env_extra=None):
    """One clgemm run under oclgrind.  Returns (problems, details): an empty list of
    problems is a clean run."""
    fd, log = tempfile.mkstemp(prefix='oclgrind-', suffix='.log')
    os.close(fd)
    env = dict(os.environ)
    env['CLGEMM_NO_CACHE'] = '1'  # build every time: the cache does not know oclgrind's options
    env.pop('CLGEMM_BUILD_OPTIONS', None)
    env.update(env_extra or {})
    cmd = [oclgrind, *MODES[mode], '--local-mem-size', str(LOCAL_MEM), '--num-threads', '1',
           '--max-errors', str(MAX_ERRORS), '--log', log,
           clgemm, '--device', 'oclgrind', '--no-baseline', '--algo', algo, '--size', size,
           '--iters', '1', '--warmup', '0', '--quiet', '--format', 'csv', *extra]
    problems = []
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=RUN_TIMEOUT)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as exc:
        rc, out, err = None, exc.stdout or '', exc.stderr or ''
        out = out.decode() if isinstance(out, bytes) else out
        err = err.decode() if isinstance(err, bytes) else err
        problems.append('timed out after %d s' % RUN_TIMEOUT)
    elapsed = time.time() - start
    with open(log, errors='replace') as f:
        log_text = f.read()
    os.unlink(log)

    counts = headline_counts(log_text)
    for head, n in sorted(counts.items()):
        problems.append('oclgrind: %s (x%d)' % (head, n))
    if 'Oclgrind - OpenCL runtime error detected' in err:
        problems.append('oclgrind --check-api: an OpenCL call failed (see stderr)')
    elif err.strip():
        problems.append('unexpected output on stderr')
    if rc is not None and rc != 0:
        problems.append('clgemm exit status %d' % rc)
    rows = list(csv.DictReader(io.StringIO(out))) if out.strip() else []
    if rc is not None:
        if len(rows) != 1 or rows[0].get('algorithm') != algo:
            problems.append('expected one CSV row for %s, got %d' % (algo, len(rows)))
        elif rows[0].get('status') != 'ok':
            problems.append('row status %s: %s' % (rows[0].get('status'), rows[0].get('note')))
    details = ('$ ' + ' '.join(cmd) + '\n--- stdout\n' + out[-2000:] + '\n--- stderr\n' +
               err[-3000:] + '\n--- oclgrind log (first 3000 chars)\n' + log_text[:3000])
    return problems, details, elapsed, counts


def workers():
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:
        n = os.cpu_count() or 1
    return max(1, n)


def statuses(prefix, clgemm, device, names, env_extra, extra_args=()):
    """{name: CSV row} of one quick unchecked run of names at 7x5x3 on device, the command
    prefixed with prefix (oclgrind and its options, or nothing), extra_args added."""
    env = dict(os.environ, CLGEMM_NO_CACHE='1', **env_extra)
    env.pop('CLGEMM_KERNEL_DIR', None)
    env.pop('CLGEMM_BUILD_OPTIONS', None)
    cmd = [*prefix, clgemm, '--device', device, '--no-baseline', '--no-check', '--size', '7x5x3',
           '--iters', '1', '--warmup', '0', '--quiet', '--format', 'csv', *extra_args,
           *[a for n in names for a in ('--algo', n)]]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=RUN_TIMEOUT)
    rows = {r['algorithm']: r for r in csv.DictReader(io.StringIO(p.stdout))}
    if p.returncode not in (0, 1) or any(n not in rows for n in names):
        # Without the answer a kernel could be left out, or fail for the wrong reason: say
        # what went wrong instead.
        sys.exit('cannot tell which kernels run where: %s%s exited %d with rows for %s\n%s' %
                 (' '.join('%s=%s ' % kv for kv in env_extra.items()), ' '.join(cmd),
                  p.returncode, ' '.join(rows) or 'nothing', p.stderr[-3000:]))
    return rows


def portable(oclgrind, clgemm, names):
    """Which kernels to run on oclgrind's device, and how.  Returns ({name: extra env},
    {name: why not}).  A kernel that oclgrind's device runs as it is, is run so; one it
    reports unsupported (the matrix-unit kernels, which need matrix hardware) is run through
    the portable emulation of its matrix instructions (EMULATE_ENV) when that makes it run.
    One still unsupported is left out, with the reason, only if the reference CPU device
    ($CLGEMM_TEST_DEVICE, else pocl) cannot run it either: otherwise it is a portable kernel
    that the sweep must report as not run.  Quick: unsupported is decided before compiling."""
    sim = [oclgrind, '--local-mem-size', str(LOCAL_MEM)]
    run, left_out = {}, {}
    rows = statuses(sim, clgemm, 'oclgrind', names, {})
    unsupported = [n for n in names if rows[n]['status'] == 'unsupported']
    run.update({n: {} for n in names if n not in unsupported})
    if unsupported:
        emulated = statuses(sim, clgemm, 'oclgrind', unsupported, EMULATE_ENV)
        run.update({n: dict(EMULATE_ENV) for n in unsupported
                    if emulated[n]['status'] != 'unsupported'})
    rest = [n for n in unsupported if n not in run]
    if rest:
        device = os.environ.get('CLGEMM_TEST_DEVICE') or 'pocl'
        cpu = statuses([], clgemm, device, rest, {})
        for n in rest:
            if cpu[n]['status'] == 'unsupported':
                left_out[n] = rows[n].get('note', '')
            else:
                run[n] = {}
    return {n: run[n] for n in names if n in run}, left_out


# The 16-bit formats each mode runs.  Unoptimised code of the emulated 16-bit kernel is slow to
# simulate (about 200 s a run at 7x5x3), and f16 and bf16 differ only in the emulation's decoding
# of the bits, so the uninitialized mode runs f16 alone.
DTYPES16 = {'kernels': ('f16', 'bf16'), 'uninitialized': ('f16',)}


def with_16bit_kernels(clgemm, kernels):
    """Which of the kernels have a second kernel file for 16-bit inputs (--dtype f16/bf16,
    host/lib/backend.c): those whose row says precision f16 when asked for --dtype f16 (quick, on
    the CPU device, emulated where needed)."""
    device = os.environ.get('CLGEMM_TEST_DEVICE') or 'pocl'
    rows = statuses([], clgemm, device, list(kernels), EMULATE_ENV, ('--dtype', 'f16'))
    return [n for n in kernels if rows[n].get('precision') == 'f16']


def sweep(oclgrind, clgemm, mode):
    kernels, left_out = portable(oclgrind, clgemm, kernel_names(clgemm))
    bits16 = with_16bit_kernels(clgemm, kernels)
    print('mode %s: oclgrind %s' % (mode, ' '.join(MODES[mode])))
    if mode == 'uninitialized':
        print('(%s)' % UNINIT_WHY)
    print('kernels: %s' % ' '.join(
        n + (' (emulated matrix instructions)' if env else '') for n, env in kernels.items()))
    print('with 16-bit kernels, run again with --dtype %s: %s' % (' and '.join(DTYPES16[mode]),
                                                                  ' '.join(bits16) or 'none'))
    for n, note in sorted(left_out.items()):
        print('not run: %s is not portable (unsupported on the CPU device too: %s)' % (n, note))
    jobs = []
    for a, env in kernels.items():
        sizes = SIZES_BY_MODE[mode][1 if env else 0]
        jobs += [(a, s, tuple(x), tuple(sorted(env.items()))) for s, x in sizes]
        if a in bits16:
            jobs += [(a, s, ('--dtype', dt, *x), tuple(sorted(env.items())))
                     for dt in DTYPES16[mode] for s, x in sizes]
    if mode == 'kernels':
        jobs += [(a, sz, tuple(x), tuple(sorted(kernels[a.split(':')[0]].items())))
                 for a, sz, x in SPLIT_JOBS + IN_PLACE_JOBS if a.split(':')[0] in kernels]
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers()) as pool:
        futures = {pool.submit(run_one, oclgrind, clgemm, mode, a, s, list(x), dict(env)): key
                   for key in jobs for a, s, x, env in [key]}
        results = {}
        for fut in concurrent.futures.as_completed(futures):
            results[futures[fut]] = fut.result()
    for key in jobs:
        a, s, x, env = key
        problems, details, elapsed, _ = results[key]
        label = '%s %s%s%s' % (a, s, (' ' + ' '.join(x)) if x else '',
                               ' (%s)' % ' '.join('%s=%s' % kv for kv in env) if env else '')
        if problems:
            failed += 1
            print('FAIL %-50s %6.1f s' % (label, elapsed))
            for pr in problems:
                print('       ' + pr)
            print(details)
        else:
            print('ok   %-50s %6.1f s' % (label, elapsed))
    print('%d runs, %d failed' % (len(jobs), failed))
    return 1 if failed else 0


# ---- planted bugs: each must be reported -------------------------------------------------

def plant_out_of_bounds(text):
    """Drops the naive kernel's guard, so the work-items of the rounded-up NDRange read past A
    and write past C (clgemm's own check does not see this: it lands outside the checked
    entries)."""
    new, n = re.subn(r'if\s*\(\s*row\s*>=\s*M\s*\|\|\s*col\s*>=\s*N\s*\)\s*return\s*;',
                     '/* planted: no bounds guard */', text)
    return new if n == 1 else None


def plant_missing_barrier(text):
    """Drops the last barrier of the tiled kernel's K loop, the one that keeps the next
    slice's loads from overwriting tiles still being read: a local-memory data race."""
    i = text.rfind('barrier(CLK_LOCAL_MEM_FENCE);')
    if i < 0:
        return None
    return text[:i] + '/* planted: barrier removed */' + text[i + len('barrier(CLK_LOCAL_MEM_FENCE);'):]


def plant_divergent_barrier(text):
    """Work-item 0 of each group skips the first barrier: barrier divergence."""
    i = text.find('barrier(CLK_LOCAL_MEM_FENCE);')
    if i < 0:
        return None
    return text[:i] + 'if (get_local_id(0) != 0) ' + text[i:]


def plant_uninitialized(text):
    """The naive kernel's accumulator is never initialised."""
    new, n = re.subn(r'float\s+acc\s*=\s*0(\.0*)?f?\s*;', 'float acc; /* planted */', text)
    return new if n == 1 else None


PLANTS = [
    # name, file, algo, plant, mode, expected headline (regex), size
    ('out-of-bounds access', '01_naive.cl', 'naive', plant_out_of_bounds, 'kernels',
     r'^Invalid (read|write)', '33'),
    ('data race (missing barrier)', '03_tiled.cl', 'tiled', plant_missing_barrier, 'kernels',
     r'data race', '33x33x65'),
    ('barrier divergence', '03_tiled.cl', 'tiled', plant_divergent_barrier, 'kernels',
     r'divergence', '33'),
    ('uninitialized value', '01_naive.cl', 'naive', plant_uninitialized, 'uninitialized',
     r'[Uu]ninitiali[sz]ed', '7x5x3'),
]


def planted(oclgrind, clgemm, cl_dir):
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, fname, algo, plant, mode, expect, size) in enumerate(PLANTS):
            d = os.path.join(tmp, 'cl%d' % i)
            shutil.copytree(cl_dir, d)
            path = os.path.join(d, fname)
            text = plant(open(path).read()) if os.path.exists(path) else None
            if text is None:
                failed += 1
                print('FAIL %s: cannot plant it, %s no longer has the expected code; update '
                      'tests/test_oclgrind.py' % (name, fname))
                continue
            open(path, 'w').write(text)
            problems, details, elapsed, counts = run_one(
                oclgrind, clgemm, mode, algo, size, [], {'CLGEMM_KERNEL_DIR': d})
            hit = [h for h in counts if re.search(expect, h)]
            if hit:
                print('ok   planted %s in %s is reported (%s, x%d) %.1f s' %
                      (name, fname, hit[0], counts[hit[0]], elapsed))
                if not problems:
                    failed += 1
                    print('FAIL ... yet the run was judged clean')
            else:
                failed += 1
                print('FAIL planted %s in %s was NOT reported (mode %s)' % (name, fname, mode))
                print(details)
    print('%d planted bugs, %d not caught' % (len(PLANTS), failed))
    return 1 if failed else 0


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ('kernels', 'uninitialized', 'planted'):
        sys.exit(__doc__)
    mode, oclgrind, clgemm, cl_dir = sys.argv[1:]
    if not oclgrind or not shutil.which(oclgrind):
        print('SKIP: oclgrind not found (Debian: apt-get install oclgrind; tools/bootstrap '
              'installs it)')
        return 77
    if mode == 'planted':
        return planted(oclgrind, clgemm, cl_dir)
    return sweep(oclgrind, clgemm, mode)


if __name__ == '__main__':
    sys.exit(main())

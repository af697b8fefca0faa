#!/usr/bin/env python3
"""The checker cannot be fooled: kernels with a deliberate off-by-one in their K loop must
give FAIL rows and exit status 1, at every verification path (full reference for small
problems, sampled entries plus CLBlast for large ones), while the same sources without the
bug pass.

usage: test_checker.py PATH/TO/clgemm PATH/TO/cl [general]

How the bug is planted: in a copy of cl/ (selected with CLGEMM_KERNEL_DIR), every kernel's
`int K` parameter is renamed and the body opens with
    const int K = K_planted + (CLGEMM_PLANT_K_DELTA);
with CLGEMM_PLANT_K_DELTA defaulting to 0.  CLGEMM_BUILD_OPTIONS=-DCLGEMM_PLANT_K_DELTA=-1 then
makes every kernel of the registry, present and future, stop its K loop one term short (the
last column of A and row of B are ignored), and the same copy without the define is the
control.  Two literal K-loop bugs in the naive kernel (the loop starts at 1; the loop ends at
K - 1) are checked as well.  The device is $CLGEMM_TEST_DEVICE, else pocl; matrix-unit kernels
run through their emulation (CLGEMM_EMULATE_MATRIX=1) where it has no matrix hardware.  A
kernel whose precision tolerates more than one lost term (1/K) is reported, not required to
fail.  Algorithms with a kernel for 16-bit inputs are checked again with --dtype f16 and bf16.
A few algorithms are checked through the general call as well: transposed operands (--trans TN,
column-major) and a batch of 2 (--batch 2, tight leading dimensions), at the full reference's
size and at one checked by samples (plus CLBlast's batched result), and with a bf16 C and the
bias_gelu epilogue (column-major, beta 0.5); GELU's constant planted wrong must FAIL too.  The
optional argument `general` runs only that part.
"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

CLGEMM, CL_DIR = sys.argv[1], sys.argv[2]
ONLY_GENERAL = len(sys.argv) > 3 and sys.argv[3] == 'general'
DEVICE = os.environ.get('CLGEMM_TEST_DEVICE') or 'pocl'
failures = checks = 0

# Small (full double-precision reference), a long K where one lost term is worth about 1/K,
# and one beyond 2^28 multiply-adds (sampled entries plus CLBlast's full result).
SIZES = ['33x17x65', '1000x17x513', '1024x1024x257']

PRELUDE = '''/* planted by tests/test_checker.py */
#ifndef CLGEMM_PLANT_K_DELTA
#define CLGEMM_PLANT_K_DELTA 0
#endif
'''


def expect(cond, what, detail=''):
    global failures, checks
    checks += 1
    if cond:
        print('ok  ', what)
    else:
        failures += 1
        print('FAIL', what, detail[-3000:] if detail else '')


def run(args, env_extra):
    env = dict(os.environ)
    env['CLGEMM_NO_CACHE'] = '1'
    # Matrix-unit kernels run through their portable emulation where the device has no matrix
    # hardware (host/lib/backend.c), so they are checked too.
    env['CLGEMM_EMULATE_MATRIX'] = '1'
    env.pop('CLGEMM_BUILD_OPTIONS', None)
    env.update(env_extra)
    p = subprocess.run([CLGEMM, '--device', DEVICE, '--iters', '1', '--warmup', '0', '--quiet',
                        '--format', 'csv', *args], capture_output=True, text=True, env=env,
                       timeout=900)
    rows = list(csv.DictReader(io.StringIO(p.stdout))) if p.stdout.strip() else []
    return p.returncode, rows, p.stdout + p.stderr


def kernel_names():
    # Every public name of the library (the list has neither 'auto', which picks one of
    # them, nor CLBlast, which is not ours).
    p = subprocess.run([CLGEMM, '--algo', 'list', '--format', 'csv'], capture_output=True,
                       text=True, timeout=120)
    return [r['name'] for r in csv.DictReader(io.StringIO(p.stdout))]


def plant_k_shadow(text):
    """Renames each kernel's K parameter and re-declares K from it.  None if no kernel
    matched."""
    new, n = re.subn(r'(__kernel\b[^{;]*?\bint\s+)K\b([^{;]*?\{)',
                     r'\1K_planted\2\n    const int K = K_planted + (CLGEMM_PLANT_K_DELTA);',
                     text)
    return PRELUDE + new if n else None


def summary(rows):
    return ' '.join('%s=%s' % (r.get('algorithm'), r.get('status')) for r in rows)


names = kernel_names()
expect(len(names) >= 6, 'the registry lists the kernels: ' + ' '.join(names))

with tempfile.TemporaryDirectory() as tmp:
    planted = os.path.join(tmp, 'cl')
    shutil.copytree(CL_DIR, planted)
    for fname in sorted(os.listdir(planted)):
        path = os.path.join(planted, fname)
        # Lesson steps only (NN_*.cl): the layout pre-pass (layout.cl) has no K loop; its
        # copies are checked by tests/test_layouts.c.
        if not fname.endswith('.cl') or not fname[0].isdigit() or \
                '__kernel' not in open(path).read():
            continue
        text = plant_k_shadow(open(path).read())
        expect(text is not None, 'K parameter found in the kernels of %s' % fname)
        if text:
            open(path, 'w').write(text)
    env = {'CLGEMM_KERNEL_DIR': planted}
    bug = dict(env, CLGEMM_BUILD_OPTIONS='-DCLGEMM_PLANT_K_DELTA=-1')

    # The general call: a transposed case and a batched one, each at a fully checked size and
    # at a larger one (K long, or checked by samples plus CLBlast's full batched result).
    few = [n for n in ('naive', 'block_tiled_vectorized', 'warp_tiled', 'mma') if n in names]
    epilogue = ['--out', 'bf16', '--epilogue', 'bias_gelu', '--layout', 'col', '--beta', '0.5']
    for extra, sizes in ((['--trans', 'TN', '--layout', 'col'], [SIZES[0], SIZES[1]]),
                         (['--batch', '2', '--ld-pad', '0'], [SIZES[0], SIZES[2]]),
                         (epilogue, [SIZES[0], SIZES[2]])):
        for size in sizes:
            args = ['--size', size, *extra, *[a for n in few for a in ('--algo', n)]]
            what = '%s %s' % (size, ' '.join(extra))
            rc, rows, out = run(args, env)
            expect(rc == 0 and [r['algorithm'] for r in rows] == few + ['clblast'] and
                   all(r['status'] == 'ok' for r in rows),
                   'control %s: %s ok, exit 0 (%s)' % (what, ' '.join(few), summary(rows)), out)
            rc, rows, out = run(args, bug)
            kernels = [r for r in rows if r['algorithm'] != 'clblast']
            expect(rc == 1 and [r['algorithm'] for r in kernels] == few and
                   all(r['status'] == 'FAIL' for r in kernels) and
                   all(r['status'] == 'ok' for r in rows if r['algorithm'] == 'clblast'),
                   'K loop one short at %s: %s FAIL, exit 1 (rc=%d; %s)' %
                   (what, ' '.join(few), rc, summary(rows)), out)

    # The epilogue itself planted wrong (GELU's cubic coefficient 0.044715 -> 0.04 in the
    # constant that carries it, a change of about 1e-3 of the output where it matters most): with the K loop right, every kernel must
    # FAIL with --epilogue gelu, on a float and a 16-bit C, and pass with --epilogue bias_relu.
    gelu_dir = os.path.join(tmp, 'cl_gelu')
    shutil.copytree(CL_DIR, gelu_dir)
    gelu_path = os.path.join(gelu_dir, 'epilogue.h')
    gelu_text = open(gelu_path).read()
    gelu_c1 = '#define GEMM_GELU_C1 (-0.10294324f)'
    expect(gelu_text.count(gelu_c1) == 1, "cl/epilogue.h defines GELU's cubic constant once")
    open(gelu_path, 'w').write(gelu_text.replace(gelu_c1, '#define GEMM_GELU_C1 (-0.09208833f)'))
    for out_type, act in (('f32', 'gelu'), ('bf16', 'bias_gelu'), ('bf16', 'bias_relu')):
        # 16-bit inputs: mma then runs its bf16 kernel, whose bound (exact products) is far
        # below the plant; on fp32 data its TF32 bound (2^-10) would hide it.
        args = ['--size', SIZES[0], '--dtype', 'bf16', '--out', out_type, '--epilogue', act,
                *[a for n in few for a in ('--algo', n)]]
        rc, rows, out = run(args, {'CLGEMM_KERNEL_DIR': gelu_dir})
        kernels = [r for r in rows if r['algorithm'] != 'clblast']
        want = 'ok' if act == 'bias_relu' else 'FAIL'
        expect(rc == (0 if want == 'ok' else 1) and [r['algorithm'] for r in kernels] == few and
               all(r['status'] == want for r in kernels),
               'GELU planted wrong, --out %s --epilogue %s: %s %s (rc=%d; %s)' %
               (out_type, act, ' '.join(few), want, rc, summary(rows)), out)
    # Split-K (host/lib/splitk.c): a term lost in the last slice of a launch only -- the group
    # with get_group_id(2) == get_num_groups(2) - 1 -- must fail too, in step 11 (one launch:
    # its slices' ranges come from the slice length, and only the last one's end from K) and
    # in a tiled kernel (batched launches: the last of the whole slices and the shorter one),
    # with B stored K x N and N x K, at a K whose last slice is shorter (1000 = 3 x 256 + 232).
    one_slice = dict(env, CLGEMM_BUILD_OPTIONS='-DCLGEMM_PLANT_K_DELTA='
                     '(get_group_id(2)==get_num_groups(2)-1?-1:0)')
    split = [n for n in ('skinny:SPLITK=4', 'warp_tiled:SPLITK=4') if n.split(':')[0] in names]
    for trans in ('NN', 'NT'):
        args = ['--size', '3x257x1000', '--trans', trans, '--no-baseline',
                *[a for n in split for a in ('--algo', n)]]
        rc, rows, out = run(args, env)
        expect(rc == 0 and [r['algorithm'] for r in rows] == split and
               all(r['status'] == 'ok' for r in rows),
               'control split-K %s: %s ok (%s)' % (trans, ' '.join(split), summary(rows)), out)
        rc, rows, out = run(args, one_slice)
        expect(rc == 1 and [r['algorithm'] for r in rows] == split and
               all(r['status'] == 'FAIL' for r in rows),
               'a term lost in one slice, %s: %s FAIL, exit 1 (rc=%d; %s)' %
               (trans, ' '.join(split), rc, summary(rows)), out)

    for size in [] if ONLY_GENERAL else SIZES:
        # Control: the planted copy without the define computes the right thing.
        rc, rows, out = run(['--size', size], env)
        expect(rc == 0 and [r['algorithm'] for r in rows if r['algorithm'] != 'clblast'] == names
               and all(r['status'] in ('ok', 'unsupported') for r in rows) and
               any(r['status'] == 'ok' for r in rows),
               'control %s: every kernel ok, exit 0 (%s)' % (size, summary(rows)), out)
        # K loop one short: every kernel FAIL, CLBlast (not planted) still ok, exit 1.  A lost
        # term costs about 4/K of an entry's magnitude at the worst entry (measured: 3.8/K to
        # 4.2/K); a kernel whose precision allows an error above 1/K (bf16 at large K) is not
        # required to fail, and the output says so.
        k = int(size.split('x')[-1])
        rc, rows, out = run(['--size', size], bug)
        kernels = [r for r in rows if r['algorithm'] != 'clblast']
        baseline = [r for r in rows if r['algorithm'] == 'clblast']
        absent = [r for r in kernels if r['status'] == 'unsupported']
        lenient = [r for r in kernels if r not in absent and r.get('tolerance') and
                   float(r['tolerance']) >= 1.0 / k]
        strict = [r for r in kernels if r not in lenient and r not in absent]
        expect(rc == 1 and strict and [r['algorithm'] for r in kernels] == names and
               all(r['status'] == 'FAIL' for r in strict) and
               all(r['status'] in ('ok', 'unsupported') for r in baseline),
               'K loop one short at %s: every kernel FAIL, exit 1 (rc=%d; %s)' %
               (size, rc, summary(rows)), out)
        for r in absent:
            print('     note: %s does not run on this device (%s): not checked' %
                  (r['algorithm'], r.get('note', '')))
        for r in lenient:
            print('     note: %s (%s) tolerates %s, above one lost term (1/K = %.2g): not '
                  'required to fail at this size (it says %s)' %
                  (r['algorithm'], r.get('precision', '?'), r['tolerance'], 1.0 / k, r['status']))
        errors = [float(r['error']) for r in strict if r.get('error')]
        if errors:
            print('     smallest row error of a planted kernel: %.3g = %.1f/K (tolerance %s)' %
                  (min(errors), min(errors) * k, strict[0]['tolerance']))

    # 16-bit inputs: algorithms with a kernel for them (--dtype f16/bf16 swaps in another file,
    # host/lib/backend.c) are planted and checked the same way, at every size and both formats.
    # Against the reference from the rounded inputs their tolerance is the accumulation's
    # (host/cli/check.h), far below one lost term, so they must FAIL.
    if not ONLY_GENERAL:
        rc, rows, out = run(['--size', '7x5x3', '--no-check', '--no-baseline', '--dtype', 'f16',
                             *[a for n in names for a in ('--algo', n)]], env)
        names16 = [r['algorithm'] for r in rows if r.get('precision') == 'f16']
        expect(names16, 'some algorithm runs a 16-bit kernel with --dtype f16: %s' %
               (' '.join(names16) or 'none'), out)
    for dtype in () if ONLY_GENERAL else ('f16', 'bf16'):
        for size in SIZES:
            args = ['--size', size, '--dtype', dtype, *[a for n in names16 for a in ('--algo', n)]]
            rc, rows, out = run(args, env)
            kernels = [r for r in rows if r['algorithm'] != 'clblast']
            expect(rc == 0 and [r['algorithm'] for r in kernels] == names16 and
                   all(r['status'] == 'ok' and r['precision'] == dtype for r in kernels),
                   'control %s --dtype %s: %s ok, exit 0 (%s)' %
                   (size, dtype, ' '.join(names16), summary(rows)), out)
            rc, rows, out = run(args, bug)
            kernels = [r for r in rows if r['algorithm'] != 'clblast']
            expect(rc == 1 and [r['algorithm'] for r in kernels] == names16 and
                   all(r['status'] == 'FAIL' and r['precision'] == dtype for r in kernels) and
                   all(r['status'] == 'ok' for r in rows if r['algorithm'] == 'clblast'),
                   'K loop one short at %s --dtype %s: %s FAIL, exit 1 (rc=%d; %s)' %
                   (size, dtype, ' '.join(names16), rc, summary(rows)), out)

    # The same bug as a human would write it, in the naive kernel's loop.
    naive = open(os.path.join(CL_DIR, '01_naive.cl')).read()
    loop = re.search(r'for\s*\(\s*int\s+k\s*=\s*0\s*;\s*k\s*<\s*K\s*;\s*\+\+k\s*\)', naive)
    expect(loop is not None, 'the naive kernel has its K loop "for (int k = 0; k < K; ++k)"')
    if loop and not ONLY_GENERAL:
        for what, replacement in [('starts at 1', 'for (int k = 1; k < K; ++k)'),
                                  ('ends at K - 1', 'for (int k = 0; k < K - 1; ++k)')]:
            shutil.rmtree(planted)
            shutil.copytree(CL_DIR, planted)
            open(os.path.join(planted, '01_naive.cl'), 'w').write(
                naive[:loop.start()] + replacement + naive[loop.end():])
            for size in SIZES[:2]:
                rc, rows, out = run(['--algo', 'naive', '--no-baseline', '--size', size], env)
                expect(rc == 1 and len(rows) == 1 and rows[0]['status'] == 'FAIL',
                       'naive K loop %s at %s: FAIL, exit 1 (rc=%d; %s)' %
                       (what, size, rc, summary(rows)), out)

print('%d checks, %d failed' % (checks, failures))
sys.exit(1 if failures else 0)

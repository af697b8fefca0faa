#!/usr/bin/env python3
"""The clgemm binary from outside: bad input, listings (--help, --version, --algo list,
--list-devices), and the machine-readable output (CSV, JSON, --dtype) of a run of every
algorithm.  The rest of the cli suite, each a test of its own that runs beside this one:
test_cli_general.py (the general call), test_cli_table.py (the table and what it folds),
test_cli_planted.py (planted wrong results and kernels that do not build) and
test_cli_tuning.py (tuning files, shape and batch rules); cli_common.py is what they share.
usage: test_cli.py PATH/TO/clgemm PATH/TO/cl"""
import csv
import io
import json

from cli_common import algo_list, every_algorithm_csv, expect, finish, pocl_device_line, run


# A size just beyond what PoCL allows in one buffer: R x 32 x 32, so A needs R*32 floats.
pocl_line = pocl_device_line()
max_alloc_mib = float(pocl_line.split('max alloc ')[1].split(' MiB')[0])
# --list-devices rounds to whole MiB: one MiB more keeps the size beyond the real limit.
too_tall = int((max_alloc_mib + 1) * 1048576 / (32 * 4)) + 1
limit_words = 'allows in one buffer' if too_tall * 32 < 2**31 else 'beyond 32-bit'

# Bad input: exit 2, exactly one line on stderr naming the problem, nothing on stdout.
bad = [
    (['--size', '0'], '--size'), (['--size', '-5'], '--size'), (['--size', 'abc'], '--size'),
    (['--size', '4096x'], '--size'), (['--size', '1x2'], '--size'),
    (['--size', '100000'], 'beyond 32-bit'), (['--size', '%dx32x32' % too_tall], limit_words),
    (['--algo', 'nosuch'], 'unknown algorithm'), (['--device', 'nosuch-device'], 'no device'),
    (['--device', '7:7'], 'no device'), (['--device', '99'], 'no device'),
    (['--iters', '0'], '--iters'), (['--warmup', '-1'], '--warmup'),
    (['--format', 'xml'], '--format'), (['--bogus'], 'unknown option'),
    (['--size'], 'needs a value'), (['--beta', 'inf'], '--beta'),
    (['--dtype', 'f8'], '--dtype'), (['--dtype', 'F16'], '--dtype'), (['--dtype'], 'needs a value'),
    # getopt_long's ways in: an abbreviation, a value given to a flag without one, a stray word,
    # a missing value at the end, an unknown short option.
    (['--si', '64'], "unknown option '--si'"), (['--quiet=1'], '--quiet takes no value'),
    (['--size', '64', 'extra'], "unexpected argument 'extra'"),
    (['--algo'], '--algo needs a value'),
    (['--iters=x'], "bad --iters 'x'"), (['-x'], "unknown option '-x'"),
    # tile parameters: an unknown or mis-cased key is refused with the keys there are
    (['--algo', 'block_tiled:bm=64'], "unknown parameter 'bm' for block_tiled"),
    (['--algo', 'tiled:FOO=3'], "unknown parameter 'FOO'"),
    (['--algo', 'tiled:BM=x'], 'bad --algo'), (['--algo', 'warp_tiled:BM=99999'], 'range'),
    (['--algo', 'tiled:BK=16,BK=8'], 'parameter BK given twice'),
    # the names the steps-8-10 kernels had before they became one file per step
    (['--algo', 'wgmma_tma_packed'], 'its kernel is wgmma_tma on fp32 data'),
    # the general call's flags
    (['--layout', 'diag'], "bad --layout 'diag'"), (['--trans', 'NX'], "bad --trans 'NX'"),
    (['--ld-pad', '-1'], "bad --ld-pad '-1'"), (['--batch', '0'], "bad --batch '0'"),
    (['--layout', 'COL'], '--layout'), (['--trans', 'nt'], '--trans'),
    (['--batch', '-2'], '--batch'), (['--ld-pad', 'x'], '--ld-pad'),
    # a batch whose buffers together exceed 32-bit indexing is refused before any allocation
    (['--size', '1024', '--batch', '4096'], 'beyond 32-bit'),
    (['--cold-l2=yes'], '--cold-l2 takes no value'),
    # C's type and the epilogue
    (['--out', 'f8'], "bad --out 'f8'"), (['--out', 'tf32x3'], "bad --out 'tf32x3'"),
    (['--out'], 'needs a value'), (['--epilogue', 'swish'], "bad --epilogue 'swish'"),
    (['--epilogue', 'GELU'], '--epilogue'), (['--epilogue', ''], '--epilogue'),
    (['--algo', 'skinny:SPLITK=0'], 'SPLITK'),
]
for args, needle in bad:
    rc, out, err = run('--device', 'pocl', *args) if '--device' not in args else run(*args)
    lines = err.strip().splitlines()
    expect(rc == 2 and len(lines) == 1 and needle in err and out == '',
           'bad input %s -> exit 2, one line' % ' '.join(args),
           'rc=%d stderr=%r stdout=%r' % (rc, err, out))

rc, out, err = run('--help')
expect(rc == 0 and '--size' in out and '--device' in out and 'Exit status' in out and
       '--dtype' in out and 'bf16' in out and '--show-unsupported' in out and
       '--option=VALUE' in out and '--layout' in out and '--trans' in out and
       '--ld-pad' in out and '--batch' in out and '--cold-l2' in out and '--out' in out and
       'bias_gelu' in out, '--help')
rc, out, err = run('--version')
expect(rc == 0 and out.startswith('clgemm '), '--version', out)
rc, out, names = algo_list()
expect(rc == 0 and names[:10] == ['naive', 'coalescing', 'tiled', 'tiled_register',
                                   'block_tiled', 'block_tiled_vectorized', 'warp_tiled', 'mma',
                                   'wgmma', 'wgmma_tma'] and 'clblast' in names
       and 'auto' in names and 'tensor_core' in names,
       '--algo list names the progression in order', out)
# What each name runs on this device, or why not: the CPU has no matrix hardware, and with
# the emulation the purpose name runs the portable lesson.
expect('01_naive.cl:gemm_naive, opencl, fp32' in out and 'cannot run: needs matrix hardware'
       in out, '--algo list says what runs and what cannot', out)
rc, out, err = run('--device', 'pocl', '--algo', 'list', '--format', 'csv',
                   env={'CLGEMM_EMULATE_MATRIX': '1'})
listed = {r['name']: r for r in csv.DictReader(io.StringIO(out))}
expect(rc == 0 and listed.get('tensor_core', {}).get('runs') == 'mma' and
       listed['tensor_core']['backend'] == 'emulated mma.sync' and
       listed['wgmma']['status'] == 'unsupported' and 'f32' in listed['wgmma']['why'] and
       listed['wgmma_tma']['file'] == '10_wgmma_tma.cl',
       '--algo list --format csv: tensor_core runs mma emulated, wgmma takes no fp32', out)
rc, out, err = run('--device', 'pocl', '--algo', 'list', '--dtype', 'bf16', '--format', 'csv',
                   env={'CLGEMM_EMULATE_MATRIX': '1'})
listed = {r['name']: r for r in csv.DictReader(io.StringIO(out))}
expect(rc == 0 and listed.get('wgmma', {}).get('precision') == 'bf16' and
       listed['warp_tiled']['precision'] == 'fp32 on the rounded values',
       '--algo list --dtype bf16: 16-bit kernels where there are some', out)
rc, out, err = run('--list-devices')
expect(rc == 0 and 'PoCL' in out and '0:0' in out, '--list-devices shows PoCL', out + err)

ALGOS = [n for n in names if n != 'auto']

# CSV parses back: a row per algorithm, numbers where they belong.
rc, out, err, rows, _ = every_algorithm_csv()
MATRIX = [a for a in ALGOS if a.startswith('tensor_core') or a.startswith('wgmma') or a == 'mma']
expect(rc == 0 and [r['algorithm'] for r in rows] == ALGOS and
       all(r['status'] == 'ok' and float(r['gflops']) > 0 and float(r['error']) <
           float(r['tolerance']) and r['M'] == '65' and r['N'] == '33' and r['K'] == '17'
           for r in rows if r['algorithm'] not in MATRIX), '--format csv parses back, every row ok',
       out + err)
# PoCL has no matrix units: those rows say so, with the reason, and the run still passes.
expect(MATRIX and all(r['status'] == 'unsupported' and ('matrix hardware' in r['note'] or
                                                      'wgmma' in r['note'] or
                                                      'takes no f32 data' in r['note'])
                      for r in rows if r['algorithm'] in MATRIX),
       'tensor_core rows: unsupported on this device, with the reason', out)
rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--size', '40x24x20', '--iters', '1',
                   '--format', 'csv', '--quiet', env={'CLGEMM_EMULATE_MATRIX': '1'})
rows = list(csv.DictReader(io.StringIO(out)))
expect(rc == 0 and rows[0]['status'] == 'ok' and rows[0]['precision'] == 'tf32' and
       rows[0]['backend'] == 'emulated mma.sync',
       'CLGEMM_EMULATE_MATRIX=1 runs tensor_core emulated, checked at tf32 precision', out + err)

# --dtype f16/bf16: A and B rounded on the host; tensor_core runs the 16-bit kernel (here
# emulated) and says so in its precision, the fp32 steps run on the rounded values, every
# row is checked against the reference from the rounded inputs, and CSV/JSON carry the dtype.
for dtype in ('f16', 'bf16'):
    rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--algo', 'tiled', '--dtype',
                       dtype, '--size', '40x24x20', '--iters', '1', '--format', 'csv', '--quiet',
                       env={'CLGEMM_EMULATE_MATRIX': '1'})
    rows = {r['algorithm']: r for r in csv.DictReader(io.StringIO(out))}
    expect(rc == 0 and rows.get('tensor_core', {}).get('precision') == dtype and
           rows['tensor_core']['status'] == 'ok' and
           rows['tensor_core']['backend'] == 'emulated mma.sync' and
           float(rows['tensor_core']['error']) < float(rows['tensor_core']['tolerance']) < 1e-5 and
           rows['tiled']['precision'] == 'fp32' and rows['tiled']['status'] == 'ok' and
           rows['clblast']['status'] == 'ok' and all(r['dtype'] == dtype for r in rows.values()),
           '--dtype %s: tensor_core on 16-bit data (precision %s, ok), fp32 rows ok' % (dtype, dtype),
           out + err)
rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--dtype', 'bf16', '--size', '33',
                   '--iters', '1', env={'CLGEMM_EMULATE_MATRIX': '1'})
line = next((l for l in out.splitlines() if l.startswith('tensor_core ')), '')
expect(rc == 0 and 'A and B bf16 (rounded on the host)' in out and ' bf16 ' in line and
       line.rstrip().endswith('ok'), '--dtype bf16 table: the problem line and precision say bf16',
       out + err)
rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--algo', 'naive', '--dtype', 'f16',
                   '--size', '24', '--iters', '1', '--format', 'json', '--quiet')
try:
    res = json.loads(out)['results'][0]
    rows = {r['algorithm']: r for r in res['rows']}
    ok = (rc == 0 and res['dtype'] == 'f16' and rows['tensor_core']['status'] == 'unsupported' and
          'matrix hardware' in rows['tensor_core']['note'] and rows['naive']['status'] == 'ok')
except (ValueError, KeyError, IndexError) as exc:
    ok = False
    out += repr(exc)
expect(ok, '--dtype f16 without matrix units: tensor_core unsupported (why), JSON dtype f16',
       out + err)
# MAXNREG (a register cap written into NVIDIA's PTX): out of range is a bad parameter, and off
# NVIDIA the row says unsupported and why, never a silent build without the cap.
rc, out, err = run('--device', 'pocl', '--algo', 'warp_tiled:MAXNREG=128', '--algo',
                   'warp_tiled:MAXNREG=12', '--algo', 'skinny:MAXNREG=32', '--size', '24',
                   '--iters', '1', '--format', 'json', '--quiet')
try:
    rows = json.loads(out)['results'][0]['rows']
    capped, bad, skinny = rows[0], rows[1], rows[2]
    ok = (capped['status'] == 'unsupported' and 'not an NVIDIA device' in capped['note'] and
          bad['status'].lower() == 'error' and '16 to 255' in bad['note'] and
          skinny['status'] == 'unsupported' and 'not an NVIDIA device' in skinny['note'])
except (ValueError, KeyError, IndexError) as exc:
    ok = False
    out += repr(exc)
expect(ok, 'MAXNREG: unsupported off NVIDIA (why), out of range refused', out + err)
rc, out, err = run('--device', 'pocl', '--dtype', 'tf32x3', '--size', '24', '--iters', '1',
                   '--format', 'csv', '--quiet', env={'CLGEMM_EMULATE_MATRIX': '1'})
rows = list(csv.DictReader(io.StringIO(out)))
expect(rc == 0 and [r['algorithm'] for r in rows] == ['tensor_core_tf32x3', 'clblast'] and
       rows[0]['precision'] == 'tf32x3' and rows[0]['status'] == 'ok' and rows[0]['dtype'] == 'f32',
       '--dtype tf32x3 runs tensor_core_tf32x3 on fp32 data', out + err)

# JSON parses back, one algorithm plus the CLBlast baseline with a ratio.
rc, out, err = run('--device', 'pocl', '--algo', 'tiled', '--size', '40', '--iters', '2',
                   '--format', 'json', '--quiet')
try:
    doc = json.loads(out)
    res = doc['results'][0]
    algs = [r['algorithm'] for r in res['rows']]
    ok = (rc == 0 and algs == ['tiled', 'clblast'] and res['M'] == 40 and
          res['rows'][0]['vs_clblast'] > 0 and res['rows'][0]['runs'] == 2 and
          'PoCL' in res['device_version'])
except (ValueError, KeyError, IndexError) as exc:
    ok = False
    out += repr(exc)
expect(ok, '--format json parses back with the CLBlast ratio', out + err)

# Both forms of a value, and --algo accumulating, give the same run.
for form in (['--size=24', '--algo=naive', '--algo', 'tiled'],
             ['--size', '24', '--algo', 'naive', '--algo=tiled']):
    rc, out, err = run('--device', 'pocl', '--iters', '1', '--format=csv', '--quiet', *form)
    rows = list(csv.DictReader(io.StringIO(out)))
    expect(rc == 0 and [r['algorithm'] for r in rows] == ['naive', 'tiled', 'clblast'] and
           all(r['M'] == '24' and r['K'] == '24' and r['status'] == 'ok' for r in rows),
           'value forms: %s' % ' '.join(form), out + err)

finish()

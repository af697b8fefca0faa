#!/usr/bin/env python3
"""The clgemm binary's general call (--layout, --trans, --ld-pad, --batch, --out,
--epilogue): every algorithm in every layout and transpose, step 7's in-place transposed
reads, what the table's problem line and JSON say of the call, 16-bit data and a 16-bit C
with an epilogue.  Part of the cli suite (test_cli.py says which file checks what).
usage: test_cli_general.py PATH/TO/clgemm PATH/TO/cl"""
import csv
import io
import json

from cli_common import expect, finish, listing, run

# The names --algo list gives and those PoCL cannot run, which every row is compared with.
ALGOS, UNSUPPORTED = listing()


# The general call: every layout and transpose at an odd size, tight (--ld-pad 0) and odd
# (--ld-pad 3) leading dimensions, one problem and a batch of 3, every algorithm and CLBlast
# running the same call on the same buffers: every row ok (those that need matrix hardware say
# so), and CSV carries what ran.
runnable_csv = [a for a in ALGOS if a not in UNSUPPORTED]
for layout in ('row', 'col'):
    for trans in ('NN', 'NT', 'TN', 'TT'):
        for pad, batch in (('0', '1'), ('3', '3')):
            args = ['--layout', layout, '--trans', trans, '--ld-pad', pad, '--batch', batch]
            rc, out, err = run('--device', 'pocl', '--size', '37x29x19', '--iters', '1',
                               '--warmup', '0', '--beta', '0.5', '--format', 'csv', '--quiet',
                               *args)
            rows = list(csv.DictReader(io.StringIO(out)))
            expect(rc == 0 and [r['algorithm'] for r in rows] == ALGOS and
                   [r['algorithm'] for r in rows if r['status'] == 'ok'] == runnable_csv and
                   all(r['status'] == 'unsupported' for r in rows
                       if r['algorithm'] in UNSUPPORTED) and
                   all(r['layout'] == layout and r['trans'] == trans and r['batch'] == batch and
                       r['ld_pad'] == pad for r in rows) and
                   all(float(r['error']) <= float(r['tolerance']) for r in rows
                       if r['status'] == 'ok'),
                   '%s: every row ok, CLBlast included' % ' '.join(args),
                   out + err)
# Step 7's default (READT=0) packs a transposed operand, so the loop above never runs its
# in-place transposed reads (GEMM_TRANS_A/B); READT=1 does.  Tight (ld-pad 0): misaligned rows
# and odd batch strides, so the operands go through a copy that keeps them transposed; padded
# to 32 (the default): read where they lie, the batch in one launch, NaN between the rows.
for layout in ('row', 'col'):
    for trans in ('NT', 'TN', 'TT'):
        for pad, batch in ((['--ld-pad', '0'], '3'), ([], '2')):
            args = ['--layout', layout, '--trans', trans, *pad, '--batch', batch]
            rc, out, err = run('--device', 'pocl', '--algo', 'warp_tiled:READT=1', '--size',
                               '67x45x33', '--iters', '1', '--warmup', '0', '--alpha', '-1.5',
                               '--beta', '0.5', '--no-baseline', '--format', 'csv', '--quiet',
                               *args)
            rows = list(csv.DictReader(io.StringIO(out)))
            expect(rc == 0 and len(rows) == 1 and rows[0]['status'] == 'ok' and
                   'READT=1' in rows[0]['params'].split() and
                   float(rows[0]['error']) <= float(rows[0]['tolerance']) and
                   (rows[0]['layout'], rows[0]['trans'], rows[0]['batch'], rows[0]['ld_pad']) ==
                   (layout, trans, batch, pad[1] if pad else ''),
                   'warp_tiled:READT=1 67x45x33 %s: transposed read in place, ok' % ' '.join(args),
                   out + err)
# The table's problem line says what is not the default; JSON carries it.
rc, out, err = run('--device', 'pocl', '--algo', 'tiled', '--size', '33x17x9', '--iters', '1',
                   '--layout', 'col', '--trans', 'TN', '--batch', '3', '--ld-pad', '0')
problem = next((l for l in out.splitlines() if l.startswith('problem')), '')
expect(rc == 0 and 'A^T*B' in problem and
       problem.endswith('33 x 17 x 9; col-major, trans TN, batch 3, ld pad 0') and
       'FAIL' not in out, 'table: the problem line names layout, trans, batch and ld pad',
       out + err)
rc, out, err = run('--device', 'pocl', '--algo', 'tiled', '--size', '24', '--iters', '1')
problem = next((l for l in out.splitlines() if l.startswith('problem')), '')
expect(rc == 0 and problem.endswith('24 x 24 x 24') and 'A*B' in problem,
       'table: the defaults add nothing to the problem line', out + err)
rc, out, err = run('--device', 'pocl', '--algo', 'tiled', '--size', '24', '--iters', '2',
                   '--trans', 'NT', '--batch', '2', '--format', 'json', '--quiet')
try:
    res = json.loads(out)['results'][0]
    rows = {r['algorithm']: r for r in res['rows']}
    ok = (rc == 0 and res['layout'] == 'row' and res['trans'] == 'NT' and res['batch'] == 2 and
          res['ld_pad'] is None and rows['tiled']['status'] == 'ok' and
          rows['clblast']['status'] == 'ok')
    # GFLOP/s counts every problem of the batch
    ok = ok and abs(rows['tiled']['gflops'] - 2 * 2 * 24 ** 3 / (rows['tiled']['ms_median'] *
                                                                 1e-3) / 1e9) < \
        1e-3 * rows['tiled']['gflops']
except (ValueError, KeyError, IndexError, TypeError) as exc:
    ok = False
    out += repr(exc)
expect(ok, '--format json: layout, trans, batch, ld_pad (null: default); GFLOP/s of the batch',
       out + err)
# --dtype with the general call: the 16-bit kernel (emulated here) on transposed column-major
# batches, and the fp32 rows on the rounded values.
rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--algo', 'naive', '--dtype',
                   'bf16', '--size', '40x24x20', '--iters', '1', '--layout', 'col', '--trans',
                   'TT', '--batch', '2', '--ld-pad', '1', '--format', 'csv', '--quiet',
                   env={'CLGEMM_EMULATE_MATRIX': '1'})
rows = {r['algorithm']: r for r in csv.DictReader(io.StringIO(out))}
expect(rc == 0 and rows.get('tensor_core', {}).get('precision') == 'bf16' and
       all(r['status'] == 'ok' for r in rows.values()) and len(rows) == 3,
       '--dtype bf16 --layout col --trans TT --batch 2: 16-bit kernel ok, others ok', out + err)

# --out and --epilogue: every row computes the whole operation on a 16-bit C (emulated matrix
# units too), CLBlast's row is the plain fp32 GEMM and says so; CSV and the table carry both.
rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--algo', 'block_tiled_vectorized',
                   '--dtype', 'bf16', '--out', 'bf16', '--epilogue', 'bias_gelu', '--size',
                   '40x24x20', '--iters', '1', '--layout', 'col', '--beta', '0.5', '--ld-pad', '1',
                   '--format', 'csv', '--quiet', env={'CLGEMM_EMULATE_MATRIX': '1'})
rows = {r['algorithm']: r for r in csv.DictReader(io.StringIO(out))}
expect(rc == 0 and len(rows) == 3 and all(r['status'] == 'ok' for r in rows.values()) and
       all(r['c_type'] == 'bf16' and r['epilogue'] == 'bias_gelu' for r in rows.values()) and
       'plain fp32 GEMM' in rows['clblast']['note'],
       '--out bf16 --epilogue bias_gelu: ok, CLBlast plain and says so', out + err)
rc, out, err = run('--device', 'pocl', '--algo', 'naive', '--out', 'f16', '--epilogue', 'relu',
                   '--size', '20', '--iters', '1', '--quiet')
expect(rc == 0 and 'C f16' in out and 'epilogue relu' in out and 'plain fp32 GEMM' in out,
       'table: the problem line names C f16 and the epilogue; CLBlast note', out + err)

finish()

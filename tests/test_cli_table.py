#!/usr/bin/env python3
"""The clgemm binary's table: what it names, the unsupported rows folded into one line (and
--show-unsupported, --algo all, named algorithms and JSON keeping them), progress lines,
--device all, --cold-l2 and --no-check.  Part of the cli suite (test_cli.py says which file
checks what).  usage: test_cli_table.py PATH/TO/clgemm PATH/TO/cl"""
import csv
import io
import json

from cli_common import expect, finish, listing, run

# The names --algo list gives and those PoCL cannot run, which the table's rows are compared
# with.
ALGOS, UNSUPPORTED = listing()


def table_rows(out):
    # The table's rows: from the header line to the first blank line.
    lines = out.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('algorithm '))
    rows = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        rows.append(line.split()[0])
    return rows


# The table names device, driver and size, and every algorithm it ran; those the device
# cannot run are one line after it, without their rows or long notes, on stdout and stderr.
rc, out, err = run('--device', 'pocl', '--size', '50x20x30', '--iters', '1')
runnable = [a for a in ALGOS if a not in UNSUPPORTED]
expect(UNSUPPORTED and 'tensor_core' in UNSUPPORTED, 'PoCL cannot run tensor_core', out)
skipped = [l for l in out.splitlines() if l.startswith('skipped')]
expect(rc == 0 and 'driver' in out and '50 x 20 x 30' in out and
       table_rows(out) == runnable and 'FAIL' not in out and
       skipped == ['skipped (not for this device or this data): %s \u2014 --show-unsupported shows why'
                   % ', '.join(UNSUPPORTED)] and 'matrix hardware' not in out,
       'table: rows for what runs, one line names the unsupported', out + err)
expect('clgemm: [' in err, 'progress lines on stderr', err)
progress = {l.split('] ', 1)[1].split()[1]: l for l in err.splitlines()
            if l.startswith('clgemm: [')}
expect(all(progress.get(a, '').rstrip().endswith(' unsupported') for a in UNSUPPORTED) and
       'matrix hardware' not in err, 'progress: one short line per unsupported algorithm', err)

# --show-unsupported (with --algo all) restores the rows and the reasons.
rc, out, err = run('--device', 'pocl', '--algo', 'all', '--show-unsupported', '--size', '24',
                   '--iters', '1', '--quiet')
expect(rc == 0 and table_rows(out) == ALGOS and 'skipped' not in out and
       all(('%s: unsupported on this device: ' % a) in out for a in UNSUPPORTED) and
       'matrix hardware' in out, '--algo all --show-unsupported: every row and why', out + err)
rc, out, err = run('--device', 'pocl', '--algo', 'all', '--size', '24', '--iters', '1', '--quiet')
expect(rc == 0 and table_rows(out) == runnable and 'skipped (not for this device' in out,
       '--algo all alone folds the unsupported rows like the default', out + err)
# An algorithm asked for by name keeps its row and its reason; JSON keeps every row.
rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--algo', 'naive', '--size', '24',
                   '--iters', '1', '--quiet')
expect(rc == 0 and table_rows(out) == ['tensor_core', 'naive', 'clblast'] and
       'skipped' not in out and 'tensor_core: unsupported on this device: ' in out,
       'a named unsupported algorithm keeps its row and note', out + err)
rc, out, err = run('--device', 'pocl', '--size', '24', '--iters', '1', '--quiet', '--format',
                   'json')
try:
    rows = {r['algorithm']: r for r in json.loads(out)['results'][0]['rows']}
    ok = rc == 0 and all(rows[a]['status'] == 'unsupported' and rows[a]['note']
                         for a in UNSUPPORTED) and len(rows) == len(ALGOS)
except (ValueError, KeyError, IndexError) as exc:
    ok = False
    out += repr(exc)
expect(ok, 'JSON keeps the unsupported rows, with their notes', out + err)

# --device all: every device, then a side-by-side table when there is more than one.
rc, out, err = run('--device', 'all', '--size', '24', '--iters', '1', '--quiet', '--format',
                   'json')
expect(rc == 0 and len(json.loads(out)['results']) >= 1, '--device all runs every device',
       out + err)

# --cold-l2: accepted, said in the JSON ("l2"), CSV and problem line; GB/s counts A, B and C
# once at their element sizes, C twice when beta != 0 (a 16-bit kernel reads 2-byte A and B).
def gbps_ok(r, M, N, K, ab, beta):
    want = (M * K * ab + K * N * ab + M * N * 4 * (2 if beta else 1)) / (r['ms_median'] * 1e6)
    return abs(r['gbps'] - want) < 1e-3 * want
for cold, dtype, beta in ((True, 'f32', '0.5'), (False, 'bf16', '0')):
    rc, out, err = run('--device', 'pocl', '--algo', 'tensor_core', '--size', '24x40x16',
                       '--trans', 'NT', '--dtype', dtype, '--beta', beta, '--iters', '2',
                       '--format', 'json', '--quiet', *(['--cold-l2'] if cold else []),
                       env={'CLGEMM_EMULATE_MATRIX': '1'})
    try:
        res = json.loads(out)['results'][0]
        rows = {r['algorithm']: r for r in res['rows']}
        ok = (rc == 0 and res['l2'] == ('cold' if cold else 'warm') and
              res.get('l2_eviction') == ('read' if cold else None) and
              gbps_ok(rows['tensor_core'], 24, 40, 16, 4 if dtype == 'f32' else 2, beta != '0')
              and gbps_ok(rows['clblast'], 24, 40, 16, 4, beta != '0'))
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        ok = False
        out += repr(exc)
    expect(ok, '%s --dtype %s --beta %s: JSON l2 and GB/s' % ('--cold-l2' if cold else 'warm',
                                                               dtype, beta), out + err)
rc, out, err = run('--device', 'pocl', '--algo', 'tiled', '--size', '24', '--iters', '1',
                   '--cold-l2')
csv_rc, csv_out, _ = run('--device', 'pocl', '--algo', 'tiled', '--size', '24', '--iters', '1',
                         '--cold-l2', '--format', 'csv', '--quiet')
expect(rc == 0 and csv_rc == 0 and '24 x 24 x 24; cold L2' in out and
       [r['l2'] for r in csv.DictReader(io.StringIO(csv_out))] == ['cold', 'cold'],
       '--cold-l2: the problem line and the CSV say cold', out + err + csv_out)

# --no-check says so instead of pretending.
rc, out, err = run('--device', 'pocl', '--algo', 'naive', '--size', '20', '--iters', '1',
                   '--no-check', '--format', 'csv', '--quiet')
rows = list(csv.DictReader(io.StringIO(out)))
expect(rc == 0 and rows[0]['status'] == 'unchecked' and rows[0]['error'] == '',
       '--no-check reports unchecked', out + err)

finish()

#!/usr/bin/env python3
"""Print clgemm --format json results as a compact table (for logs and the README)."""
import json
import sys

for path in sys.argv[1:]:
    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as ex:
        print('%s: no results (%s)' % (path, ex))
        continue
    for res in doc['results']:
        print('%s | %s | driver %s | %dx%dx%d' % (res['device'], res['platform'], res['driver'],
                                                  res['M'], res['N'], res['K']))
        for r in res['rows']:
            def f(key, fmt):
                return fmt % r[key] if r[key] is not None else '-'
            print('  %-24s %10s ms %10s GFLOP/s %8s vs CLBlast  err %9s %-6s %s  %s  [%s]' % (
                r['algorithm'], f('ms_median', '%.3f'), f('gflops', '%.0f'),
                f('vs_clblast', '%.2fx'), f('error', '%.1e'), r.get('precision') or '-',
                r['status'], r.get('backend') or '', r['params']))

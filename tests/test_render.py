"""bench/render_load.py's steadiness check: a comparison figure whose median lies far above
its own minimum (runs disturbed) is left out of the rendered tables, not compared.  The
figures are layouts-2's cuBLAS bf16 bmm of 512 x 128^2 x 64 on the H100 (2026-11-27: median
0.3218 ms, minimum 0.0109) and a steady one from the same run."""
import json
import os
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
import render_load  # noqa: E402

failures = 0


def expect(cond, what):
    global failures
    print('%s %s' % ('ok  ' if cond else 'FAIL', what))
    failures += not cond


disturbed = {'mode': 'bf16', 'M': 128, 'N': 128, 'K': 64, 'ms_median': 0.3218,
             'ms_min': 0.0109, 'gflops': 1000.0, 'batch': 512}
steady = {'mode': 'f16', 'M': 128, 'N': 128, 'K': 64, 'ms_median': 0.0112, 'ms_min': 0.0102,
          'gflops': 95000.0, 'batch': 512}
expect(not render_load.steady(disturbed), 'a median 29.6x its minimum is not steady')
expect(render_load.steady(steady), 'a median 1.1x its minimum is')
expect(render_load.steady({'gflops': 1.0}), 'a row without times is kept as it is')
with tempfile.TemporaryDirectory() as d:
    json.dump({'measured': True, 'rows': [disturbed, steady]},
              open(os.path.join(d, 'cublas.json'), 'w'))
    table, doc = render_load.cublas_from(d)
    expect(('bf16', 128, 128, 64) not in table and ('f16', 128, 128, 64) in table,
           'cublas_from leaves the disturbed figure out and keeps the steady one')


# render.py's README table of layouts and epilogues shows one device: on 2026-11-28 the H200's
# epilogues (newer than the H100's) sat under the H100's layouts and its name.
import render  # noqa: E402


class FakeRun:
    def __init__(self, device, preset, date):
        self.device, self.presets, self.date = device, {preset}, date
        self.rows = [{'status': 'ok', 'gflops': 1.0}]

    def order(self):
        return (self.date, '', self.device)


H100, H200 = 'NVIDIA H100 80GB HBM3', 'NVIDIA H200'
runs = [FakeRun(H100, 'layouts', '2026-11-28'), FakeRun(H200, 'layouts', '2026-11-26'),
        FakeRun(H100, 'epilogues', '2026-11-27'), FakeRun(H200, 'epilogues', '2026-11-28')]
lrun, erun = render.operands_runs(runs, None)
expect(lrun.device == H100 and erun.device == H100 and erun.date == '2026-11-27',
       'the README takes the epilogues of its layouts\' device, not a newer one of another')
lrun, erun = render.operands_runs(runs[:2] + runs[3:], None)
expect(lrun.device == H100 and erun.device == H200,
       'and another device\'s where that device has none')
print('%d failed' % failures)
sys.exit(1 if failures else 0)

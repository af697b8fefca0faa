"""What the cli suite's scripts share (test_cli.py, test_cli_general.py, test_cli_table.py,
test_cli_planted.py, test_cli_tuning.py): the clgemm binary and the kernel directory from the
command line, run(), expect() and the count each script prints at its end, the PoCL device's
line of --list-devices, and the algorithm listing that the general call's and the table's
checks compare their rows with.

Each script is its own meson test (so that they run side by side) and is run as
`SCRIPT PATH/TO/clgemm PATH/TO/cl`."""
import csv
import io
import os
import sys

# Python puts a script's own directory first on sys.path, so the scripts find this module and
# clgemm_run; the same for this module itself, wherever it is imported from.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from clgemm_run import runner  # noqa: E402  (after the path above)

CLGEMM, CL_DIR = sys.argv[1], sys.argv[2]
failures = 0
checks = 0


run = runner(CLGEMM)


def expect(cond, what, detail=''):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print('FAIL', what, detail[-2000:] if detail else '')
    else:
        print('ok  ', what)


def finish():
    """The script's count, and its exit status: 1 when a check failed."""
    print('%d checks, %d failed' % (checks, failures))
    sys.exit(1 if failures else 0)


def pocl_device_line():
    """The PoCL device's line of --list-devices (its name, max alloc and compute units)."""
    rc, out, err = run('--list-devices')
    return next(line for line in out.splitlines() if 'PoCL' in line)


def algo_list():
    """`--algo list` on PoCL: (exit status, its output, the names in its order, auto too)."""
    rc, out, err = run('--device', 'pocl', '--algo', 'list')
    names = [line.split()[0] for line in out.splitlines()
             if line.strip() and not line[0].isspace() and not line.startswith(('device', 'name'))]
    return rc, out, names


def every_algorithm_csv():
    """Every algorithm at 65x33x17 as CSV: (exit status, stdout, stderr, the rows, and the
    algorithms this device cannot run, by the CSV, which keeps every row).  Its cost is the
    builds of every default kernel (cold caches: tens of seconds on PoCL), the same ones the
    general call's and the table's runs of every algorithm need."""
    rc, out, err = run('--device', 'pocl', '--size', '65x33x17', '--iters', '2', '--format', 'csv',
                       '--quiet')
    rows = list(csv.DictReader(io.StringIO(out)))
    unsupported = [r['algorithm'] for r in rows if r['status'] == 'unsupported']
    return rc, out, err, rows, unsupported


def listing():
    """(ALGOS, UNSUPPORTED) as test_cli.py computes them and checks them: every name of
    `--algo list` but auto, and those of them this device cannot run."""
    names = algo_list()[2]
    return [n for n in names if n != 'auto'], every_algorithm_csv()[4]

#!/usr/bin/env python3
"""The clgemm binary catches what it must: a planted wrong element and a write into the
padding (through CLGEMM_KERNEL_DIR) give FAIL and exit 1, a kernel that does not compile shows
its build log while the others run, a parameter a kernel refuses gives the kernel's words, a
ring past the local memory is refused, and a row is prepared with the call's transposes.  Part
of the cli suite (test_cli.py says which file checks what).
usage: test_cli_planted.py PATH/TO/clgemm PATH/TO/cl"""
import csv
import io
import os
import shutil
import tempfile

from cli_common import CL_DIR, expect, finish, run


# A planted wrong result (one element off by 0.01) must be caught: FAIL row, exit 1.
with tempfile.TemporaryDirectory() as tmp:
    bad_dir = os.path.join(tmp, 'cl')
    shutil.copytree(CL_DIR, bad_dir)
    path = os.path.join(bad_dir, 'epilogue.h')
    text = open(path).read()
    needle = 'inline float gemm_finish1('
    assert needle in text
    text = text.replace(needle, 'inline float gemm_finish1_true(', 1)
    head, tail = text.rsplit('#endif', 1)
    text = head + '''inline float gemm_finish1(const float acc, const float alpha, const float beta,
                          __global const gemm_c_t *p, const float b)
{
    return gemm_finish1_true(acc, alpha, beta, p, b) +
           (get_global_id(0) == 1 && get_global_id(1) == 2 ? 0.01f : 0.0f);
}
#endif''' + tail
    open(path, 'w').write(text)
    rc, out, err = run('--device', 'pocl', '--algo', 'block_tiled', '--size', '70x50x30',
                       '--iters', '1', '--quiet', env={'CLGEMM_KERNEL_DIR': bad_dir})
    expect(rc == 1 and 'FAIL' in out, 'planted wrong result -> FAIL, exit 1', out + err)
    # A write outside C's matrices (one element past the last entry of a problem, into the
    # padding) fails the row even though every entry of C is right.
    shutil.copy(os.path.join(CL_DIR, 'epilogue.h'), os.path.join(bad_dir, 'epilogue.h'))
    naive_path = os.path.join(bad_dir, '01_naive.cl')
    naive = open(naive_path).read()
    store = 'gemm_store1(C + offC, ldc, bias, row, col, acc, alpha, beta);'
    assert store in naive
    open(naive_path, 'w').write(naive.replace(
        store, store + '\n    if (row == M - 1 && col == N - 1)\n        C[offC + row * ldc + col + 1] = 0.0f;', 1))
    rc, out, err = run('--device', 'pocl', '--algo', 'naive', '--size', '20x12x10', '--iters',
                       '1', '--quiet', '--ld-pad', '3', '--batch', '2', '--format', 'csv',
                       env={'CLGEMM_KERNEL_DIR': bad_dir})
    rows = {r['algorithm']: r for r in csv.DictReader(io.StringIO(out))}
    expect(rc == 1 and rows.get('naive', {}).get('status') == 'FAIL' and
           float(rows['naive']['error']) <= float(rows['naive']['tolerance']) and
           "outside C's matrices" in rows['naive']['note'] and
           rows['clblast']['status'] == 'ok', 'a write into the padding -> FAIL, exit 1',
           out + err)
    open(naive_path, 'w').write(naive)
    # A kernel that does not compile: its build log is shown and the rest still run.
    broken = os.path.join(bad_dir, '03_tiled.cl')
    open(broken, 'a').write('\nthis is not OpenCL C;\n')
    rc, out, err = run('--device', 'pocl', '--size', '20', '--iters', '1', '--quiet',
                       env={'CLGEMM_KERNEL_DIR': bad_dir})
    expect(rc == 1 and 'BUILD FAILED' in out and 'build log' in err and
           'clblast' in out, 'build failure shows its log, others still run', out + err)

# Parameters a kernel refuses (its #error): the row's note gives the kernel's own words.
rc, out, err = run('--device', 'pocl', '--algo', 'warp_tiled:BM=96', '--size', '20', '--iters',
                   '1', '--quiet', '--no-baseline')
note = [line for line in out.splitlines() + err.splitlines() if 'clBuildProgram failed' in line]
expect(rc == 1 and 'BUILD FAILED' in out and note and
       '"gemm_warp_tiled: BM must be a multiple of WM' in note[0],
       'a refused parameter -> the kernel\'s #error in the note', out + err)
# A ring of slots beyond the 256 KiB a wgmma descriptor addresses (PoCL offers more local memory
# than Hopper's 227 KiB): refused, where it would have read the wrong slot and printed FAIL.
rc, out, err = run('--device', 'pocl', '--algo', 'wgmma_tma:SPLIT=1,PACKA=3,BN=256,WGN=256,STAGES=4',
                   '--size', '70x90x100', '--iters', '1', '--quiet', '--no-baseline',
                   env={'CLGEMM_EMULATE_MATRIX': '1'})
expect(rc == 1 and 'BUILD FAILED' in out and "exceed the device's local memory" in out + err,
       'a ring past 256 KiB of local memory is refused', out + err)

# A kernel prepared as the call builds it: step 10's 16-column tile reads a 16-bit B stored
# N x K only (its plain build, B stored K x N, is refused), so a row prepared with the plain
# build failed to build although the call itself runs (a mirrored shape rule chose this).
rc, out, err = run('--device', 'pocl', '--algo', 'wgmma_tma:BM=64,BN=16,WGN=16,STAGES=2,INFLIGHT=1',
                   '--dtype', 'bf16', '--out', 'bf16', '--trans', 'NT', '--size', '70x16x64',
                   '--iters', '1', '--quiet', '--no-baseline', env={'CLGEMM_EMULATE_MATRIX': '1'})
expect(rc == 0 and ' ok' in out, 'a row prepared with the call\'s transposes runs', out + err)

finish()

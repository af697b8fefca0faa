# READT=1 register variants of cl/07_warp_tiled.cl (probe44): r0 HEAD; r1 operands addressed as
# the kernel argument plus one int offset (as ad962ad did for C); r2 r1 for B alone.
import shutil
root = '.'; out = root + '/.gpu/var6'
src = open(root + '/cl/07_warp_tiled.cl').read()

def sub(s, a, b, n=1):
    assert s.count(a) == n, (a, s.count(a))
    return s.replace(a, b)

def int_offsets(s, which):
    # loads: P + (at + ...)
    s = sub(s, '''inline float4 wt_kc_load(__global const float *P, const int ld, const int w_left,''',
            '''inline float4 wt_kc_load(__global const float *P, const int at, const int ld, const int w_left,''')
    s = sub(s, '''        return wt_load4(P + r * ld + 4 * kq, r < w_left ? k_left - 4 * kq : 0, true);
    return wt_load4(P + (CLAMP ? min(r, w_left - 1) : r) * ld + 4 * kq, 4, false);''',
            '''        return wt_load4(P + (at + r * ld + 4 * kq), r < w_left ? k_left - 4 * kq : 0, true);
    return wt_load4(P + (at + (CLAMP ? min(r, w_left - 1) : r) * ld + 4 * kq), 4, false);''')
    s = sub(s, '''inline float4 wt_wc_load(__global const float *P, const int ld, const int W, const int w_left,''',
            '''inline float4 wt_wc_load(__global const float *P, const int at, const int ld, const int W, const int w_left,''')
    s = sub(s, '''        return wt_load4(P + k * ld + c, k < k_left ? w_left - c : 0, true);
    return wt_load4(P + k * ld + (CLAMP ? min(c, w_left - 4) : c), 4, false);''',
            '''        return wt_load4(P + (at + k * ld + c), k < k_left ? w_left - c : 0, true);
    return wt_load4(P + (at + k * ld + (CLAMP ? min(c, w_left - 4) : c)), 4, false);''')
    s = sub(s, '''                     __global const float *A, const int lda,
                     __global const float *B, const int ldb,''',
            '''                     __global const float *A, const int a_at, const int lda,
                     __global const float *B, const int b_at, const int ldb,''')
    s = sub(s, 'wt_wc_load(A, lda,', 'wt_wc_load(A, a_at, lda,')
    s = sub(s, 'wt_kc_load(A, lda,', 'wt_kc_load(A, a_at, lda,')
    s = sub(s, 'wt_kc_load(B, ldb,', 'wt_kc_load(B, b_at, ldb,')
    s = sub(s, 'wt_wc_load(B, ldb,', 'wt_wc_load(B, b_at, ldb,')
    s = sub(s, '''    A += offA + (GEMM_TRANS_A ? row0 : row0 * lda);
    B += offB + (GEMM_TRANS_B ? col0 * ldb : col0);''',
            '''    const int a_at = offA + (GEMM_TRANS_A ? row0 : row0 * lda);
    const int b_at = offB + (GEMM_TRANS_B ? col0 * ldb : col0);''')
    s = sub(s, 'wt_fetch(ra, rb, A, lda, B, ldb,', 'wt_fetch(ra, rb, A, a_at, lda, B, b_at, ldb,', 2)
    s = sub(s, 'wt_fetch(ra, rb, A + k_next * a_k, lda, B + k_next * b_k, ldb,',
            'wt_fetch(ra, rb, A, a_at + k_next * a_k, lda, B, b_at + k_next * b_k, ldb,', 4)
    return s

V = {'r0': src, 'r1': int_offsets(src, 'both')}
shutil.rmtree(out, ignore_errors=True)
for k, v in V.items():
    d = out + '/' + k
    shutil.copytree(root + '/cl', d)
    open(d + '/07_warp_tiled.cl', 'w').write(v)
print('ok', list(V))

# Timing-only variants of step 7's READT=1 build (probe48; results are wrong where marked, run
# with --no-check): which part of reading B^T in place costs the 20% against the plain build.
# t0 HEAD; ta B's slice stored into local memory as float4s, untransposed (wrong); tb B's slice
# fetched as rows of BN values, as the plain build fetches B (wrong data); tc both (the plain
# build's fetch and stash inside the READT=1 build).
import shutil
root = '.'; out = root + '/.gpu/var7'
src = open(root + '/cl/07_warp_tiled.cl').read()

def sub(s, a, b):
    assert s.count(a) == 1, (a, s.count(a))
    return s.replace(a, b)

STASH = '''#if GEMM_TRANS_B
        wt_kc_stash((__local float *)Bs, WT_BS_ROW, rb[i], tid, i);
#else'''
FETCH = '''#if GEMM_TRANS_B
        rb[i] = wt_kc_load(B, ldb, cols_left, k_left, tid, i, guarded);
#else'''
ta = sub(src, STASH, '''#if GEMM_TRANS_B
        Bs[tid + i * WT_THREADS] = rb[i];
#else''')
tb = sub(src, FETCH, '''#if GEMM_TRANS_B
        rb[i] = wt_wc_load(B, ldb, BN, cols_left, k_left, tid, i, guarded);
#else''')
tc = sub(ta, FETCH, '''#if GEMM_TRANS_B
        rb[i] = wt_wc_load(B, ldb, BN, cols_left, k_left, tid, i, guarded);
#else''')
V = {'t0': src, 'ta': ta, 'tb': tb, 'tc': tc}
shutil.rmtree(out, ignore_errors=True)
for k, v in V.items():
    d = out + '/' + k
    shutil.copytree(root + '/cl', d)
    open(d + '/07_warp_tiled.cl', 'w').write(v)
print('ok', list(V))

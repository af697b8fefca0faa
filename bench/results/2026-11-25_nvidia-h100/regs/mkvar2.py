import shutil, subprocess, re
root='.'; out=root+'/.gpu/var2'
head=open(root+'/cl/07_warp_tiled.cl').read()
w0=open(root+'/.gpu/var/v5/07_warp_tiled.cl').read()
def block(s, start, end):
    i=s.index(start); j=s.index(end,i); return s[i:j]
def w1(s):
    s2=s.replace('    C += offC + row0 * ldc + col0;\n','    GEMM_C_MOVE(row0, col0);\n'); assert s2!=s; return s2
def w2(s):
    s=w1(s).replace('    GEMM_C_MOVE(row0, col0);\n','    GEMM_C_MOVE(row0, col0);\n    GEMM_BIAS_MOVE(row0, col0);\n')
    s=s.replace('__global float *restrict C, const int offC, const int ldc,\n __global const float *restrict bias',
                '__global gemm_c_t *restrict C, const int offC, const int ldc,\n __global const gemm_c_t *restrict bias')
    a=s.replace('wt_store4(C + r * ldc + c, acc[i][j], alpha, beta, 4, false)','gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, 4, false)')
    a=a.replace('wt_store4(C + r * ldc + c, acc[i][j], alpha, beta, cols_left - c, true)','gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, cols_left - c, true)')
    assert a.count('gemm_store4(')==2, a.count('gemm_store4(')
    return a
def w3(s):
    # HEAD's fetch/stash helpers and macros replace the old ones
    old_helpers=block(s,'/* Where float4 number i','__kernel __attribute__')
    new_helpers=block(head,'/* The two shapes a slice has','__kernel __attribute__')
    s=s.replace(old_helpers,new_helpers)
    s=s.replace('#define WT_AS_ROW (BM + APAD)           /* floats per row of the transposed A tile */',
      '#define WT_AS_ROW (BM + APAD)\n#define WT_BS_ROW BN\n#define WT_WKQ WT_AKQ\n#define WT_WROWS WT_AROWS')
    s=s.replace('wt_stash((__local float *)As4[0], Bs4[0][0], ra, rb, tid)','wt_stash(As4[0][0], Bs4[0][0], ra, rb, tid)')
    s=s.replace('wt_stash((__local float *)As4[stage ^ 1], Bs4[stage ^ 1][0], ra, rb, tid)','wt_stash(As4[stage ^ 1][0], Bs4[stage ^ 1][0], ra, rb, tid)')
    # old store helper was in the removed block: add it back
    st=block(w0,'/* Four neighbouring results of one row','__kernel __attribute__')
    s=s.replace('__kernel __attribute__',st+'__kernel __attribute__',1)
    return s
def w4(s):
    a='    A += offA + row0 * lda;\n    B += offB + col0;\n'
    assert a in s
    s=s.replace(a,'    const int a_k = GEMM_TRANS_A ? lda : 1, b_k = GEMM_TRANS_B ? 1 : ldb;\n    A += offA + (GEMM_TRANS_A ? row0 : row0 * lda);\n    B += offB + (GEMM_TRANS_B ? col0 * ldb : col0);\n')
    s=s.replace('A + k_next, lda, B + k_next * ldb, ldb','A + k_next * a_k, lda, B + k_next * b_k, ldb')
    g='    const bool guard = CLAMP ? cols_left < BN && (N & 3) != 0 : edge;\n'
    assert g in s
    s=s.replace(g,block(head,'#if GEMM_TRANS_B /* (#if','\n    float4 acc')+'\n')
    return s
def w5(s):
    s=s.replace('__local float4 As4[2][BK][WT_AS_ROW / 4];','__local float4 As4[2][BK * WT_AS_ROW / 4];')
    s=s.replace('__local float4 Bs4[2][BK][BN / 4];','__local float4 Bs4[2][BK * BN / 4];')
    s=s.replace('wt_stash((__local float *)As4[0], Bs4[0][0], ra, rb, tid)','wt_stash((__local float *)As4[0], Bs4[0], ra, rb, tid)')
    s=s.replace('wt_stash((__local float *)As4[stage ^ 1], Bs4[stage ^ 1][0], ra, rb, tid)','wt_stash((__local float *)As4[stage ^ 1], Bs4[stage ^ 1], ra, rb, tid)')
    s=s.replace('&As4[stage][0][a_col]','&As4[stage][a_col]').replace('&Bs4[stage][0][b_col]','&Bs4[stage][b_col]')
    return s
V={'w0':lambda s:s,'w1':w1,'w2':w2,'w3':w3,'w4':w4,'w5':w5}
shutil.rmtree(out,ignore_errors=True)
for name,f in V.items():
    d=out+'/'+name
    shutil.copytree(root+'/cl',d)
    open(d+'/07_warp_tiled.cl','w').write(f(w0))
print('ok')

import os, shutil, subprocess, re
root='.'; out=root+'/.gpu/var'
head=open(root+'/cl/07_warp_tiled.cl').read()
old=subprocess.run(['git','-C',root,'show','484da27:cl/07_warp_tiled.cl'],capture_output=True,text=True).check_returncode() or None
old=subprocess.run(['git','-C',root,'show','484da27:cl/07_warp_tiled.cl'],capture_output=True,text=True).stdout
PLAIN='''
inline void wt_store4_plain(__global float *c, const float4 acc, const float alpha, const float beta,
                      const int valid, const bool guarded)
{
    if (!guarded || valid >= 4) {
        *(__global float4 *)c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *(__global const float4 *)c;
    } else {
        if (valid > 0) c[0] = beta == 0.0f ? alpha * acc.x : alpha * acc.x + beta * c[0];
        if (valid > 1) c[1] = beta == 0.0f ? alpha * acc.y : alpha * acc.y + beta * c[1];
        if (valid > 2) c[2] = beta == 0.0f ? alpha * acc.z : alpha * acc.z + beta * c[2];
    }
}
'''
def v1(s):  # plain float stores (old wt_store4)
    s=s.replace('__kernel __attribute__', PLAIN+'\n__kernel __attribute__',1)
    s=s.replace('gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, 4, false)','wt_store4_plain(C + r * ldc + c, acc[i][j], alpha, beta, 4, false)')
    s=s.replace('gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, cols_left - c, true)','wt_store4_plain(C + r * ldc + c, acc[i][j], alpha, beta, cols_left - c, true)')
    assert s.count('wt_store4_plain(')==3
    return s
def v2(s):  # C and bias moved after the loop
    a='    GEMM_C_MOVE(row0, col0);\n    GEMM_BIAS_MOVE(row0, col0);\n'
    assert a in s
    s=s.replace(a,'')
    s=s.replace('#pragma unroll\n    for (int i = 0; i < TM; ++i) {\n        const int r', a+'#pragma unroll\n    for (int i = 0; i < TM; ++i) {\n        const int r')
    return s
def v3(s):  # 3-D local arrays as before
    s=s.replace('__local float4 As4[2][BK * WT_AS_ROW / 4];','__local float4 As4[2][BK][WT_AS_ROW / 4];')
    s=s.replace('__local float4 Bs4[2][BK * WT_BS_ROW / 4];','__local float4 Bs4[2][BK][WT_BS_ROW / 4];')
    s=s.replace('wt_stash(As4[0], Bs4[0], ra, rb, tid)','wt_stash(As4[0][0], Bs4[0][0], ra, rb, tid)')
    s=s.replace('wt_stash(As4[stage ^ 1], Bs4[stage ^ 1], ra, rb, tid)','wt_stash(As4[stage ^ 1][0], Bs4[stage ^ 1][0], ra, rb, tid)')
    s=s.replace('&As4[stage][a_col]','&As4[stage][0][a_col]').replace('&Bs4[stage][b_col]','&Bs4[stage][0][b_col]')
    return s
def v5(_):  # the 484da27 kernel under today's arguments
    s=old.replace('__global float *restrict C, const int offC, const int ldc)',
      '__global float *restrict C, const int offC, const int ldc,\n __global const float *restrict bias, const int offBias, const int strideA, const int strideB, const int strideC)')
    s=s.replace('{\n    /* Two stages','{\n    GEMM_BATCH_ENTRY(A, B, C);\n    /* Two stages',1)
    s=s.replace('#include "common.h"','#include "common.h"\n'+'''
inline float gemm_epilogue(float acc, float alpha, float beta, __global const float *c)
{ return beta == 0.0f ? alpha * acc : alpha * acc + beta * *c; }
inline float4 gemm_epilogue4(float4 acc, float alpha, float beta, __global const float4 *c)
{ return beta == 0.0f ? alpha * acc : alpha * acc + beta * *c; }
''',1)
    return s
V={'v0':lambda s:s,'v1':v1,'v2':v2,'v3':v3,'v4':lambda s:v3(v2(v1(s))),'v5':v5,'v6':lambda s:v3(v2(s)),'v7':lambda s:v2(v1(s))}
for name,f in V.items():
    d=out+'/'+name
    shutil.copytree(root+'/cl',d)
    open(d+'/07_warp_tiled.cl','w').write(f(head))
print('ok')

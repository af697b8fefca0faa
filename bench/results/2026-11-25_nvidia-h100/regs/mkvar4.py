import shutil
root='.'; out=root+'/.gpu/var4'
ep=open(root+'/cl/epilogue.h').read()
i=ep.index('inline void gemm_store4('); j=ep.index('\n}\n',i)+3
orig=ep[i:j]
HDR='''inline void gemm_store4(__global gemm_c_t *C, const int ldc, __global const gemm_c_t *bias,
                        const int r, const int c, const float4 acc, const float alpha,
                        const float beta, const int valid, const bool guarded)
{
'''
VEC='''        float4 x = beta == 0.0f ? alpha * acc : alpha * acc + beta * gemm_c_get4(p);
#if GEMM_HAS_BIAS && GEMM_BIAS_ROWS
        x += gemm_c_get(bias + r);
#elif GEMM_HAS_BIAS
        x += gemm_bias_get4(bias + c);
#endif
        gemm_c_put4(p, gemm_act4(x));
'''
y1=HDR+'''    if (!GEMM_TRANS_C && (!guarded || valid >= 4)) {
        __global gemm_c_t *p = C + r * ldc + c;
'''+VEC+'''        return;
    }
    if (valid > 0) gemm_store1(C, ldc, bias, r, c + 0, acc.x, alpha, beta);
    if (valid > 1) gemm_store1(C, ldc, bias, r, c + 1, acc.y, alpha, beta);
    if (valid > 2) gemm_store1(C, ldc, bias, r, c + 2, acc.z, alpha, beta);
    if (valid > 3) gemm_store1(C, ldc, bias, r, c + 3, acc.w, alpha, beta);
}
'''
y2=HDR+'''#if GEMM_TRANS_C
    if (valid > 0) gemm_store1(C, ldc, bias, r, c + 0, acc.x, alpha, beta);
    if (valid > 1) gemm_store1(C, ldc, bias, r, c + 1, acc.y, alpha, beta);
    if (valid > 2) gemm_store1(C, ldc, bias, r, c + 2, acc.z, alpha, beta);
    if (valid > 3) gemm_store1(C, ldc, bias, r, c + 3, acc.w, alpha, beta);
#else
    __global gemm_c_t *p = C + r * ldc + c;
    if (!guarded || valid >= 4) {
'''+VEC+'''    } else {
        if (valid > 0) gemm_c_put(p + 0, gemm_finish1(acc.x, alpha, beta, p + 0, gemm_bias1(bias, r, c + 0)));
        if (valid > 1) gemm_c_put(p + 1, gemm_finish1(acc.y, alpha, beta, p + 1, gemm_bias1(bias, r, c + 1)));
        if (valid > 2) gemm_c_put(p + 2, gemm_finish1(acc.z, alpha, beta, p + 2, gemm_bias1(bias, r, c + 2)));
    }
#endif
}
'''
y3=orig.replace('__global gemm_c_t *p = C + r * ldc + c;','__global gemm_c_t *p = C + (r * ldc + c);')
y4=y2.replace('__global gemm_c_t *p = C + r * ldc + c;','__global gemm_c_t *p = C + (r * ldc + c);')
# y5: orig but the guarded path without the 4th store (valid < 4 there)
y5=orig.replace('        if (valid > 3) gemm_store1(C, ldc, bias, r, c + 3, acc.w, alpha, beta);\n','        if (GEMM_TRANS_C && valid > 3) gemm_store1(C, ldc, bias, r, c + 3, acc.w, alpha, beta);\n')
assert y5!=orig and y3!=orig
V={'y0':orig,'y1':y1,'y2':y2,'y3':y3,'y4':y4,'y5':y5}
shutil.rmtree(out,ignore_errors=True)
for k,v in V.items():
    d=out+'/'+k; shutil.copytree(root+'/cl',d)
    open(d+'/epilogue.h','w').write(ep[:i]+v+ep[j:])
print('ok')

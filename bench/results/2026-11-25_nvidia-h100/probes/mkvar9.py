# 16-bit C in step 7 (probe53): gemm_c_put4 rounding pairs with PTX's cvt.rn.{f16,bf16}x2.f32
# (one instruction per two values, as step 10's stores do with CLGEMM_PTX_SM90A) instead of
# vstorea_half4_rte / the bf16 rounding in C.  c0 HEAD, c1 the cvt form (NVIDIA only).
import shutil
root = '.'; out = root + '/.gpu/var9'
src = open(root + '/cl/epilogue.h').read()
old = '''inline void gemm_c_put4(__global gemm_c_t *p, const float4 x)
{
#if GEMM_CTYPE == 0
    *(__global float4 *)p = x;
#elif GEMM_CTYPE == 1'''
new = '''inline uint gemm_c_pair_nv(const float2 x)
{
    uint r;
#if GEMM_CTYPE == 1
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(x.y), "f"(x.x));
#else
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(x.y), "f"(x.x));
#endif
    return r;
}

inline void gemm_c_put4(__global gemm_c_t *p, const float4 x)
{
#if GEMM_CTYPE == 0
    *(__global float4 *)p = x;
#elif 1
    *(__global uint2 *)p = (uint2)(gemm_c_pair_nv(x.xy), gemm_c_pair_nv(x.zw));
#elif GEMM_CTYPE == 1'''
assert src.count(old) == 1
V = {'c0': src, 'c1': src.replace(old, new)}
shutil.rmtree(out, ignore_errors=True)
for k, v in V.items():
    d = out + '/' + k
    shutil.copytree(root + '/cl', d)
    open(d + '/epilogue.h', 'w').write(v)
print('ok', list(V))

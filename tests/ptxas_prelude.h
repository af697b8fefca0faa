/* The OpenCL built-ins clang's nvcl target lacks (NVIDIA's compiler has its own), put before
 * each kernel that tests/test_tc_ptxas.sh and tests/test_wgmma_ptxas.sh assemble with ptxas. */
#define get_local_id(d) ((d) == 0 ? __nvvm_read_ptx_sreg_tid_x() : __nvvm_read_ptx_sreg_tid_y())
#define get_group_id(d) ((d) == 0 ? __nvvm_read_ptx_sreg_ctaid_x() : \
                         (d) == 1 ? __nvvm_read_ptx_sreg_ctaid_y() : __nvvm_read_ptx_sreg_ctaid_z())
#define get_num_groups(d) ((d) == 0 ? __nvvm_read_ptx_sreg_nctaid_x() : __nvvm_read_ptx_sreg_nctaid_y())
#define barrier(f) __syncthreads()
/* cl/epilogue.h's built-ins: GELU's exp, reciprocal and scalar fma (stand-ins of similar shape, for float
 * and float4 alike) and the f16 loads and stores, as NVIDIA's single conversion instructions */
#define exp(x) (1.0f / (1.0f + (x) * (x)))
__attribute__((overloadable)) static inline float fma(float a, float b, float c)
{
    return __builtin_fmaf(a, b, c);
}
#define native_recip(x) (1.0f / (x))
#define native_exp2(x) exp(x)
#define vstore_half_rte(v, o, p) (((__global ushort *)(p))[o] = __nvvm_f2h_rn(v))
#define vstorea_half2_rte(v, o, p) (vstore_half_rte((v).x, 2 * (o), p), \
                                    vstore_half_rte((v).y, 2 * (o) + 1, p))
#define vstorea_half4_rte(v, o, p) (vstorea_half2_rte((v).xy, 2 * (o), p), \
                                    vstorea_half2_rte((v).zw, 2 * (o) + 1, p))
#define vload_half(o, p) (as_float((((uint)((__global const ushort *)(p))[o] & 0x8000u) << 16) | \
                                   (((uint)((__global const ushort *)(p))[o] & 0x7fffu) << 13)) * \
                          0x1.0p112f)
#define vloada_half4(o, p) ((float4)(vload_half(4 * (o), p), vload_half(4 * (o) + 1, p), \
                                    vload_half(4 * (o) + 2, p), vload_half(4 * (o) + 3, p)))

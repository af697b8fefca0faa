# Step 7's float4 loads with an L2 prefetch-size hint (probe49): NVIDIA's compiler emits plain
# ld.global.nc.v4.f32; a k-contiguous slice reads 32 bytes of each of 128 rows, so each load
# misses to memory for a 32-byte sector, and the next three slices come back for the rest of
# the line.  p1: every unguarded float4 with .L2::128B; p2 .L2::256B; p3 only the k-contiguous
# fetches (A, and B^T with READT=1) with .L2::256B.
import shutil
root = '.'; out = root + '/.gpu/var8'
src = open(root + '/cl/07_warp_tiled.cl').read()

def sub(s, a, b):
    assert s.count(a) == 1, (a, s.count(a))
    return s.replace(a, b)

def helper(hint):
    return '''inline float4 wt_ldg4(__global const float *p)
{
    float a, b, c, d;
    asm("ld.global.nc.%s.v4.f32 {%%0, %%1, %%2, %%3}, [%%4];"
        : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(p));
    return (float4)(a, b, c, d);
}

''' % hint

ANCHOR = '/* Four consecutive floats at p (16-byte aligned).'
LOAD = '''    if (!guarded || valid >= 4)
        return *(__global const float4 *)p;'''
def every(hint):
    s = sub(src, ANCHOR, helper(hint) + ANCHOR)
    return sub(s, LOAD, '''    if (!guarded || valid >= 4)
        return wt_ldg4(p);''')
p3 = sub(src, ANCHOR, helper('L2::256B') + ANCHOR)
p3 = sub(p3, '''    return wt_load4(P + (CLAMP ? min(r, w_left - 1) : r) * ld + 4 * kq, 4, false);''',
         '''    return wt_ldg4(P + (CLAMP ? min(r, w_left - 1) : r) * ld + 4 * kq);''')
V = {'p0': src, 'p1': every('L2::128B'), 'p2': every('L2::256B'), 'p3': p3}
shutil.rmtree(out, ignore_errors=True)
for k, v in V.items():
    d = out + '/' + k
    shutil.copytree(root + '/cl', d)
    open(d + '/07_warp_tiled.cl', 'w').write(v)
print('ok', list(V))

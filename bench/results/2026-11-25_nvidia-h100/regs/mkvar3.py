import shutil, subprocess, sys
sys.path.insert(0,'bench/results/2026-11-25_nvidia-h100/regs')
root='.'; out=root+'/.gpu/var3'
head=open(root+'/cl/07_warp_tiled.cl').read()
w0=open(root+'/.gpu/var/v5/07_warp_tiled.cl').read()
src=open('bench/results/2026-11-25_nvidia-h100/regs/mkvar.py').read()
ns={}
exec(src.split("V={")[0].replace("head=open(root+'/cl/07_warp_tiled.cl').read()","head=open(root+'/cl/07_warp_tiled.cl').read()"), ns)
v1,v3=ns['v1'],ns['v3']
src2=open('bench/results/2026-11-25_nvidia-h100/regs/mkvar2.py').read(); ns2={}
exec(src2.split("V={")[0], ns2)
def block(s,a,b):
    i=s.index(a); j=s.index(b,i); return s[i:j]
def x2(s):  # old fetch/stash helpers (NN only)
    new_helpers=block(s,'/* The two shapes a slice has','/* Write the fetched slice')
    old_h=block(w0,'/* Where float4 number i','/* Write the fetched slice')
    s=s.replace(new_helpers,old_h)
    old_st=block(w0,'/* Write the fetched slice','/* Four neighbouring results')
    new_st=block(s,'/* Write the fetched slice','__kernel __attribute__')
    s=s.replace(new_st,old_st.replace('inline void wt_stash(__local float *As','inline void wt_stash(__local float *As'))
    s=s.replace('wt_stash(As4[0], Bs4[0], ra, rb, tid)','wt_stash((__local float *)As4[0], Bs4[0], ra, rb, tid)')
    s=s.replace('wt_stash(As4[stage ^ 1], Bs4[stage ^ 1], ra, rb, tid)','wt_stash((__local float *)As4[stage ^ 1], Bs4[stage ^ 1], ra, rb, tid)')
    s=s.replace('#define WT_WROWS (WARP / WT_WKQ)','#define WT_WROWS (WARP / WT_WKQ)\n#define WT_AKQ WT_WKQ\n#define WT_AROWS WT_WROWS')
    return s
def x3(s):
    a=block(s,'    const int a_k = GEMM_TRANS_A','    GEMM_C_MOVE')
    s=s.replace(a,'    A += offA + row0 * lda;\n    B += offB + col0;\n')
    s=s.replace('A + k_next * a_k, lda, B + k_next * b_k, ldb','A + k_next, lda, B + k_next * ldb, ldb')
    g=block(s,'#if GEMM_TRANS_B /* (#if','\n    float4 acc')
    s=s.replace(g,'    const bool guard = CLAMP ? cols_left < BN && (N & 3) != 0 : edge;\n')
    return s
def x5(s):
    return ns2['w2'](s).replace('    C += offC + row0 * ldc + col0;\n','    GEMM_C_MOVE(row0, col0);\n')
V={'x0':lambda s:s,'x1':v1,'x2':x2,'x3':x3,'x4':v3,'x5':lambda s:ns2['w2'](w0),'x6':lambda s:ns2['w1'](w0),'x7':lambda s:v1(x3(x2(s)))}
out=root+'/.gpu/var3'
shutil.rmtree(out,ignore_errors=True)
for name,f in V.items():
    d=out+'/'+name
    shutil.copytree(root+'/cl',d)
    open(d+'/07_warp_tiled.cl','w').write(f(head))
print('ok')

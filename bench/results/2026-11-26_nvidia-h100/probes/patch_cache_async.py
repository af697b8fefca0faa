# Rewrites clgemm's cached NVIDIA programs (PTX) of step 7 with PTX performance directives
# between the entry's parameters and its body (probe52): `.maxnreg N`, or `.maxntid 256, 1, 1`
# with `.minnctapersm 2` (what CUDA's __launch_bounds__(256, 2) writes).  The checksum of the
# entry is recomputed (host/lib/cache.c's format).
# usage: patch_cache.py SRC_DIR DST_DIR DIRECTIVES   (DIRECTIVES: lines joined by ';')
import os, struct, sys
src, dst, lines = sys.argv[1], sys.argv[2], sys.argv[3].split(';')
SEED, PRIME, MASK = 0xcbf29ce484222325, 0x100000001b3, (1 << 64) - 1
def fnv(b):
    h = SEED
    for x in b:
        h = ((h ^ x) * PRIME) & MASK
    return h
os.makedirs(dst, exist_ok=True)
for name in os.listdir(src):
    b = open(os.path.join(src, name), 'rb').read()
    assert b[:8] == b'CLGEMMB1'
    klen = struct.unpack('<Q', b[8:16])[0]
    key = b[16:16 + klen]
    pos = 16 + klen
    plen, summ = struct.unpack('<QQ', b[pos:pos + 16])
    payload = b[pos + 16:]
    assert len(payload) == plen and fnv(payload) == summ
    i = payload.find(b'.entry gemm_warp_tiled_async(')
    if i >= 0:
        j = payload.find(b'\n)\n', i)
        ins = b''.join(l.encode() + b'\n' for l in lines)
        payload = payload[:j + 3] + ins + payload[j + 3:]
        print('patched', name, 'GEMM_BATCHED' in key.decode(errors='replace'),
              'TRANS_B=1' in key.decode(errors='replace'))
    out = b[:pos] + struct.pack('<QQ', len(payload), fnv(payload)) + payload
    open(os.path.join(dst, name), 'wb').write(out)

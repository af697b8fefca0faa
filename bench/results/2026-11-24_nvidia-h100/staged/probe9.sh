#!/usr/bin/env bash
# Probe: (1) what one launch costs in each timer; (2) whether cuBLAS's TF32 rounds or truncates
# its operands; (3) what step 10's TF32 rounding in local memory costs at M = 128 and 4096;
# (4) warp_tiled tiles for fp32 at M = 128.
source .gpu/setup.sh
C=build-gpu/clgemm
run() { local dt=$1 sz=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $C --device nvidia --dtype $dt --size $sz --trans NT --no-baseline --iters 50 --format json "${a[@]}" 2>>$OUT/probe9.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], sys.argv[2], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"))' $dt $sz; }
{
echo "== (1) launch cost, OpenCL events"
run f32 1x1x1 naive warp_tiled clblast
run f32 64x64x64 naive
run bf16 16x16x16 tensor_core
run bf16 256x256x256 tensor_core
echo "== (3) TF32 rounding in local memory"
R=BM=128,BN=128,WGN=128,STAGES=6,SWAP=1
run f32 128x4096x4096 tensor_core wgmma_tma:$R,PACKA=2,PACKB=2,SPLITK=4 wgmma_tma:$R,PACKA=0,PACKB=2,SPLITK=4 wgmma_tma:$R,PACKA=2,PACKB=0,SPLITK=4 wgmma_tma:$R,PACKA=0,PACKB=2,INFLIGHT=2,SPLITK=4 wgmma_tma:$R,PACKA=2,PACKB=2 wgmma_tma:$R,PACKA=0,PACKB=2
run f32 4096x4096x4096 tensor_core wgmma_tma wgmma_tma:PACKA=0 wgmma_tma:PACKA=2,PACKB=2 wgmma_tma:PACKA=0,PACKB=2 wgmma_tma:PACKA=2,PACKB=2,BN=128,WGN=128,STAGES=6 wgmma_tma:PACKA=0,PACKB=2,BN=128,WGN=128,STAGES=6
echo "== (4) warp_tiled at M = 128"
w=warp_tiled
run f32 128x4096x4096 auto $w:SPLITK=4 $w:BM=64,BN=128,TM=8,TN=8,WM=32,WN=64,SPLITK=2 $w:BM=64,BN=128,TM=8,TN=8,WM=32,WN=64,SPLITK=4 $w:BM=128,BN=64,TM=8,TN=8,WM=64,WN=32,SPLITK=2 $w:BM=128,BN=64,TM=8,TN=8,WM=64,WN=32,SPLITK=4 $w:BM=64,BN=64,TM=4,TN=8,WM=16,WN=64,SPLITK=2
} > $OUT/probe9.txt 2>&1
python3 - >> $OUT/probe9.txt 2>&1 <<'PY'
import sys; sys.path.insert(0, 'bench'); import cublas, torch
print("== (1) launch cost, CUDA events")
for mode, m, n, k in [('fp32', 1, 1, 1), ('fp32', 64, 64, 64), ('bf16', 16, 16, 16), ('bf16', 256, 256, 256)]:
    print('cublas', mode, m, n, k, cublas.time_matmul(m, n, k, mode, runs=50))
x = torch.zeros(1, device='cuda')
ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(50)]
torch.cuda._sleep(int(5e6))
for s, e in ev:
    s.record(); x.add_(1); e.record()
torch.cuda.synchronize(); t = sorted(s.elapsed_time(e) for s, e in ev)
print('cuda x.add_(1), one element: median', t[25], 'min', t[0])
print("== (2) cuBLAS TF32: 1 + 3*2^-12 read as 1.0 (truncated) or 1.0009765625 (rounded)")
torch.backends.cuda.matmul.allow_tf32 = True
v = 1 + 3 * 2 ** -12
for m, n, k in [(4096, 4096, 4096), (128, 4096, 4096), (16, 4096, 4096), (64, 64, 64)]:
    for tr in ('NN', 'NT'):
        def b_of(val):
            return torch.full((n, k), val, device='cuda').t() if tr == 'NT' else torch.full((k, n), val, device='cuda')
        ca = (torch.full((m, k), v, device='cuda') @ b_of(1.0))[0, 0].item() / k
        cb = (torch.ones((m, k), device='cuda') @ b_of(v))[0, 0].item() / k
        print('tf32 %dx%dx%d %s  A read as %.10f  B read as %.10f' % (m, n, k, tr, ca, cb))
print("== cuBLAS times for (3)")
for job in ['tf32:128x4096x4096:NT:r50', 'tf32:4096:NT', 'fp32:128x4096x4096:NT:r50']:
    mode, M, N, K, trans, batch, runs, cold = cublas.parse_job(job)
    print('cublas', job, cublas.time_matmul(M, N, K, mode, runs=runs, trans=trans))
PY
cat $OUT/probe9.txt

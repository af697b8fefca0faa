#!/usr/bin/env bash
# Probe: step 10's TF32 with A rounded in registers (PACKA=3, wgmma's RS form) against the
# shipped rules (PACKA=2: both operands rounded in local memory; PACKA=1: the pre-pass), at
# the llama shapes, NT (X W^T); build logs for ptxas's serialization warnings; cuBLAS TF32.
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe14.txt
run() { local tag=$1 tr=$2 sz=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 $C --device nvidia --size $sz --trans $tr --no-baseline --iters 50 --format json "${a[@]}" 2>>$OUT/probe14.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], sys.argv[2], sys.argv[3], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), r.get("params"))' $tag $tr $sz; }
python3 - <<'PY'
import json
d = json.load(open('tuning/nvidia-h100.json'))
rules = []
for r in d['rules']:
    if r['purpose'] == 'tensor_core' and r['dtype'] == 'f32' and 'PACKA=2' in r['params']:
        r = dict(r); r['params'] = r['params'].replace('PACKA=2', 'PACKA=3'); rules.append(r)
json.dump({'format': 'clgemm-tuning-1', 'entries': [], 'rules': rules}, open('/tmp/packa3.json', 'w'), indent=1)
print(len(rules), 'rules with PACKA=3')
PY
{
echo "== (0) build logs (NVIDIA's compiler): serialization, registers"
for a in 'wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,PACKA=3,PACKB=2' 'wgmma_tma:PACKA=3' 'wgmma_tma:PACKA=3,INFLIGHT=1' 'wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,SPLITK=2' 'wgmma_tma:PACKA=1'; do
  echo "-- $a"
  CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 timeout 120 $C --device nvidia --size 512 --trans NT --no-baseline --iters 2 --algo "$a" 2>&1 | grep -iE "serializ|registers|spill|C75|FAIL|error" | sort | uniq | head -8
done
for tr in NT NN; do for M in 16 128 512; do for NK in 4096x4096 6144x4096 4096x14336 28672x4096; do
  [ $M = 512 ] && [ $NK != 4096x4096 ] && continue
  [ $tr = NN ] && [ $NK != 4096x4096 ] && continue
  run shipped $tr ${M}x$NK tensor_core
  CLGEMM_TUNING_FILE=/tmp/packa3.json run packa3 $tr ${M}x$NK tensor_core
done; done; done
R=BM=128,BN=128,WGN=128,SWAP=1
run var NT 128x4096x4096 wgmma_tma:$R,STAGES=6,PACKA=3,PACKB=1,SPLITK=4 wgmma_tma:$R,STAGES=6,PACKA=3,PACKB=2,INFLIGHT=1,SPLITK=4 wgmma_tma:$R,STAGES=7,PACKA=3,PACKB=2,SPLITK=4 wgmma_tma:$R,STAGES=6,PACKA=3,PACKB=2,SPLITK=3 wgmma_tma:$R,STAGES=6,PACKA=0,PACKB=2,SPLITK=4
run var NT 16x4096x4096 wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=1,SPLITK=4 wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,INFLIGHT=1,SPLITK=4
for sz in 4096x4096x4096 4096x28672x4096; do
  run big NT $sz tensor_core wgmma_tma:PACKA=3 wgmma_tma:PACKA=3,INFLIGHT=1 wgmma_tma:PACKA=3,PACKB=2 wgmma_tma:PACKA=0
done
run big NN 4096x4096x4096 tensor_core wgmma_tma:PACKA=3 wgmma_tma:PACKA=3,INFLIGHT=1
} > $P 2>&1
python3 - >> $P 2>&1 <<'PY'
import sys; sys.path.insert(0, 'bench'); import cublas
print("== cuBLAS tf32")
for tr in ('NT', 'NN'):
    for M in (16, 128, 512, 4096):
        for N, K in ((4096, 4096), (6144, 4096), (4096, 14336), (28672, 4096)):
            if (M == 512 or tr == 'NN') and (N, K) != (4096, 4096):
                continue
            if M == 4096 and (N, K) not in ((4096, 4096), (28672, 4096)):
                continue
            print('cublas tf32', tr, '%dx%dx%d' % (M, N, K), cublas.time_matmul(M, N, K, 'tf32', runs=50, trans=tr))
PY
cat $P

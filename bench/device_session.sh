#!/usr/bin/env bash
# One command on the GPU machine (the `device` tool's run, carrying .gpu/): OpenCL and CLBlast
# from the Debian packages in .gpu/ (../shared/device/README.md), a release build, then each
# step named on the command line, in order.  Everything lands under $OUT: results.tar.gz (the
# bench/results folders; session/ with the tuning file and the logs), one log per step,
# times.txt.
#
#   tune[:PURPOSES][@CLASSES]  tools/tune.py --rules (PURPOSES as its --purposes, CLASSES as
#                    its --classes, ',' or '+' between them) into $OUT/tuning.json, started
#                    from the shipped tuning/ file naming this device (none: from nothing;
#                    a second tune step adds to the first's);
#                    the later steps run with it (CLGEMM_TUNING_FILE)
#   audit[:RULES]    tools/split_audit.py (RULES as its --only, '+' between them: PURPOSE:
#                    DTYPE:TRANS:M_MAX): every split of each small-M rule that splits K, beside
#                    its own count, and a rounds model fitted on half the shapes, checked on
#                    the rest; audit.log and audit.json (in the tarball's session/);
#                    AUDIT_OPTIONS adds options (e.g. "--splits 1,2,3,4,5,6,7,8,12,16")
#   test:NAME        build-gpu/tests/test_NAME alone
#   tests            test_correctness quick and skinny, test_layouts full (emulated, then on the
#                    matrix units themselves), test_bitwise full on the GPU; on NVIDIA
#                    test_tma, test_kept_maps and the register budgets
#                    (bench/check_registers.sh)
#   PRESET[@SIZES]   bench/run.py PRESET (readme, llama, layouts, ...); with SIZES ('+' between
#                    them) as its --sizes, a probe of a few shapes, under probes/ in the tarball
#   PRESET%K/N       part K of N of a preset too long for one command (bench/run.py --part),
#                    written under this tree's bench/results: part 1 starts the run's folder;
#                    for a later part, first unpack the earlier parts' tarball into
#                    bench/results here (untracked files travel to the machine).  The whole
#                    folder comes back in the tarball.
#
# usage (here first: git rev-parse HEAD > .gpu/commit, as the device's copy of .git may be
# stale; meta.json then names that commit):
#   bash bench/device_session.sh [--budget SECONDS] STEP...
# DEVICE (default nvidia) is the --device of every step (pocl tries the flow on a CPU);
# TUNE_LIMIT caps the tune step's seconds (default: all the budget left), so that later steps run.
# A step is not started after --budget seconds (default 540: the device tool stops a command
# at 600); what ran is kept.
set -uo pipefail
cd "$(dirname "$0")/.."
budget=540
[ "${1:-}" = --budget ] && { budget=$2; shift 2; }
[ $# -gt 0 ] || { echo "usage: $0 [--budget SECONDS] STEP..." >&2; exit 2; }
out=${OUT:-/tmp/device_out}
# A warm machine keeps /tmp between commands: this command's tarball holds this command's runs.
rm -rf /tmp/device_results
mkdir -p "$out" /tmp/device_results
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
# shellcheck disable=SC1091
source .gpu/setup.sh
[ -f .gpu/commit ] && export CLGEMM_GIT_COMMIT=$(cat .gpu/commit)
if ! { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } \
        > "$out/build.log" 2>&1; then
    tail -30 "$out/build.log"; exit 1
fi
echo "build $(elapsed) s" | tee "$out/times.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
clgemm=build-gpu/clgemm
device=${DEVICE:-nvidia}
# The device's name as OpenCL gives it, which the shipped tuning files' entries carry.
device_name() {
    "$clgemm" --device "$device" --no-baseline --algo naive --size 8 --iters 1 --format json \
        --quiet 2>/dev/null |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["results"][0]["device"])' \
            2>/dev/null
}
status=0
for step in "$@"; do
    if [ "$(elapsed)" -ge "$budget" ]; then
        echo "skipped $step: the budget of $budget s is spent" | tee -a "$out/times.txt"
        continue
    fi
    left=$(( budget + 50 - $(elapsed) ))
    log="$out/${step//[:,+@%\/]/_}.log"
    case $step in
    tune*)
        purposes=${step#tune}; purposes=${purposes#:}
        classes=; [[ $purposes == *@* ]] && { classes=${purposes#*@}; purposes=${purposes%@*}; }
        if [ ! -f "$out/tuning.json" ]; then # start from the shipped file of this device
            name=$(device_name)
            start=$(grep -lF "\"device\": \"$name\"" tuning/*.json | head -1)
            [ -n "$name" ] && [ -n "$start" ] && cp "$start" "$out/tuning.json"
        fi
        timeout "$left" python3 tools/tune.py --rules --clgemm "$clgemm" --device "$device" \
            --out "$out/tuning.json" --time-limit "${TUNE_LIMIT:-$(( left - 30 ))}" \
            ${purposes:+--purposes "${purposes//+/,}"} ${classes:+--classes "${classes//+/,}"} \
            > "$log" 2>&1 || status=1
        export CLGEMM_TUNING_FILE="$out/tuning.json" ;;
    audit*)  # tools/split_audit.py: every split of the rules that split, beside what they run
        only=${step#audit}; only=${only#:}
        timeout "$left" python3 tools/split_audit.py --clgemm "$clgemm" --device "$device" \
            ${only:+--only "${only//+/,}"} --time-limit $(( left > 180 ? left - 120 : 60 )) ${AUDIT_OPTIONS:-} \
            --json "$out/audit.json" > "$log" 2>&1 || status=1 ;;
    test:*)
        CLGEMM_TEST_DEVICE=$device timeout "$left" "build-gpu/tests/test_${step#test:}" \
            > "$log" 2>&1 || status=1 ;;
    tests)
        export CLGEMM_TEST_DEVICE=$device
        # Every command's status counts (a group's status would be its last command's).
        { for mode in quick skinny; do
              timeout "$left" build-gpu/tests/test_correctness $mode || status=1; done
          timeout "$left" build-gpu/tests/test_layouts full || status=1
          CLGEMM_EMULATE_MATRIX=0 timeout "$left" build-gpu/tests/test_layouts full || status=1
          timeout "$left" build-gpu/tests/test_bitwise full || status=1
          if [ "$device" = nvidia ]; then
              timeout "$left" build-gpu/tests/test_tma || status=1 # the TMA primitive, both map forms
              timeout "$left" build-gpu/tests/test_kept_maps || status=1 # step 10's kept maps
              bash bench/check_registers.sh "$clgemm" "$device" || status=1
          fi; } > "$log" 2>&1
        unset CLGEMM_TEST_DEVICE ;;
    *@*)  # a probe: not a whole preset, so kept apart from the runs the tables render
        timeout "$left" python3 bench/run.py "${step%@*}" --clgemm "$clgemm" --device "$device" \
            --sizes "$(echo "${step#*@}" | tr + ,)" --out /tmp/device_results/probes \
            > "$log" 2>&1 || status=1 ;;
    *%*)
        timeout "$left" python3 bench/run.py "${step%%%*}" --clgemm "$clgemm" --device "$device" \
            --part "${step#*%}" --out bench/results > "$log" 2>&1 || status=1
        folder=$(sed -n 's/^run.py: .* cases -> //p' "$log" | tail -1)
        if [ -n "$folder" ]; then
            dest=/tmp/device_results/${folder#bench/results/}
            rm -rf "$dest" && mkdir -p "$(dirname "$dest")" && cp -r "$folder" "$dest"
        fi ;;
    *)
        timeout "$left" python3 bench/run.py "$step" --clgemm "$clgemm" --device "$device" \
            --out /tmp/device_results > "$log" 2>&1 || status=1 ;;
    esac
    echo "$step done at $(elapsed) s" | tee -a "$out/times.txt"
done
# The device tool brings back at most 8 files: the logs and the tuning file travel in the
# tarball too (session/), beside the bench/results folders.
mkdir -p /tmp/device_results/session
cp "$out"/*.log "$out"/*.txt /tmp/device_results/session/ 2>/dev/null
[ -f "$out/tuning.json" ] && cp "$out/tuning.json" /tmp/device_results/session/
[ -f "$out/audit.json" ] && cp "$out/audit.json" /tmp/device_results/session/
tar -C /tmp/device_results -czf "$out/results.tar.gz" .
exit $status

#!/usr/bin/env python3
"""Runs one libFuzzer target for a bounded time, starting from its seed corpus, and fails on
any crash, leak, sanitizer report or violated property.
usage: run_fuzz.py FUZZER SEED_CORPUS_DIR SECONDS ARTIFACT_DIR

New inputs go to a scratch directory (the seed corpus in the source tree is only read).  On a
crash, libFuzzer leaves the input in ARTIFACT_DIR as crash-<sha1>: copy it into the seed corpus
(tests/fuzz/corpus/<target>/) so that the replay tests of every build keep checking it."""
import os
import subprocess
import sys
import tempfile

fuzzer, seeds, seconds, artifacts = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
os.makedirs(artifacts, exist_ok=True)
with tempfile.TemporaryDirectory() as work:
    cmd = [fuzzer, '-max_total_time=%d' % seconds, '-timeout=10', '-rss_limit_mb=2048',
           '-max_len=4096', '-print_final_stats=1',
           '-artifact_prefix=' + os.path.join(artifacts, ''), work, seeds]
    print('$ ' + ' '.join(cmd), flush=True)
    rc = subprocess.run(cmd).returncode
if rc != 0:
    found = sorted(os.listdir(artifacts))
    print('FAIL: %s exited %d; artifacts in %s: %s' % (os.path.basename(fuzzer), rc, artifacts,
                                                       ' '.join(found) or '(none)'))
    print('reproduce with: %s %s/<artifact>' % (fuzzer, artifacts))
    sys.exit(1)
print('ok: %s ran %d s without a crash' % (os.path.basename(fuzzer), seconds))

"""Running the clgemm binary from the Python tests (cli_common.py for the test_cli*.py scripts,
test_cli_batch_rule.py)."""
import os
import subprocess


def runner(clgemm):
    """run(*args, env=None) -> (exit status, stdout, stderr) of clgemm with args, the
    environment plus env, at most 15 minutes."""
    def run(*args, env=None):
        full_env = dict(os.environ)
        full_env.update(env or {})
        p = subprocess.run([clgemm, *args], capture_output=True, text=True, env=full_env,
                           timeout=900)
        return p.returncode, p.stdout, p.stderr
    return run

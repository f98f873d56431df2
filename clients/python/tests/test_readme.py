"""The README's promise: a token and a state listener in five lines after `pip install`."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from harness import REPO, Daemon


def test_readme_five_lines_print_a_state(daemon: Daemon) -> None:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Using Sesame from Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]
    assert len([line for line in code.splitlines() if line.strip()]) <= 5
    program = code + "print('token', token.uid, flush=True)\nimport threading; threading.Event().wait()\n"
    env = dict(os.environ, SESAME_SOCKET=daemon.socket_path, PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-c", program], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        uid = daemon.client().state().uid
        lines = [process.stdout.readline().strip() for _ in range(2)]
        assert sorted(lines) == sorted([f"token {uid}", f"anonymous {uid} snapshot"]), lines
    finally:
        process.kill()
        process.wait()

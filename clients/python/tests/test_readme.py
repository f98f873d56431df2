"""The README's promise: a token and the state stream in a few lines after `pip install`, printing when run as a script."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from harness import REPO, Daemon


def test_readme_example_prints_the_token_and_the_state(daemon: Daemon) -> None:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Using Sesame from Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]
    # Short enough to read at a glance, and it runs as a script as it stands.
    assert len([line for line in code.splitlines() if line.strip()]) <= 12
    env = dict(os.environ, SESAME_SOCKET=daemon.socket_path, PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        uid = daemon.client().state().uid
        lines = [process.stdout.readline().strip() for _ in range(2)]
        assert lines[0].startswith(f"token for {uid} valid until "), lines
        assert lines[1] == f"anonymous {uid} snapshot", lines
    finally:
        process.kill()
        process.wait()

"""Network namespaces of the simulation's own: one source address per namespace.

A bridge on the host (`sfsim0`, 10.213.0.1/16) where the emulator listens, and per namespace a
veth pair, its host end on the bridge, its other end the namespace's only address. Every name
starts with `sfsim`, so a run cleans up what an earlier, killed run left.
"""

from __future__ import annotations

import subprocess

BRIDGE = "sfsim0"
HOST_ADDRESS = "10.213.0.1"
PREFIX = "sfsim-"


def _ip(*arguments: str, stdin: str | None = None, check: bool = True) -> str:
    run = subprocess.run(["ip", *arguments], input=stdin, capture_output=True, text=True)
    if check and run.returncode != 0:
        raise RuntimeError(f"ip {' '.join(arguments[:3])}: {run.stderr.strip()}")
    return run.stdout


def address(index: int) -> str:
    """The source address of namespace `index` (distinct for every namespace of a run)."""
    return f"10.213.{1 + index // 250}.{2 + index % 250}"


class Network:
    """The bridge and the namespaces; `close()` removes them all (idempotent)."""

    def __init__(self) -> None:
        self.namespaces: list[str] = []
        self.next_index = 0
        self.clean_leftovers()
        _ip("link", "add", BRIDGE, "type", "bridge")
        _ip("addr", "add", f"{HOST_ADDRESS}/16", "dev", BRIDGE)
        _ip("link", "set", BRIDGE, "up")

    @staticmethod
    def clean_leftovers() -> None:
        for line in _ip("netns", "list", check=False).splitlines():
            name = line.split()[0] if line.split() else ""
            if name.startswith(PREFIX):
                _ip("netns", "del", name, check=False)
        if _ip("link", "show", BRIDGE, check=False):
            _ip("link", "del", BRIDGE, check=False)

    def add(self, count: int) -> list[tuple[str, str]]:
        """`count` new namespaces, each with its own address: [(name, address)]."""
        created = []
        host_commands = []
        for _ in range(count):
            index = self.next_index
            self.next_index += 1
            name = f"{PREFIX}{index}"
            _ip("netns", "add", name)
            self.namespaces.append(name)
            host_commands += [f"link add sfh{index} type veth peer name sfn{index} netns {name}",
                              f"link set sfh{index} master {BRIDGE} up"]
            created.append((name, address(index), index))
        _ip("-batch", "-", stdin="\n".join(host_commands) + "\n")
        for name, source, index in created:
            _ip("-n", name, "-batch", "-", stdin=f"addr add {source}/16 dev sfn{index}\n"
                f"link set sfn{index} up\nlink set lo up\n")
        return [(name, source) for name, source, _ in created]

    def remove(self, names: list[str]) -> None:
        for name in names:
            _ip("netns", "del", name, check=False)
            if name in self.namespaces:
                self.namespaces.remove(name)

    def close(self) -> None:
        self.remove(list(self.namespaces))
        _ip("link", "del", BRIDGE, check=False)

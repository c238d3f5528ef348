"""A real OpenSSH server on 127.0.0.1 for the SSH kernel's tests, with throwaway keys.

``LocalSshd(folder)`` writes a host key, a user key, ``authorized_keys`` and
``known_hosts`` into ``folder``, starts ``/usr/sbin/sshd -D`` on a free port (this
user logs in as itself, by key only), and gives the ``TENSOR_LAB_SSH`` that reaches it
(``ssh -F /dev/null -i KEY ...``: none of the machine's own ssh settings). The
sessions' home is ``folder/home``, so a work folder lands there. ``.ci/run`` installs
``openssh-server`` where it is missing; without it these tests skip.
"""

from __future__ import annotations

import getpass
import os
import shlex
import shutil
import socket
import subprocess
import time
from pathlib import Path

SSHD = "/usr/sbin/sshd"


def available() -> str:
    """Why a local sshd cannot run here, or ""."""
    if not Path(SSHD).exists():
        return f"{SSHD} is not installed (apt-get install openssh-server)"
    for tool in ("ssh", "ssh-keygen"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install openssh-client)"
    return ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalSshd:
    """An sshd for this user on 127.0.0.1, until ``stop``."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.home = folder / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        self.user = getpass.getuser()
        for name in ("host", "user"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                            str(folder / name)], check=True)
        (folder / "authorized_keys").write_text((folder / "user.pub").read_text())
        os.chmod(folder / "authorized_keys", 0o600)
        self.port = _free_port()
        host_key = (folder / "host.pub").read_text().split()
        (folder / "known_hosts").write_text(f"[127.0.0.1]:{self.port} {host_key[0]} "
                                            f"{host_key[1]}\n")
        (folder / "sshd_config").write_text("\n".join([
            f"Port {self.port}", "ListenAddress 127.0.0.1", f"HostKey {folder / 'host'}",
            f"PidFile {folder / 'sshd.pid'}",
            f"AuthorizedKeysFile {folder / 'authorized_keys'}",
            "PubkeyAuthentication yes", "PasswordAuthentication no",
            "KbdInteractiveAuthentication no", "UsePAM no", "StrictModes no",
            "PermitRootLogin prohibit-password", "AllowTcpForwarding no",
            "X11Forwarding no", "PrintMotd no", "PrintLastLog no", "LogLevel ERROR",
            f"SetEnv HOME={self.home}", ""]))
        if os.geteuid() == 0:
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # its privilege separation
        with open(folder / "sshd.log", "wb") as log:
            self.process = subprocess.Popen(
                [SSHD, "-D", "-e", "-f", str(folder / "sshd_config")],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"sshd ended: {(folder / 'sshd.log').read_text()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                break
            except OSError:
                time.sleep(0.05)

    @property
    def ssh(self) -> str:
        """``TENSOR_LAB_SSH`` for this server."""
        return shlex.join(["ssh", "-F", "/dev/null", "-i", str(self.folder / "user"),
                           "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=yes",
                           "-o", f"UserKnownHostsFile={self.folder / 'known_hosts'}",
                           "-o", "LogLevel=ERROR"])

    def url(self, python: str) -> str:
        return f"ssh://{self.user}@127.0.0.1:{self.port}?python={python}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()

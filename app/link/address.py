"""A server's address for a kernel over SSH: ``ssh://[user@]host[:port][?python=PATH]``.

Read without importing the kernel link (the window's menus list servers before its
first paint); ``app.link.ssh`` starts kernels there.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, quote, unquote, urlsplit


@dataclass(frozen=True)
class SshTarget:
    """Where a kernel runs: ``[user@]host[:port]`` and the python to use there."""

    host: str
    user: str = ""
    port: int | None = None
    python: str = "python3"

    @property
    def destination(self) -> str:
        """What ssh is given: ``user@host``, or the host."""
        return f"{self.user}@{self.host}" if self.user else self.host

    def url(self) -> str:
        """``ssh://...``, as ``parse_target`` reads it back."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        user = f"{quote(self.user, safe='')}@" if self.user else ""
        port = f":{self.port}" if self.port else ""
        python = "" if self.python == "python3" else f"?python={quote(self.python)}"
        return f"ssh://{user}{host}{port}{python}"

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host and self.port else self.host
        return (f"{self.user}@" if self.user else "") + host + (
            f":{self.port}" if self.port else "")


def parse_target(text: str) -> SshTarget:
    """``ssh://[user@]host[:port][?python=PATH]`` or ``[user@]host[:port]`` (an alias of
    ``~/.ssh/config`` is a host); ``ValueError`` saying what is wrong."""
    text = text.strip()
    if not text.startswith("ssh://"):
        text = "ssh://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as e:
        raise ValueError(f"not a server address: {text!r} ({e})") from None
    host = parts.hostname or ""
    if not host or parts.path not in ("", "/") or parts.password:
        raise ValueError(f"not a server address: {text!r}; write [user@]host[:port]")
    if host.startswith("-"):  # (ssh would read it as an option)
        raise ValueError(f"not a host name: {host!r}")
    python = parse_qs(parts.query).get("python", ["python3"])[-1] or "python3"
    return SshTarget(host, unquote(parts.username or ""), port, python)

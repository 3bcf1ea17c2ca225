"""A throwaway PostgreSQL server for the tests: initdb into a temp dir, a loopback port."""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def bindir() -> Path | None:
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout.strip()
        if (Path(out) / "initdb").exists():
            return Path(out)
    except (OSError, subprocess.CalledProcessError):
        pass
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def required() -> bool:
    """Must the PostgreSQL tests run here? Under CI (`CI` set, as `.ci/run` runs) or with
    REFEREE_REQUIRE_POSTGRES=1: a missing server is then a failure, never a skip."""
    flags = (os.environ.get("CI", ""), os.environ.get("REFEREE_REQUIRE_POSTGRES", ""))
    return any(flag.strip().lower() not in ("", "0", "false", "no") for flag in flags)


def report_header() -> str:
    found = bindir()
    if found is not None:
        return f"PostgreSQL: {found} (the PostgreSQL tests start a throwaway server)"
    if required():
        return "PostgreSQL: NOT FOUND, and required here (CI): its tests fail"
    return "PostgreSQL: not found (pg_config --bindir): its tests are skipped"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scratch_dir() -> str | None:
    """Where the server keeps its files: memory (/dev/shm) where there is one. The tests make
    and drop a database each, and on a disk mounted with `discard` deleting those files took
    seconds; in memory a database is made in a few milliseconds. None: the system's temp."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


class Server:
    def __init__(self, bin_dir: Path, settings: str = ""):
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="referee-pg-", dir=scratch_dir()))
        self.port = free_port()
        self.settings = settings  # more "-c name=value" for the server
        self.as_root = os.geteuid() == 0
        if self.as_root:  # PostgreSQL refuses to run as root
            shutil.chown(self.dir, "postgres")

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True)

    def start(self) -> "Server":
        data = self.dir / "data"
        self._run("initdb", "-D", str(data), "-A", "trust", "-U", "referee", "--no-sync", "-E", "UTF8")
        for attempt in range(3):
            # A port found free may be taken before the server binds it (test workers start
            # their servers at once): then another port.
            opts = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100"
                    " -c max_wal_size=128MB " + self.settings)  # in memory: little WAL kept
            try:
                self._run("pg_ctl", "-D", str(data), "-o", opts, "-l", str(self.dir / "log"), "-w", "start")
                return self
            except subprocess.CalledProcessError:
                if attempt == 2:
                    raise
                self.port = free_port()

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://referee@127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

"""The bus and the three services as processes, started from a folder of binaries (`swift build`
puts them in .build/debug), on `ipc://` endpoints in a temporary folder, on CURVE with
certificates `gateway keys init` makes there; or an already running stack named by BUS_FRONTEND.
Every process started is stopped by `stop()`, and ends by itself if this process dies."""
import os
import shutil
import signal
import subprocess
import tempfile

from . import contract
from .client import Client, NoAnswer


class StackError(Exception):
    """The stack could not be started: which program, and the end of its log."""


class Stack:
    """A running Monster Bus: `environment` is what a client (or the gateway) needs to reach it."""

    def __init__(self, environment, processes=(), folder=None):
        self.environment = dict(environment)
        self.processes = list(processes)
        self.folder = folder

    @classmethod
    def connect(cls, environment=None):
        """The stack BUS_FRONTEND and BUS_BACKEND name (with the CURVE variables, if set); nothing
        is started or stopped."""
        environment = os.environ if environment is None else environment
        keep = ("BUS_FRONTEND", "BUS_BACKEND", "BUS_KEYS_DIR", "BUS_CLIENT_CERT", "BUS_SERVER_KEY")
        return cls({name: environment[name] for name in keep if environment.get(name)})

    @classmethod
    def start(cls, binaries, curve=True, timeout=30.0):
        """Starts the bus and the services from `binaries`, waits until each answers a ping."""
        missing = [name for name in ("bus", "gateway") + contract.SERVICES if not os.access(os.path.join(binaries, name), os.X_OK)]
        if missing:
            raise StackError(f"{binaries} has no {', '.join(missing)}: build them first (swift build)")
        folder = tempfile.mkdtemp(prefix="monsterbus-pytest-")
        base = {name: value for name, value in os.environ.items() if not name.startswith("BUS_") and name != "GATEWAY_DEVICE"}
        # The project's programs exit when the process named here dies (ParentWatch), even killed.
        base["MONSTERBUS_PARENT_PID"] = str(os.getpid())
        environment = {"BUS_FRONTEND": f"ipc://{folder}/frontend", "BUS_BACKEND": f"ipc://{folder}/backend"}
        stack = cls(environment, folder=folder)
        try:
            if curve:
                keys = os.path.join(folder, "keys")
                made = subprocess.run([os.path.join(binaries, "gateway"), "keys", "init", keys], env=base,
                                      capture_output=True, text=True, timeout=timeout)
                if made.returncode != 0:
                    raise StackError(f"gateway keys init failed: {made.stderr.strip()}")
                stack.environment["BUS_KEYS_DIR"] = keys
            for name in ("bus",) + contract.SERVICES:
                stack._start(os.path.join(binaries, name), name, {**base, **stack.environment, "ROSTER_DB": os.path.join(folder, "roster.db")})
            with stack.client() as client:
                client.wait_until_answering(contract.SERVICES, timeout=timeout)
        except (StackError, NoAnswer, OSError, subprocess.SubprocessError) as error:
            logs = stack.log_tails()
            stack.stop()
            raise StackError(f"the stack did not start: {error}\n{logs}") from None
        return stack

    def _start(self, executable, name, environment):
        log = open(os.path.join(self.folder, name + ".log"), "wb")
        try:
            process = subprocess.Popen([executable], env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        finally:
            log.close()
        process.monsterbus_name = name
        self.processes.append(process)

    def client(self, **options):
        """A new client of this stack (close it when done)."""
        return Client(environment=self.environment, **options)

    def log_tails(self, lines=10):
        """The end of each started program's log, for a failure's message."""
        parts = []
        for process in self.processes:
            path = os.path.join(self.folder, process.monsterbus_name + ".log")
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    tail = handle.read().splitlines()[-lines:]
            except OSError:
                continue
            parts.append("\n".join(f"    {process.monsterbus_name}: {line}" for line in tail))
        return "\n".join(parts)

    def stop(self, timeout=10.0):
        """Stops every process started (the services, then the bus) and removes the folder."""
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=timeout)
        self.processes = []
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

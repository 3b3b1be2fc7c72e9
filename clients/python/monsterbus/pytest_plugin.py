"""The pytest plugin (registered by the package's `pytest11` entry point): fixtures that give a
test a running Monster Bus and a client of it.

- `monster_bus` (one per session): the stack. With BUS_FRONTEND set it connects to that stack
  (and its CURVE variables, if set) and starts nothing; otherwise it starts the bus and the
  services from the binaries folder (`--monsterbus-bin DIR` or MONSTERBUS_BIN), on CURVE unless
  `--monsterbus-plaintext`, and stops every process it started at the end of the session.
- `monster_client`: a new Client of that stack for each test, closed after it; the ids of the
  devices it makes get a suffix of the test's own (`my-iphone-1f3a9c0b`), so that tests never
  share a device and a stack that stays up can be tested again and again.
"""
import os
import secrets

import pytest

from .stack import Stack


def pytest_addoption(parser):
    group = parser.getgroup("monsterbus", "Monster Bus")
    group.addoption("--monsterbus-bin", metavar="DIR", default=None,
                    help="the folder of the bus and service binaries to start (default: $MONSTERBUS_BIN)")
    group.addoption("--monsterbus-plaintext", action="store_true", default=False,
                    help="start the stack without CURVE (default: CURVE on, with keys made by `gateway keys init`)")


@pytest.fixture(scope="session")
def monster_bus(request):
    """A running Monster Bus (a monsterbus.Stack)."""
    if os.environ.get("BUS_FRONTEND"):
        yield Stack.connect()
        return
    binaries = request.config.getoption("--monsterbus-bin") or os.environ.get("MONSTERBUS_BIN")
    if not binaries:
        pytest.fail("no Monster Bus to test against: set BUS_FRONTEND to a running stack, or give the folder of its "
                    "binaries with --monsterbus-bin DIR or MONSTERBUS_BIN (e.g. .build/debug)", pytrace=False)
    stack = Stack.start(binaries, curve=not request.config.getoption("--monsterbus-plaintext"))
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def monster_client(monster_bus):
    """A client of the stack (a monsterbus.Client), closed after the test; its devices are the test's own."""
    with monster_bus.client(device_suffix="-" + secrets.token_hex(4)) as client:
        yield client

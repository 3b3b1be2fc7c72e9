"""A Python test client for Monster Bus: `Client` (connect, act, wait until every service has
acknowledged), `Device` (a simulated device's actions), `Stack` (the processes), and a pytest
plugin with the `monster_bus` and `monster_client` fixtures."""
from .client import Client, Device, NoAnswer
from .contract import PROFILES, bucket, first_hop, subscriptions
from .curve import Certificate, CurveError, CurveSettings
from .envelope import EnvelopeMaker, Fields, Message
from .stack import Stack, StackError
from .tracker import ActionTracker, Outcome

__version__ = "0.1.0"
__all__ = [
    "ActionTracker", "Certificate", "Client", "CurveError", "CurveSettings", "Device", "EnvelopeMaker", "Fields",
    "Message", "NoAnswer", "Outcome", "PROFILES", "Stack", "StackError", "bucket", "first_hop", "subscriptions",
]

#!/usr/bin/env python3
"""The iPhone `+` flow of Monster Bus from Python, on the test client (clients/python):

    pip install ./clients/python
    BUS_FRONTEND=tcp://127.0.0.1:5555 BUS_BACKEND=tcp://127.0.0.1:5556 python3 examples/python/plus_flow.py

It taps `+` on an iPhone (an "Add…" alert appears) and then Cancel (the alert is dismissed), and
exits 0 when the services answered so. On a bus with CURVE, set BUS_KEYS_DIR to the folder
`gateway keys init` wrote (the client uses its gateway.key_secret and bus.key).
"""
import os
import sys

from monsterbus import Client, NoAnswer


def main():
    device_id = os.environ.get("EXAMPLE_DEVICE", "python-iphone")
    try:
        with Client() as client:
            phone = client.device(device_id, profile="iphone")
            alert = phone.tap("add").presented.presentation
            if alert.style != "alert":
                return f"tap add: expected an alert, got a {alert.style}"
            print(f"{device_id}: alert “{alert.message}” with buttons {', '.join(alert.buttons)}")
            dismissed = phone.tap("cancel").dismissed
            if dismissed.get("buttonIndex") != 0:
                return f"tap cancel: expected the alert dismissed by Cancel, got {dismissed.to_dict()}"
            print(f"{device_id}: alert dismissed by {dismissed.button} (index {dismissed.buttonIndex})")
    except (NoAnswer, LookupError) as error:
        return f"{device_id}: {error}"
    return 0


if __name__ == "__main__":
    sys.exit(main())

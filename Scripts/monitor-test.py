#!/usr/bin/env python3
"""End-to-end checks of the monitor's web page, run by Tests/EndToEndTests/MonitorTests.swift
against a running stack (the bus, the services and `monitor`), with the stack's environment
(BUS_FRONTEND, BUS_BACKEND, ...) so that `gateway` reaches the same bus.

  monitor-test.py pages   URL                          404 for an unknown path, a clear page for an unknown device
  monitor-test.py metrics URL --gateway PATH           /metrics parses (prometheus_client) and its counters move
  monitor-test.py stalled URL --gateway PATH          clients of /events that never read do not hold up the
                                                       monitor: every action is counted, nothing dropped
  monitor-test.py limits  URL --health URL             (with MONITOR_MAX_STREAMS=1) the second stream is answered 503
                                                       with Retry-After and the first goes on; the health listener
                                                       serves /healthz and /metrics, nothing else
  monitor-test.py browser URL --gateway PATH --screenshot FILE
                                                       headless Chromium (Selenium): the iPad's popover appears
                                                       within a second of `gateway --device ipad tap add`, and
                                                       moves when the iPad rotates; a screenshot is saved

Exit status 0 when every check passes, 1 (with the reason on stderr) otherwise.
"""
import argparse
import subprocess
import sys
import time
import urllib.error
import urllib.request


def fail(message):
    print("monitor-test: FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def get(url):
    """(status, body) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def gateway(path, *arguments):
    result = subprocess.run([path, "--timeout", "10", *arguments], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        fail(f"gateway {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result.stdout


def pages(url):
    status, body = get(url + "/no/such/page")
    if status != 404 or "There is nothing at" not in body:
        fail(f"an unknown path gave {status}, not a 404 page: {body[:300]}")
    status, body = get(url + "/device/no-such-device")
    if status != 404 or "does not know a device" not in body or "no-such-device" not in body:
        fail(f"an unknown device gave {status}, not a clear 404 page: {body[:300]}")
    status, body = get(url + "/")
    if status != 200 or "Monster Bus monitor" not in body or "EventSource" not in body:
        fail(f"the overview gave {status}: {body[:300]}")
    print("ok: 404 for an unknown path, a clear page for an unknown device, the overview")


def metric_samples(url):
    from prometheus_client.parser import text_string_to_metric_families
    status, text = get(url + "/metrics")
    if status != 200:
        fail(f"/metrics gave {status}")
    samples = {}
    families = {}
    for family in text_string_to_metric_families(text):
        families[family.name] = family
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return families, samples


def metrics(url, gateway_path):
    gateway(gateway_path, "--device", "ipad", "describe")

    def value(samples, name, **labels):
        return samples.get((name, tuple(sorted(labels.items()))), 0)

    # Wait (with a deadline) until every service has been heard.
    deadline = time.monotonic() + 15
    while True:
        families, samples = metric_samples(url)
        up = {service: value(samples, "monsterbus_service_up", service=service)
              for service in ("bus", "presentation-policy", "roster", "input-handling")}
        if all(v == 1 for v in up.values()):
            break
        if time.monotonic() > deadline:
            fail(f"not every service is up in /metrics: {up}")
        time.sleep(0.05)
    for name in ("monsterbus_heartbeat_age_seconds", "monsterbus_action_round_trip_seconds", "monsterbus_messages_in"):
        if name not in families:
            fail(f"/metrics has no family {name}: {sorted(families)}")
    if families["monsterbus_action_round_trip_seconds"].type != "histogram":
        fail("monsterbus_action_round_trip_seconds is not a histogram")

    taps_before = value(samples, "monsterbus_action_round_trip_seconds_count", action="device.tap")
    received_before = value(samples, "monsterbus_received_total", service="presentation-policy")
    bus_before = value(samples, "monsterbus_messages_in_total", service="bus")
    for _ in range(3):
        gateway(gateway_path, "--device", "ipad", "tap", "add")
    deadline = time.monotonic() + 15
    while True:
        families, samples = metric_samples(url)
        taps = value(samples, "monsterbus_action_round_trip_seconds_count", action="device.tap")
        received = value(samples, "monsterbus_received_total", service="presentation-policy")
        bus = value(samples, "monsterbus_messages_in_total", service="bus")
        inf = value(samples, "monsterbus_action_round_trip_seconds_bucket", action="device.tap", le="+Inf")
        ok = value(samples, "monsterbus_actions_total", action="device.tap", outcome="ok")
        if taps >= taps_before + 3 and received >= received_before + 3 and bus > bus_before:
            break
        if time.monotonic() > deadline:
            fail(f"counters did not move after 3 taps: round trips {taps_before} -> {taps}, "
                 f"presentation-policy received {received_before} -> {received}, bus messages in {bus_before} -> {bus}")
        time.sleep(0.05)
    if inf != taps or ok < 3:
        fail(f"the histogram's +Inf bucket ({inf}) is not its count ({taps}), or fewer than 3 ok taps ({ok})")
    print(f"ok: /metrics parses; device.tap round trips {taps_before:g} -> {taps:g}, "
          f"presentation-policy received {received_before:g} -> {received:g}, bus messages in {bus_before:g} -> {bus:g}")


def stalled(url, gateway_path):
    import socket
    host, port = url.split("//")[1].split(":")
    sockets = []
    for _ in range(4):
        client = socket.create_connection((host, int(port)))
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.sendall(b"GET /events HTTP/1.1\r\nHost: monitor\r\n\r\n")
        sockets.append(client)   # and never read from it
    lines = "\n".join(["--device ipad tap add", "--device ipad rotate landscape", "--device ipad rotate portrait",
                       "--device iphone tap add", "--device iphone tap cancel"] * 40) + "\n"
    result = subprocess.run([gateway_path, "--timeout", "10", "--device", "ipad", "shell"], input=lines,
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        fail(f"gateway shell exited {result.returncode}: {result.stderr[-500:]}")
    deadline = time.monotonic() + 20
    while True:
        _, samples = metric_samples(url)
        ok = sum(v for (name, labels), v in samples.items()
                 if name == "monsterbus_actions_total" and ("outcome", "ok") in labels)
        dropped = samples.get(("monsterbus_monitor_dropped_total", ()), -1)
        if ok >= 200:
            break
        if time.monotonic() > deadline:
            fail(f"the monitor counted {ok} of 200 actions while 4 clients did not read (dropped {dropped})")
        time.sleep(0.05)
    if dropped != 0:
        fail(f"the monitor dropped {dropped} message(s)")
    status, body = get(url + "/device/ipad")
    if status != 200 or 'data-orientation="portrait"' not in body:
        fail(f"the iPad's page is wrong after the load: {status}")
    for client in sockets:
        client.close()
    print(f"ok: 200 actions counted with 4 clients of /events not reading; nothing dropped")


def limits(url, health):
    import socket
    host, port = url.split("//")[1].split(":")

    def open_stream():
        client = socket.create_connection((host, int(port)), timeout=10)
        client.sendall(b"GET /events HTTP/1.1\r\nHost: monitor\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(4096)
            if not chunk:
                break
            head += chunk
        return client, head.decode("latin-1")

    first, head = open_stream()
    if not head.startswith("HTTP/1.1 200") or "text/event-stream" not in head:
        fail(f"the first stream was answered {head[:200]!r}")
    second, head = open_stream()
    second.close()
    if not head.startswith("HTTP/1.1 503") or "Retry-After: 5" not in head:
        fail(f"the stream past MONITOR_MAX_STREAMS=1 was answered {head[:300]!r}, not 503 with Retry-After: 5")
    # The first stream goes on: its health table comes each second.
    first.settimeout(5)
    received = b""
    deadline = time.monotonic() + 5
    while received.count(b"event: health") < 2 and time.monotonic() < deadline:
        received += first.recv(65536)
    first.close()
    if received.count(b"event: health") < 2:
        fail(f"the first stream stopped after the second was refused: {received[:200]!r}")
    status, body = get(health + "/healthz")
    if status != 200 or body != "ok\n":
        fail(f"the health listener's /healthz gave {status}: {body[:200]}")
    status, body = get(health + "/metrics")
    if status != 200 or "monsterbus_service_up" not in body:
        fail(f"the health listener's /metrics gave {status}: {body[:200]}")
    for path in ("/", "/events", "/device/ipad"):
        status, _ = get(health + path)
        if status != 404:
            fail(f"the health listener answered {path} with {status}, not 404")
    print("ok: the second stream answered 503 with Retry-After: 5, the first goes on; "
          "the health listener serves /healthz and /metrics only")


def browser(url, gateway_path, screenshot):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # The page redraws a screen by replacing its SVG (each SSE update): an element read a moment
    # ago may be gone, which is no failure, only a reason to look again.
    redrawn = [StaleElementReferenceException]

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1500,1100", "--hide-scrollbars"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(url + "/")
        WebDriverWait(driver, 15, 0.02, ignored_exceptions=redrawn).until(
            lambda d: d.find_element(By.ID, "connection").text == "live", "the page never connected to /events")

        def ipad_svg(d):
            for card in d.find_elements(By.CSS_SELECTOR, "section.device"):
                if card.get_attribute("data-device") == "ipad":
                    found = card.find_elements(By.CSS_SELECTOR, "svg")
                    return found[0] if found else None
            return None

        def popover(d):
            svg = ipad_svg(d)
            if svg is None:
                return None
            groups = svg.find_elements(By.CSS_SELECTOR, "g.popover")
            if not groups:
                return None
            titles = [b.get_attribute("data-title") for b in groups[0].find_elements(By.CSS_SELECTOR, ".popover-button")]
            return {"titles": titles, "tip": groups[0].get_attribute("data-arrow-tip"),
                    "orientation": svg.get_attribute("data-orientation"), "rect": groups[0].rect}

        # The iPad exists (and its card is on the page) with no popover.
        gateway(gateway_path, "--device", "ipad", "describe")
        WebDriverWait(driver, 5, 0.02, ignored_exceptions=redrawn).until(lambda d: ipad_svg(d) is not None, "the iPad's screen never appeared")
        if popover(driver) is not None:
            fail("a popover is already up on the iPad before the tap")

        gateway(gateway_path, "--device", "ipad", "tap", "add")
        tapped = time.monotonic()
        before = WebDriverWait(driver, 1.0, 0.01, ignored_exceptions=redrawn).until(
            lambda d: p if (p := popover(d)) is not None and p["titles"] == ["Photo", "Audio"] else False,
            "the popover with Photo and Audio did not appear on the iPad's screen within a second")
        appeared = time.monotonic() - tapped
        print(f"ok: the popover with Photo and Audio appeared {appeared * 1000:.0f} ms after the gateway returned "
              f"(portrait, arrow tip at {before['tip']})")

        gateway(gateway_path, "--device", "ipad", "rotate", "landscape")
        rotated = time.monotonic()
        after = WebDriverWait(driver, 1.0, 0.01, ignored_exceptions=redrawn).until(
            lambda d: p if (p := popover(d)) is not None and p["orientation"] == "landscape" and p["tip"] != before["tip"] else False,
            "the popover did not move on the iPad's screen within a second of the rotation")
        print(f"ok: after the rotation the popover moved from {before['tip']} to {after['tip']} "
              f"({(time.monotonic() - rotated) * 1000:.0f} ms)")
        if after["titles"] != ["Photo", "Audio"]:
            fail(f"the popover after the rotation shows {after['titles']}")

        # For the picture: an iPhone with its alert, and the timeline.
        gateway(gateway_path, "--device", "iphone", "tap", "add")
        WebDriverWait(driver, 5, 0.02, ignored_exceptions=redrawn).until(
            lambda d: any(card.get_attribute("data-device") == "iphone" and card.find_elements(By.CSS_SELECTOR, "g.alert")
                          for card in d.find_elements(By.CSS_SELECTOR, "section.device")),
            "the iPhone's alert never appeared")
        driver.execute_script("window.scrollTo(0, 0)")
        if not driver.save_screenshot(screenshot):
            fail(f"could not save the screenshot to {screenshot}")
        print(f"ok: screenshot saved to {screenshot}")
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("check", choices=["pages", "metrics", "stalled", "limits", "browser"])
    parser.add_argument("url")
    parser.add_argument("--gateway")
    parser.add_argument("--screenshot", default="monitor.png")
    parser.add_argument("--health", help="the health listener's URL (limits)")
    arguments = parser.parse_args()
    url = arguments.url.rstrip("/")
    if arguments.check == "pages":
        pages(url)
    elif arguments.check == "metrics":
        metrics(url, arguments.gateway)
    elif arguments.check == "stalled":
        stalled(url, arguments.gateway)
    elif arguments.check == "limits":
        limits(url, arguments.health.rstrip("/"))
    else:
        browser(url, arguments.gateway, arguments.screenshot)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks Monster Bus against its contract, docs/asyncapi.yaml, with tools that know nothing of
the Swift code (the tests run it; Scripts/test installs what it imports):

  contract-check.py document DOC          the document is AsyncAPI 3.0 (the asyncapi3 package's
                                          pydantic model of the 3.0 specification), every $ref in it
                                          resolves, and every schema is valid JSON Schema (draft 7,
                                          which AsyncAPI's schema format extends)
  contract-check.py collect BACKEND OUT MARKER [SECONDS]
                                          subscribes to everything at BACKEND (plaintext) and writes
                                          each message's JSON frame as one line of OUT, until the
                                          ack for device MARKER arrives; says "ready" on stderr once
                                          messages flow
  contract-check.py validate DOC FILE     validates every envelope (one per line) against its type's
                                          schema in DOC with jsonschema
  contract-check.py cloudevents FILE      reads every line as a CloudEvents 1.0 JSON event with the
                                          cloudevents package (required attributes, types, extension
                                          names) and checks the Monster Bus extensions
"""
import collections
import json
import sys


def load(path):
    import yaml
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def resolve(document, reference):
    node = document
    for part in reference[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def references(node, path="#"):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield path, value
            else:
                yield from references(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from references(value, f"{path}/{index}")


def document(path):
    from asyncapi3 import AsyncAPI3
    from jsonschema import Draft7Validator

    doc = load(path)
    if doc.get("asyncapi") != "3.0.0":
        sys.exit(f"{path}: asyncapi is {doc.get('asyncapi')!r}, not 3.0.0")
    AsyncAPI3.model_validate(doc)  # raises pydantic.ValidationError, naming the field
    count = 0
    for where, reference in references(doc):
        if not reference.startswith("#/"):
            sys.exit(f"{path}: {where}: external $ref {reference}")
        try:
            resolve(doc, reference)
        except (KeyError, IndexError, TypeError):
            sys.exit(f"{path}: {where}: $ref {reference} does not resolve")
        count += 1
    schemas = doc["components"]["schemas"]
    for name, schema in schemas.items():
        Draft7Validator.check_schema(schema)
    messages = doc["components"]["messages"]
    for name, message in messages.items():
        Draft7Validator.check_schema(message["payload"])
    for name, channel in doc["channels"].items():
        # The topic: the message's name (its type), or the type, "/" and a key of parameters of
        # the channel, separated by "/" ("device.rotate/{bucket}", "device.tap/{owner}/{bucket}",
        # "ack/{replyTo}").
        address, _, key = channel["address"].partition("/")
        if address != messages[name]["name"]:
            sys.exit(f"{path}: channel {name}'s address {channel['address']} is not its message's name")
        for part in key.split("/") if key else []:
            if not (part.startswith("{") and part.endswith("}") and part[1:-1] in channel.get("parameters", {})):
                sys.exit(f"{path}: channel {name}'s address {channel['address']} has a key that is not one of its parameters")
    for name, operation in doc["operations"].items():
        channel = resolve(doc, operation["channel"]["$ref"])
        for message in operation["messages"]:
            if message["$ref"].split("/")[-1] not in channel["messages"]:
                sys.exit(f"{path}: operation {name} names a message not in its channel")
    print(f"{path}: AsyncAPI {doc['asyncapi']} valid (asyncapi3 model); {len(doc['channels'])} channels, "
          f"{len(doc['operations'])} operations, {count} $refs resolved, {len(schemas)} schemas and "
          f"{len(messages)} payloads valid JSON Schema (draft 7)")


def collect(backend, out, marker, seconds="60"):
    import time
    import zmq

    context = zmq.Context()
    socket = context.socket(zmq.SUB)
    socket.setsockopt(zmq.LINGER, 0)
    socket.setsockopt(zmq.SUBSCRIBE, b"")
    socket.connect(backend)
    deadline = time.monotonic() + float(seconds)
    ready = False
    with open(out, "wb") as handle:
        while time.monotonic() < deadline:
            if not socket.poll(int(max(1, (deadline - time.monotonic()) * 1000))):
                break
            frames = socket.recv_multipart()
            if not ready:
                print("ready", file=sys.stderr, flush=True)
                ready = True
            # The envelope is the second frame (an update between sharded instances has more).
            payload = frames[1] if len(frames) > 1 else frames[0]
            handle.write(payload.replace(b"\n", b" ") + b"\n")
            handle.flush()
            try:
                envelope = json.loads(payload)
            except ValueError:
                continue
            if envelope.get("device") == marker and envelope.get("type") == "ack":
                return
    sys.exit(f"collect: no ack for device {marker} within {seconds} s")


def validate(path, messages_path):
    from jsonschema import Draft7Validator

    doc = load(path)
    counts = collections.Counter()
    failures = []
    with open(messages_path, encoding="utf-8") as handle:
        lines = [line for line in handle if line.strip()]
    validators = {}
    for number, line in enumerate(lines, 1):
        envelope = json.loads(line)
        kind = envelope.get("type")
        name = str(kind).replace(".", "_")
        if name not in doc["components"]["messages"]:
            failures.append(f"line {number}: unknown type {kind!r}")
            continue
        if name not in validators:
            # $ref resolves against this root, which carries the document's components.
            validators[name] = Draft7Validator({"$ref": f"#/components/messages/{name}/payload", "components": doc["components"]})
        errors = sorted(validators[name].iter_errors(envelope), key=lambda e: list(e.path))
        for error in errors:
            failures.append(f"line {number} ({kind} {envelope.get('id')}): {'/'.join(map(str, error.path)) or 'envelope'}: {error.message}")
        counts[kind] += 1
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"{sum(counts.values())} envelope(s) of {len(counts)} type(s) checked against {path}: "
          f"{len(failures)} problem(s); " + ", ".join(f"{kind} {count}" for kind, count in sorted(counts.items())))
    if failures or not counts:
        sys.exit(1)


def cloudevents(path):
    with open(path, encoding="utf-8") as handle:
        lines = [line for line in handle if line.strip()]
    try:
        from cloudevents.core.formats.json import JSONFormat
        read = lambda line: JSONFormat().read(None, line)
        attributes = lambda event: event.get_attributes()
        data = lambda event: event.get_data()
    except ImportError:  # cloudevents 1.x
        from cloudevents.http import from_json
        read = from_json
        attributes = lambda event: event.get_attributes()
        data = lambda event: event.data
    for number, line in enumerate(lines, 1):
        event = read(line)
        found = attributes(event)
        for name in ("id", "source", "type", "specversion", "time", "datacontenttype", "correlationid", "sequence"):
            if name not in found:
                sys.exit(f"line {number}: no {name}")
        if found["specversion"] != "1.0" or found["datacontenttype"] != "application/json":
            sys.exit(f"line {number}: specversion {found['specversion']}, datacontenttype {found['datacontenttype']}")
        if not (isinstance(found["sequence"], str) and found["sequence"].isdigit()):
            sys.exit(f"line {number}: sequence {found['sequence']!r} is not a string of digits")
        if not isinstance(data(event), dict):
            sys.exit(f"line {number}: data is not a JSON object")
    print(f"{len(lines)} CloudEvents read and valid")
    if not lines:
        sys.exit(1)


if __name__ == "__main__":
    commands = {"document": document, "collect": collect, "validate": validate, "cloudevents": cloudevents}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](*sys.argv[2:])

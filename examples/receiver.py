#!/usr/bin/env python3
"""A webhook receiver for the Action Gateway, Python 3 standard library only.

    HMAC_KEY=whsec_... python3 examples/receiver.py      # listens on http://127.0.0.1:4000/hook

It checks both signatures the service puts on every call (docs/receivers.md):

- the body signature (spec 5.3): json.loads the body, pop "signature", json.dumps the rest with
  separators=(",", ":") and HMAC-SHA256 it keyed with the UTF-8 bytes of the whole key string. The service
  serializes exactly the way json.dumps does, so re-serializing reproduces the signed bytes for any parameters;
- the Standard Webhooks headers: "v1,<base64 HMAC-SHA256>" over "<webhook-id>.<webhook-timestamp>.<raw body>",
  keyed with the base64-decoded part of the key after "whsec_", timestamp within 5 minutes either way.

Environment:
    HMAC_KEY     the tenant's key; during a rotation, every key you hold, comma-separated (the service signs
                 the body with its newest key only, the headers with all active keys)
    PORT         default 4000 (0 picks a free port, printed at start)
    HOST         default 127.0.0.1
    RECORD_FILE  optional: one JSON line {"action_name","parameters","verified":true} is appended per verified
                 execution (registration tests are answered but not recorded)
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KEYS = [key.strip() for key in os.environ.get("HMAC_KEY", "").split(",") if key.strip()]
PORT = int(os.environ.get("PORT", "4000"))
HOST = os.environ.get("HOST", "127.0.0.1")
RECORD_FILE = os.environ.get("RECORD_FILE")
TOLERANCE_SECONDS = 5 * 60
MAX_BODY_BYTES = 1024 * 1024

record_lock = threading.Lock()


class Rejected(Exception):
    def __init__(self, status, reason):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def body_signature_ok(call):
    """Spec 5.3, the re-serializing way. `call` is the parsed body; its "signature" is removed here."""
    received = call.pop("signature")
    if not isinstance(received, str):
        return False
    signed = json.dumps(call, separators=(",", ":")).encode("utf-8")
    for key in KEYS:
        expected = hmac.new(key.encode("utf-8"), signed, hashlib.sha256).hexdigest()
        if hmac.compare_digest(expected, received):
            return True
    return False


def header_key(key):
    try:
        return base64.b64decode(key[len("whsec_"):] if key.startswith("whsec_") else key, validate=True)
    except ValueError:
        return b""


def headers_ok(headers, raw):
    """Standard Webhooks. The raw bytes are signed, so this runs before any parsing."""
    ids = headers.get_all("webhook-id") or []
    timestamps = headers.get_all("webhook-timestamp") or []
    # An id or timestamp sent twice is ambiguous (which one was signed?), so it is refused.
    if len(ids) != 1 or len(timestamps) != 1 or not timestamps[0].isascii() or not timestamps[0].isdigit():
        return False
    if abs(time.time() - int(timestamps[0])) > TOLERANCE_SECONDS:
        return False
    signed = f"{ids[0]}.{timestamps[0]}.".encode("utf-8") + raw
    received = [
        entry[len("v1,"):]
        for header in headers.get_all("webhook-signature") or []
        for entry in header.split(" ")
        if entry.startswith("v1,")
    ]
    for key in filter(None, map(header_key, KEYS)):
        expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode("ascii")
        if any(hmac.compare_digest(expected, signature) for signature in received):
            return True
    return False


def verify(headers, raw):
    """The parsed call, minus its signature, or Rejected. Same rules as src/receiver-kit/verify-webhook.ts."""
    has_header_signature = headers.get("webhook-signature") is not None
    if has_header_signature and not headers_ok(headers, raw):
        raise Rejected(401, "Invalid signature")
    try:
        call = json.loads(raw)
    except ValueError:
        raise Rejected(400, "not JSON")
    if not isinstance(call, dict) or not isinstance(call.get("action_name"), str) or "parameters" not in call:
        raise Rejected(400, "not a webhook call")
    if "signature" in call:
        # The service always sends the two signatures together: a signed body alone lost its headers somewhere.
        if not has_header_signature or not body_signature_ok(call):
            raise Rejected(401, "Invalid signature")
        return call
    # Unsigned: only the registration test of a tenant that has no key yet (spec 5.3.7). Anyone could send
    # it, so it is answered and nothing else.
    if call.get("test") is True:
        return call
    raise Rejected(401, "Invalid signature")


def record(call):
    if not RECORD_FILE:
        return
    line = json.dumps({"action_name": call["action_name"], "parameters": call["parameters"], "verified": True})
    with record_lock, open(RECORD_FILE, "a", encoding="utf-8") as file:
        file.write(line + "\n")


class Handler(BaseHTTPRequestHandler):
    server_version = "ActionGatewayReceiver/1.0"

    def do_POST(self):
        try:
            raw = self.read_body()
            call = verify(self.headers, raw)
        except Rejected as rejected:
            body = {"error": rejected.reason} if rejected.status == 401 else {"result": "", "error": rejected.reason}
            return self.answer(rejected.status, body)
        if call.get("test") is True:
            return self.answer(200, {"result": "ready", "error": ""})
        record(call)
        description = f"ran {call['action_name']} with {json.dumps(call['parameters'], ensure_ascii=False)}"
        self.answer(200, {"result": description, "error": ""})

    def read_body(self):
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            chunks, size = [], 0
            while True:
                length = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if length == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                size += length
                if size > MAX_BODY_BYTES:
                    raise Rejected(413, "body too large")
                chunks.append(self.rfile.read(length))
                self.rfile.readline()
        length = int(self.headers.get("content-length") or 0)
        if length > MAX_BODY_BYTES:
            raise Rejected(413, "body too large")
        return self.rfile.read(length)

    def answer(self, status, body):
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        sys.stderr.write(f"{self.address_string()} {format % args}\n")


def main():
    if not KEYS:
        print("HMAC_KEY is not set: only an unsigned registration test will be accepted", file=sys.stderr)
    server = ThreadingHTTPServer((HOST, PORT), Handler)
    print(f"listening on http://{HOST}:{server.server_address[1]}/hook", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()

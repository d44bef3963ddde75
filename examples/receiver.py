#!/usr/bin/env python3
"""A webhook receiver for the Action Gateway, Python 3 standard library only.

    HMAC_KEY=whsec_... python3 examples/receiver.py      # listens on http://127.0.0.1:4000/hook

Calls are verified with the receiver kit's Python module (packages/receiver-kit/python/action_gateway_receiver.py,
one file to copy into your project): the Standard Webhooks headers and the body signature, on the raw bytes,
with a 5-minute tolerance. It also shows the spec's own way to check the body signature (5.3): json.loads the
body, pop "signature", json.dumps the rest with separators=(",", ":"); the service serializes exactly the way
json.dumps does, so this gives the signed bytes back for any parameters, integers of any length included.

Environment:
    HMAC_KEY       the tenant's key; during a rotation, every key you hold, comma-separated (the service
                   signs the body with its newest key only, the headers with all active keys)
    RECEIVER_PORT  default 4000 (0 picks a free port, printed at start); not PORT, which is the service's
    HOST           default 127.0.0.1
    RECORD_FILE    optional: one JSON line {"action_name","parameters","verified":true,"reserialized":true|false}
                   is appended per verified execution (registration tests are answered but not recorded)

It answers POST /hook only: any other path is a 404, said on stderr too, so a typo in an action's webhook_url
shows at once.
"""

import errno
import hashlib
import hmac
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packages", "receiver-kit", "python"))
from action_gateway_receiver import WebhookVerificationError, verify_webhook  # noqa: E402

KEYS = [key.strip() for key in os.environ.get("HMAC_KEY", "").split(",") if key.strip()]
PORT = int(os.environ.get("RECEIVER_PORT", "4000"))
PATH = "/hook"
HOST = os.environ.get("HOST", "127.0.0.1")
RECORD_FILE = os.environ.get("RECORD_FILE")
MAX_BODY_BYTES = 4 * 1024 * 1024  # a 1 MB request of non-ASCII text arrives escaped, as over 3 MB

record_lock = threading.Lock()


class TooLarge(Exception):
    pass


def reserializes(raw):
    """The spec's re-serializing check: json.dumps of the parsed body without its signature is what was signed."""
    body = json.loads(raw)
    signature = body.pop("signature")
    signed = json.dumps(body, separators=(",", ":")).encode("utf-8")
    return any(hmac.compare_digest(hmac.new(key.encode("utf-8"), signed, hashlib.sha256).hexdigest(), signature) for key in KEYS)


def record(call, raw):
    if not RECORD_FILE:
        return
    line = json.dumps({"action_name": call["action_name"], "parameters": call["parameters"], "verified": True, "reserialized": reserializes(raw)})
    with record_lock, open(RECORD_FILE, "a", encoding="utf-8") as file:
        file.write(line + "\n")


class Handler(BaseHTTPRequestHandler):
    server_version = "ActionGatewayReceiver/1.0"

    def do_POST(self):
        if not self.on_path():
            return
        try:
            raw = self.read_body()
        except TooLarge:
            return self.answer(413, {"result": "", "error": "body too large"})
        try:
            call = verify_webhook(raw, self.headers, KEYS)
        except WebhookVerificationError as error:
            sys.stderr.write(f"refused: {error.reason}\n")
            return self.answer(401, {"error": "Invalid signature"})
        if call.get("test") is True:
            return self.answer(200, {"result": "ready", "error": ""})
        record(call, raw)
        # At most 200 characters of the parameters: the gateway reads an answer of at most 1 MB.
        description = f"ran {call['action_name']} with {json.dumps(call['parameters'], ensure_ascii=False)[:200]}"
        self.answer(200, {"result": description, "error": ""})

    def on_path(self):
        """POST /hook only: any other path is a 404, said here too, so a typo in a webhook_url shows at once."""
        path = self.path.split("?")[0]
        if path == PATH and self.command == "POST":
            return True
        sys.stderr.write(f"{self.command} {path}: this receiver answers POST {PATH} only (is the action's webhook_url right?)\n")
        self.answer(404 if path != PATH else 405, {"result": "", "error": f"this receiver answers POST {PATH} only"})
        return False

    def do_GET(self):
        self.on_path()

    do_PUT = do_DELETE = do_PATCH = do_GET

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
                    raise TooLarge()
                chunks.append(self.rfile.read(length))
                self.rfile.readline()
        length = int(self.headers.get("content-length") or 0)
        if length > MAX_BODY_BYTES:
            raise TooLarge()
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
    try:
        server = ThreadingHTTPServer((HOST, PORT), Handler)
    except OSError as error:
        hint = " (set RECEIVER_PORT to another port)" if error.errno == errno.EADDRINUSE else ""
        sys.exit(f"receiver cannot listen on {HOST}:{PORT}: {error.strerror}{hint}")
    print(f"listening on http://{HOST}:{server.server_address[1]}{PATH}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()

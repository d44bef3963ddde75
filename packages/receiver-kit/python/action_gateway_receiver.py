"""Verify a call from the Action Gateway: the Standard Webhooks headers and the body ``signature``.

Python 3.8+, standard library only: copy this one file next to your code. It makes the same checks, with the same
reasons, as the JavaScript package ``@action-gateway/receiver-kit`` (both run the same test vectors).

    from action_gateway_receiver import verify_webhook, WebhookVerificationError

    try:
        call = verify_webhook(raw_body, request.headers, ["whsec_..."])
    except WebhookVerificationError as error:
        ...  # answer 401 {"error": "Invalid signature"}; error.reason says why

Always pass the raw body exactly as received (bytes or str), before any JSON parsing: both signatures cover
bytes. ``headers`` may be a dict, ``http.server``'s message, Flask/Werkzeug's or Starlette/FastAPI's headers:
anything with ``items()``; names are matched case-insensitively.

Every function takes one key, or every key the receiver holds while a rotation is under way: the service signs
the headers with all of the tenant's active keys but the body with its newest key only.
"""

import base64
import binascii
import hashlib
import hmac
import json
import re
import time

__all__ = ["WebhookVerificationError", "verify_webhook", "verify_standard_webhook", "verify_body_signature", "trace_context"]

DEFAULT_TOLERANCE_SECONDS = 300

# The service appends the signature to the signed bytes as their last key, so the signed bytes are the raw body
# with this suffix replaced by the closing brace.
_BODY_SIGNATURE_SUFFIX = re.compile(rb',"signature":"([0-9a-f]{64})"\}\Z')
# A base64 HMAC-SHA256 is always 44 characters with one pad.
_HEADER_SIGNATURE = re.compile(r"v1,([A-Za-z0-9+/]{43}=)\Z")
_TIMESTAMP = re.compile(r"[0-9]{1,15}\Z")


class WebhookVerificationError(Exception):
    """The call did not verify; ``reason`` is the same text the JavaScript kit gives."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def verify_body_signature(raw_body, keys):
    """Spec 5.3 on the raw body: lowercase hex HMAC-SHA256 keyed with the UTF-8 bytes of the whole key string
    (``whsec_`` included), over the body without its signature. Returns True or False."""
    body = _bytes(raw_body)
    if body is None:
        return False
    match = _BODY_SIGNATURE_SUFFIX.search(body)
    if not match:
        return False
    signed = body[: match.start()] + b"}"
    received = match.group(1).decode("ascii")
    # Every key is tried, even after a match, so the time taken does not tell which key matched.
    matched = False
    for key in _key_list(keys):
        expected = hmac.new(key.encode("utf-8"), signed, hashlib.sha256).hexdigest()
        if hmac.compare_digest(expected, received):
            matched = True
    return matched


def verify_standard_webhook(raw_body, headers, keys, tolerance_seconds=DEFAULT_TOLERANCE_SECONDS, now=None):
    """Standard Webhooks: ``v1,<base64 HMAC-SHA256>`` over ``<webhook-id>.<webhook-timestamp>.<raw body>``, keyed
    with the base64-decoded part of the key after ``whsec_``. Returns True or False."""
    body = _bytes(raw_body)
    return body is not None and _header_problem(body, headers, keys, tolerance_seconds, now) is None


def verify_webhook(raw_body, headers, keys, tolerance_seconds=DEFAULT_TOLERANCE_SECONDS, now=None):
    """Both checks; returns the call (a dict, without ``signature``) or raises WebhookVerificationError.

    - A ``webhook-signature`` header, when present, must verify (timestamp within tolerance, one ``v1,``
      signature matching), before the body is parsed.
    - A body with a ``signature`` must verify too, and must come with a ``webhook-signature`` header: the
      service always sends both, so a signed body alone lost its headers somewhere (or is not from the service).
    - A body without ``signature`` passes only as the registration test (``"test": true``) of a tenant without a
      key yet (spec 5.3.7), when the header verified or is absent. It proves nothing about the sender: answer it
      and do nothing else.
    - An execution without a body signature is refused: the service never sends one.

    ``now`` is a callable returning Unix seconds (for tests and replays); integers keep every digit, as
    ``json.loads`` reads them.
    """
    body = _bytes(raw_body)
    if body is None:
        raise WebhookVerificationError("body is not UTF-8")
    has_header_signature = _header(headers, "webhook-signature") is not None
    if has_header_signature:
        problem = _header_problem(body, headers, keys, tolerance_seconds, now)
        if problem:
            raise WebhookVerificationError(problem)

    call = _parse_call(body)
    if "signature" in call:
        if not has_header_signature:
            raise WebhookVerificationError("missing webhook-signature header")
        if not verify_body_signature(body, keys):
            raise WebhookVerificationError("body signature does not match")
        del call["signature"]
        return call
    if call.get("test") is True:
        return call
    raise WebhookVerificationError("missing body signature")


def _header_problem(body, headers, keys, tolerance_seconds, now):
    webhook_id = _single_header(headers, "webhook-id")
    timestamp = _single_header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not webhook_id:
        return "missing or repeated webhook-id header"
    if not timestamp:
        return "missing or repeated webhook-timestamp header"
    if not signatures:
        return "missing webhook-signature header"
    if not _TIMESTAMP.match(timestamp):
        return "malformed webhook-timestamp header"
    current = now() if now is not None else time.time()
    if abs(current - int(timestamp)) > tolerance_seconds:
        return "webhook-timestamp outside the tolerance"

    received = [base64.b64decode(match.group(1)) for match in map(_HEADER_SIGNATURE.match, signatures.split(" ")) if match]
    if not received:
        return "no v1 signature in webhook-signature header"

    signed = webhook_id.encode("utf-8") + b"." + timestamp.encode("ascii") + b"." + body
    matched = False
    for key in _key_list(keys):
        secret = _decode_key(key)
        if not secret:
            continue
        expected = hmac.new(secret, signed, hashlib.sha256).digest()
        for signature in received:
            if hmac.compare_digest(expected, signature):
                matched = True
    return None if matched else "webhook-signature does not match"


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def _parse_call(body):
    try:
        # NaN and Infinity are not JSON (JavaScript's JSON.parse refuses them too).
        value = json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
    except ValueError:
        raise WebhookVerificationError("body is not JSON") from None
    if not isinstance(value, dict):
        raise WebhookVerificationError("body is not a JSON object")
    action_name, parameters, timestamp = value.get("action_name"), value.get("parameters"), value.get("timestamp")
    if not isinstance(action_name, str) or not isinstance(parameters, dict) or not _is_number(timestamp):
        raise WebhookVerificationError("body is not a webhook call")
    call = {"action_name": action_name, "parameters": parameters, "timestamp": timestamp}
    if value.get("test") is True:
        call["test"] = True
    if "signature" in value:
        call["signature"] = value["signature"]
    return call


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def trace_context(headers):
    """The W3C trace context a call carries: traceparent (the gateway's span that made this call is parent_id),
    and tracestate when the gateway's caller sent one. Give it to your tracer as the parent of the span that
    handles the call, or log trace_id to find the call in the gateway's logs and traces. None when the header is
    absent or malformed."""
    traceparent = _single_header(headers, "traceparent")
    match = None if traceparent is None else re.fullmatch(r"00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})", traceparent.strip())
    if match is None or set(match.group(1)) == {"0"} or set(match.group(2)) == {"0"}:
        return None
    context = {
        "trace_id": match.group(1),
        "parent_id": match.group(2),
        "sampled": int(match.group(3), 16) & 1 == 1,
        "traceparent": match.group(0),
    }
    tracestate = _header_values(headers, "tracestate")
    if tracestate:
        context["tracestate"] = ",".join(tracestate)
    return context


def _header_values(headers, name):
    """Every value of one header, whatever the framework's header object (names case-insensitive)."""
    values = []
    for key, value in headers.items():
        if not isinstance(key, str) or key.lower() != name:
            continue
        if isinstance(value, (list, tuple)):
            values.extend(item for item in value if isinstance(item, str))
        elif isinstance(value, str):
            values.append(value)
    return values


def _header(headers, name):
    # A repeated signature header is a list of signatures, the same as one space-separated header.
    values = _header_values(headers, name)
    return " ".join(values) if values else None


def _single_header(headers, name):
    # An id or timestamp sent twice is ambiguous (which one was signed?): refuse rather than guess.
    values = _header_values(headers, name)
    return values[0] if len(values) == 1 else None


def _bytes(raw_body):
    if isinstance(raw_body, str):
        try:
            return raw_body.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates
            return None
    body = bytes(raw_body)
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return body


def _key_list(keys):
    return [keys] if isinstance(keys, str) else list(keys)


def _decode_key(key):
    try:
        return base64.b64decode(key[len("whsec_"):] if key.startswith("whsec_") else key, validate=True)
    except (binascii.Error, ValueError):
        return b""

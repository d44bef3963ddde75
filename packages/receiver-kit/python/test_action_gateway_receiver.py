"""The Python module's tests (standard library only): python3 -m unittest discover -s python -p 'test_*.py'.

They run the same test vectors as the JavaScript kit (calls built by the gateway's own signer, with the
verdicts expected; the gateway's tests keep them current), plus what is particular to Python frameworks.
"""

import email.message
import hashlib
import hmac
import base64
import json
import os
import time
import unittest

from action_gateway_receiver import (
    trace_context,
    WebhookVerificationError,
    verify_body_signature,
    verify_standard_webhook,
    verify_webhook,
)

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "test", "vectors.json"), encoding="utf-8") as file:
    VECTORS = json.load(file)


def options(vector):
    extra = {"now": lambda: vector["now"]}
    if "toleranceSeconds" in vector:
        extra["tolerance_seconds"] = vector["toleranceSeconds"]
    return extra


def verdict(vector):
    try:
        return {"ok": True, "payload": verify_webhook(vector["body"], vector["headers"], vector["keys"], **options(vector))}
    except WebhookVerificationError as error:
        return {"ok": False, "reason": error.reason}


def payload_of(body):
    payload = json.loads(body)
    payload.pop("signature", None)
    return payload


class Vectors(unittest.TestCase):
    def test_every_vector_gives_the_expected_verdicts(self):
        self.assertGreaterEqual(len(VECTORS), 40)
        for vector in VECTORS:
            with self.subTest(vector["name"]):
                expected = vector["expect"]
                if expected["verifyWebhook"]["ok"]:
                    self.assertEqual(verdict(vector), {"ok": True, "payload": payload_of(vector["body"])})
                else:
                    self.assertEqual(verdict(vector), expected["verifyWebhook"])
                self.assertEqual(
                    verify_standard_webhook(vector["body"], vector["headers"], vector["keys"], **options(vector)),
                    expected["verifyStandardWebhook"],
                )
                self.assertEqual(verify_body_signature(vector["body"], vector["keys"]), expected["verifyBodySignature"])
                # Bytes work as a str does, and a single key as a list of one.
                if len(vector["keys"]) == 1:
                    raw = vector["body"].encode("utf-8")
                    self.assertEqual(
                        verify_standard_webhook(raw, vector["headers"], vector["keys"][0], **options(vector)),
                        expected["verifyStandardWebhook"],
                    )

    def test_integers_beyond_2_53_come_back_exact(self):
        vector = next(v for v in VECTORS if v["name"] == "integers beyond 2^53")
        call = verify_webhook(vector["body"], vector["headers"], vector["keys"], **options(vector))
        self.assertEqual(call["parameters"]["id"], 9007199254740993)
        self.assertEqual(call["parameters"]["big"], -123456789012345678901234567890)
        # And the body signature is what json.dumps reproduces, as the spec's re-serializing receiver does it.
        body = json.loads(vector["body"])
        signature = body.pop("signature")
        signed = json.dumps(body, separators=(",", ":")).encode("utf-8")
        self.assertEqual(hmac.new(vector["keys"][0].encode("utf-8"), signed, hashlib.sha256).hexdigest(), signature)


class Frameworks(unittest.TestCase):
    signed = next(v for v in VECTORS if v["name"] == "a signed execution")

    def test_http_server_headers_with_a_repeated_header(self):
        message = email.message.Message()
        for name, value in self.signed["headers"].items():
            message[name] = value
        call = verify_webhook(self.signed["body"].encode(), message, self.signed["keys"], **options(self.signed))
        self.assertEqual(call["action_name"], "get_weather")
        message["webhook-id"] = "again"
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(self.signed["body"].encode(), message, self.signed["keys"], **options(self.signed))
        self.assertEqual(raised.exception.reason, "missing or repeated webhook-id header")

    def test_header_names_in_any_case(self):
        headers = {name.title(): value for name, value in self.signed["headers"].items()}
        self.assertTrue(verify_standard_webhook(self.signed["body"], headers, self.signed["keys"], **options(self.signed)))

    def test_bytes_that_are_not_utf_8(self):
        raw = self.signed["body"].encode()[:-1] + b"\xff}"
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(raw, self.signed["headers"], self.signed["keys"], **options(self.signed))
        self.assertEqual(raised.exception.reason, "body is not UTF-8")
        self.assertFalse(verify_body_signature(raw, self.signed["keys"]))

    def test_nan_is_not_json(self):
        body = b"NaN"
        headers = self.headers_for(body)
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(body, headers, self.signed["keys"])
        self.assertEqual(raised.exception.reason, "body is not JSON")

    def test_the_real_clock_by_default(self):
        self.assertFalse(verify_standard_webhook(self.signed["body"], self.signed["headers"], self.signed["keys"]))
        body = self.signed["body"].encode()
        self.assertTrue(verify_standard_webhook(body, self.headers_for(body), self.signed["keys"]))

    def test_never_raises_anything_else(self):
        for size in range(0, 200, 7):
            junk = os.urandom(size)
            text = junk.decode("latin-1")
            headers = {"webhook-id": text, "webhook-timestamp": str(size), "webhook-signature": "v1," + base64.b64encode(junk).decode()}
            for body in (junk, text, '{"signature":"%s"}' % text):
                try:
                    verify_webhook(body, headers, [text, self.signed["keys"][0]], now=lambda: size)
                except WebhookVerificationError:
                    pass
                self.assertIsInstance(verify_body_signature(body, text), bool)

    def headers_for(self, body):
        webhook_id, timestamp = "msg_now", str(int(time.time()))
        secret = base64.b64decode(self.signed["keys"][0][len("whsec_"):])
        digest = hmac.new(secret, f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
        return {"webhook-id": webhook_id, "webhook-timestamp": timestamp, "webhook-signature": "v1," + base64.b64encode(digest).decode()}


if __name__ == "__main__":
    unittest.main()


class TraceContextTest(unittest.TestCase):
    TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    def test_reads_traceparent_and_tracestate(self):
        context = trace_context({"TraceParent": self.TRACEPARENT, "tracestate": "platform=abc"})
        self.assertEqual(
            context,
            {
                "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736",
                "parent_id": "00f067aa0ba902b7",
                "sampled": True,
                "traceparent": self.TRACEPARENT,
                "tracestate": "platform=abc",
            },
        )
        self.assertFalse(trace_context({"traceparent": self.TRACEPARENT[:-2] + "00"})["sampled"])
        self.assertNotIn("tracestate", trace_context({"traceparent": self.TRACEPARENT}))

    def test_none_for_absent_malformed_repeated_or_zero(self):
        for headers in ({}, {"traceparent": "nonsense"}, {"traceparent": [self.TRACEPARENT, self.TRACEPARENT]}, {"traceparent": "00-" + "0" * 32 + "-00f067aa0ba902b7-01"}):
            self.assertIsNone(trace_context(headers))

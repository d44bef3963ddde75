# Flask: verify the raw bytes (request.get_data()) with the kit's module, action_gateway_receiver.py, copied next
# to this file.   HMAC_KEY=whsec_... python3 flask_receiver.py
import os

from flask import Flask, request

from action_gateway_receiver import WebhookVerificationError, verify_webhook

KEYS = os.environ.get("HMAC_KEY", "").split(",")  # every key you hold while rotating
app = Flask(__name__)
app.config["MAX_CONTENT_LENGTH"] = 4 * 1024 * 1024  # a 1 MB request of non-ASCII text arrives as over 3 MB


@app.post("/hook")
def hook():
    try:
        call = verify_webhook(request.get_data(), request.headers, KEYS)
    except WebhookVerificationError:  # error.reason says why
        return {"error": "Invalid signature"}, 401
    if call.get("test"):  # the registration test: answer, do nothing
        return {"result": "ready", "error": ""}
    return {"result": f"ran {call['action_name']} for {call['parameters'].get('city')}", "error": ""}


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ.get("RECEIVER_PORT", "4000")))

# FastAPI: verify the raw bytes (await request.body()) with the kit's module, action_gateway_receiver.py, copied
# next to this file.   HMAC_KEY=whsec_... uvicorn fastapi_receiver:app --port 4000
import os

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from action_gateway_receiver import WebhookVerificationError, verify_webhook

KEYS = os.environ.get("HMAC_KEY", "").split(",")  # every key you hold while rotating
app = FastAPI()


@app.post("/hook")
async def hook(request: Request):
    try:
        call = verify_webhook(await request.body(), request.headers, KEYS)
    except WebhookVerificationError:  # error.reason says why
        return JSONResponse({"error": "Invalid signature"}, status_code=401)
    if call.get("test"):  # the registration test: answer, do nothing
        return {"result": "ready", "error": ""}
    return {"result": f"ran {call['action_name']} for {call['parameters'].get('city')}", "error": ""}

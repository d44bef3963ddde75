import { createServer } from 'node:http';
import { verifyWebhook, type VerifyResult, type WebhookCall } from '@action-gateway/receiver-kit';

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const result: VerifyResult = verifyWebhook(Buffer.concat(chunks), request.headers, ['whsec_a', 'whsec_b'], { toleranceSeconds: 60 });
    if (!result.ok) return response.writeHead(401).end(result.reason);
    const call: WebhookCall = result.payload;
    const city = call.parameters["city"]; // JsonValue | undefined under noUncheckedIndexedAccess
    response.end(JSON.stringify({ result: `${call.action_name} ${String(city)} ${call.test === true}`, error: '' }));
  });
});

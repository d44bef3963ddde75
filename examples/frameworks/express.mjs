// Express: read the raw bytes (express.raw), never express.json(), and verify them with the kit.
import express from 'express';
import { verifyWebhook } from '@action-gateway/receiver-kit';

const keys = (process.env.HMAC_KEY ?? '').split(','); // every key you hold while rotating
const app = express();

// 4mb: a 1 MB request of non-ASCII text arrives escaped, a little over three times its size.
app.post('/hook', express.raw({ type: 'application/json', limit: '4mb' }), (request, response) => {
  const verified = verifyWebhook(request.body, request.headers, keys);
  if (!verified.ok) return response.status(401).json({ error: 'Invalid signature' }); // verified.reason says why
  const { action_name, parameters, test } = verified.payload;
  if (test) return response.json({ result: 'ready', error: '' }); // the registration test: answer, do nothing
  response.json({ result: `ran ${action_name} for ${parameters.city}`, error: '' });
});

const server = app.listen(Number(process.env.RECEIVER_PORT ?? 4000), '127.0.0.1', () => {
  console.log(`receiver on http://127.0.0.1:${server.address().port}/hook`);
});

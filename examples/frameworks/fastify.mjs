// Fastify: keep JSON bodies as the bytes received (the signatures cover bytes), and verify them with the kit.
import Fastify from 'fastify';
import { verifyWebhook } from '@action-gateway/receiver-kit';

const keys = (process.env.HMAC_KEY ?? '').split(','); // every key you hold while rotating
const app = Fastify({ bodyLimit: 4 * 1024 * 1024 }); // a 1 MB request of non-ASCII text arrives as over 3 MB
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

app.post('/hook', async (request, reply) => {
  const verified = verifyWebhook(request.body, request.headers, keys);
  if (!verified.ok) return reply.code(401).send({ error: 'Invalid signature' }); // verified.reason says why
  const { action_name, parameters, test } = verified.payload;
  if (test) return { result: 'ready', error: '' }; // the registration test: answer, do nothing
  return { result: `ran ${action_name} for ${parameters.city}`, error: '' };
});

const address = await app.listen({ port: Number(process.env.RECEIVER_PORT ?? 4000), host: '127.0.0.1' });
console.log(`receiver on ${address}/hook`);

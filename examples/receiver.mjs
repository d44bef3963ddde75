// A tiny webhook receiver for the Action Gateway, with no dependencies: it checks the body signature of each call
// (spec 5.3) and answers the spec's {result, error}.
//
//   HMAC_KEY=whsec_... node examples/receiver.mjs        # listens on http://127.0.0.1:4000
//
// The service sends exactly the bytes it signed, with ,"signature":"<hex>" appended as the last key, so the
// signed bytes are the raw body with that suffix cut off. (Re-serializing the parsed body with Python's
// json.dumps(payload, separators=(",", ":")) gives the same bytes.)
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const key = process.env.HMAC_KEY ?? '';
const port = Number(process.env.PORT ?? 4000);
const SIGNATURE_SUFFIX = /,"signature":"([0-9a-f]{64})"}$/;

function verified(raw) {
  const match = SIGNATURE_SUFFIX.exec(raw);
  if (!match) return false;
  const signed = raw.slice(0, match.index) + '}';
  const expected = createHmac('sha256', Buffer.from(key, 'utf8')).update(signed, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

const server = createServer((request, response) => {
  let raw = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (raw += chunk));
  request.on('end', () => {
    const answer = (status, body) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    let call;
    try {
      call = JSON.parse(raw);
    } catch {
      return answer(400, { result: '', error: 'not JSON' });
    }
    // The registration test carries no signature when the tenant has no HMAC key yet: tolerate that (spec 5.3.7).
    const unsignedTest = call.test === true && call.signature === undefined;
    if (!unsignedTest && !verified(raw)) return answer(401, { error: 'Invalid signature' });
    if (call.test) return answer(200, { result: 'ready', error: '' });
    console.log(`run ${call.action_name} with ${JSON.stringify(call.parameters)}`);
    answer(200, { result: `Weather in ${call.parameters.city ?? 'nowhere'}: sunny, 21 °C`, error: '' });
  });
});
server.listen(port, '127.0.0.1', () => console.log(`receiver on http://127.0.0.1:${server.address().port}/hook`));

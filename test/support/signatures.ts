import { Webhook } from 'standardwebhooks';
import { ReceivedCall } from './receiver';

/** The call carries one Standard Webhooks signature, by `key`, and none by `revoked`. */
export function expectSignedOnlyWith(call: ReceivedCall, key: string, revoked: string): void {
  const headers = call.headers as Record<string, string>;
  expect(new Webhook(key).verify(call.body, headers)).toBeTruthy();
  expect(() => new Webhook(revoked).verify(call.body, headers)).toThrow();
  expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
}

import kit = require('@action-gateway/receiver-kit');

const result = kit.verifyWebhook('{}', new Headers(), 'whsec_a', { now: () => 0 });
const reason: string | undefined = result.ok ? undefined : result.reason;
const valid: boolean = kit.verifyBodySignature(new Uint8Array(), []) && kit.verifyStandardWebhook('', {}, 'whsec_a');
export = { reason, valid };

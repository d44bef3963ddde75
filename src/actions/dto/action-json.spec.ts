import { keepWrittenText } from '../../common/json-text';
import { actionBody, actionJson, actionListBody } from './action-json';
import { ActionDto } from './action.response';

const action = (overrides: Partial<ActionDto> = {}): ActionDto => ({
  id: '0b0e7a52-8f4c-4b8e-9a53-2f1d8a6c3e01',
  tenant_id: '5d7c1e2a-3b4f-4c6d-8e9f-0a1b2c3d4e5f',
  name: 'get_weather',
  description: 'Says "hi" \u2028 and \\ more',
  json_schema: { type: 'object' },
  webhook_url: 'https://hooks.example.com/a?b=c',
  created_at: '2026-11-25T01:02:03.456Z',
  updated_at: '2026-11-25T01:02:04.456Z',
  ...overrides,
});

describe('actionJson', () => {
  it('is the Action as JSON.stringify writes it, fields in the same order', () => {
    const dto = action();
    expect(actionJson(dto)).toBe(JSON.stringify(dto));
  });

  it('writes json_schema as it was written', () => {
    const schema = keepWrittenText({ type: 'object', properties: { '2': {}, b: {} } }, '{"type":"object","properties":{"b":{},"2":{}}}');
    const text = actionJson(action({ json_schema: schema }));
    expect(text).toContain('"json_schema":{"type":"object","properties":{"b":{},"2":{}}},"webhook_url"');
    expect(JSON.parse(text)).toEqual(action({ json_schema: schema }));
  });

  it('wraps one action and a list, serializing a shared list once', () => {
    const list = Object.freeze([action({ name: 'a' }), action({ name: 'b' })]);
    expect(JSON.parse(actionBody(list[0]).text)).toEqual({ action: list[0] });
    const first = actionListBody(list).text;
    expect(JSON.parse(first)).toEqual({ actions: list });
    expect(actionListBody(list).text).toBe(first);
    expect(actionListBody([]).text).toBe('{"actions":[]}');
  });
});

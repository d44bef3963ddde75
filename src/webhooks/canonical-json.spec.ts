import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { itIf, python3Command } from '../../test/support/requirements';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it.each([
    [{ a: 1, b: [true, false, null] }, '{"a":1,"b":[true,false,null]}'],
    ['héllo', '"h\\u00e9llo"'],
    ['😀', '"\\ud83d\\ude00"'],
    ['\ud800', '"\\ud800"'],
    ['tab\there\nnew "q" \\ /', '"tab\\there\\nnew \\"q\\" \\\\ /"'],
    ['\u0000\u001f\u007f', '"\\u0000\\u001f\\u007f"'],
    [1e21, '1000000000000000000000'],
    [-0, '0'],
    [0.1, '0.1'],
    [1.5e-7, '1.5e-07'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-300, '-2.5e-300'],
    [123.456, '123.456'],
    [{ '2': 'b', '1': 'a', z: {} }, '{"1":"a","2":"b","z":{}}'],
  ])('serializes %j as Python would', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });

  itIf(python3Command())('is reproduced byte for byte by json.dumps(separators=(",", ":")) over a generated corpus', () => {
    const corpus = fc.sample(
      fc.jsonValue({ maxDepth: 4 }).map((value) => ({ action_name: 'probe', parameters: { value }, timestamp: 1_700_000_000 })),
      { numRuns: 400, seed: 42 },
    );
    corpus.push({ action_name: 'probe', parameters: { value: ['\ud800', '\udfff', '😀', 'é', '\u2028', 5e-324, 1.7976931348623157e308, -1e-7] }, timestamp: 1 });
    const ours = corpus.map((payload) => canonicalJson(payload));
    // Python parses each of our strings and prints it again; a fixed point means a receiver can verify it.
    const script = 'import json,sys\nfor line in sys.stdin.read().split("\\n"):\n    print(json.dumps(json.loads(line), separators=(",", ":")))';
    const result = spawnSync('python3', ['-c', script], { input: ours.join('\n'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(result.stderr).toBe('');
    expect(result.stdout.trimEnd().split('\n')).toEqual(ours);
  });
});

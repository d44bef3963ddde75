import { closingQuote, compactJson, keepWrittenText, memberText, writtenText } from './json-text';

describe('closingQuote', () => {
  it.each([
    ['"abc" x', 4],
    ['"" x', 1],
    ['"a\\"b" x', 5],
    ['"a\\\\" x', 4],
    ['"a\\\\\\"b" x', 7],
    ['"unterminated', 13],
  ])('finds the end of the string opened at 0 in %j', (text, end) => {
    expect(closingQuote(text, 0)).toBe(end);
  });

  it('counts long runs of backslashes and escaped quotes right', () => {
    const text = `"${'\\\\'.repeat(200_000)}${'\\"'.repeat(200_000)}"`;
    expect(closingQuote(text, 0)).toBe(text.length - 1);
  });
});

describe('compactJson', () => {
  it('drops the whitespace between tokens and keeps what strings hold, escapes included', () => {
    expect(compactJson(' { "a b" : [ 1.0 ,\n\t-0.0, 1E2 ],\r\n "c\\" d" : "x  \\\\" , "e": { } } ')).toBe('{"a b":[1.0,-0.0,1E2],"c\\" d":"x  \\\\","e":{}}');
  });

  it('gives compact text back unchanged', () => {
    const text = JSON.stringify({ a: [1, 'two words', { '10': null, b: true }] });
    expect(compactJson(text)).toBe(text);
  });
});

describe('memberText', () => {
  it.each([
    ['{"json_schema": {"b": 1, "1": [2, "}"]}, "x": 3}', '{"b": 1, "1": [2, "}"]}'],
    ['{"a": "{\\"json_schema\\": 1}", "json_schema": 2.50}', '2.50'],
    ['{"json_schema": {"first": 1}, "json\\u005fschema": ["last"]}', '["last"]'],
    [' {\n "other": {"json_schema": 1},\n "json_schema" : "text" \n} ', '"text"'],
    ['{"x": [1, {"y": "]"}], "json_schema": null}', 'null'],
    ['{"json_schema": -1.0e+2}', '-1.0e+2'],
  ])('finds the value of the last top-level json_schema in %j', (text, expected) => {
    expect(memberText(text, 'json_schema')).toBe(expected);
  });

  it.each(['{}', '{"a": {"json_schema": 1}}', '[{"json_schema": 1}]', '"json_schema"'])('finds none in %j', (text) => {
    expect(memberText(text, 'json_schema')).toBeUndefined();
  });

  it('reads a 1 MB object in one pass', () => {
    const text = JSON.stringify({ filler: Array.from({ length: 50_000 }, (_, i) => ({ [`k${i}`]: '{[' })), json_schema: { '2': 'b', a: 1 } });
    expect(memberText(text, 'json_schema')).toBe('{"2":"b","a":1}');
  });
});

describe('writtenText', () => {
  it('gives the recorded text of a value, and JSON.stringify of any other', () => {
    const recorded = keepWrittenText({ '1': 1, b: 2 }, '{"b":2,"1":1.0}');
    expect(writtenText(recorded)).toBe('{"b":2,"1":1.0}');
    expect(writtenText({ b: 2, '1': 1 })).toBe('{"1":1,"b":2}');
    expect(writtenText('text')).toBe('"text"');
  });
});

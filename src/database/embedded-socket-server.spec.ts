import { OutputFramer } from './embedded-socket-server';

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const notification = (channel: string, payload: string) =>
  message('A', Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from(`${channel}\0${payload}\0`)]));
const dataRow = message('D', Buffer.from([0, 1, 0, 0, 0, 2, 0x34, 0x32]));
const commandComplete = message('C', Buffer.from('SELECT 1\0'));
const parseComplete = message('1', Buffer.alloc(0));
const readyForQuery = message('Z', Buffer.from('I'));

describe('OutputFramer (the embedded server taking notifications out of PGlite output)', () => {
  const first = notification('read_model', '{"version":1}');
  const second = notification('other', 'x');
  const output = Buffer.concat([parseComplete, dataRow, first, commandComplete, second, readyForQuery]);
  const rest = Buffer.concat([parseComplete, dataRow, commandComplete, readyForQuery]);

  it('passes every other message through unchanged and keeps the notifications aside, however the output is split', () => {
    for (let cut = 0; cut <= output.length; cut++) {
      for (let secondCut = cut; secondCut <= output.length; secondCut += 3) {
        const framer = new OutputFramer();
        const passed = [output.subarray(0, cut), output.subarray(cut, secondCut), output.subarray(secondCut)].map((chunk) => Buffer.from(framer.push(chunk)));
        expect(Buffer.concat(passed)).toEqual(rest);
        expect(framer.notifications).toEqual([first, second]);
      }
    }
  });

  it('hands each notification to its callback as soon as it is whole, before the bytes after it pass', () => {
    const seen: Buffer[] = [];
    const framer = new OutputFramer((whole) => seen.push(whole));
    const cut = output.indexOf(first) + first.length;
    framer.push(output.subarray(0, cut - 1));
    expect(seen).toEqual([]);
    framer.push(output.subarray(cut - 1, cut + 1));
    expect(seen).toEqual([first]);
    framer.push(output.subarray(cut + 1));
    expect(seen).toEqual([first, second]);
  });

  it('hands a chunk without notifications on as it is, without copying it', () => {
    const framer = new OutputFramer();
    const chunk = Buffer.concat([dataRow, commandComplete]);
    expect(framer.push(chunk)).toBe(chunk);
    expect(framer.notifications).toEqual([]);
  });
});

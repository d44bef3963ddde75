/**
 * The index of the quote that closes the JSON string opened by the quote at `start` (text.length when there is
 * none). A quote counts when an even number of backslashes precedes it. Linear, and quick: the search for each
 * quote is native.
 */
export function closingQuote(text: string, start: number): number {
  let index = start;
  for (;;) {
    index = text.indexOf('"', index + 1);
    if (index === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(index - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return index;
  }
}

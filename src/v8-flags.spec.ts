import { flagsToSet, V8_FLAGS } from './v8-flags';

describe('flagsToSet', () => {
  it('sets every flag when the command line gives none of them', () => {
    expect(flagsToSet(['--enable-source-maps'])).toEqual(V8_FLAGS);
  });

  it('leaves a flag the command line sets, in either polarity or spelling, to the command line', () => {
    expect(flagsToSet(['--allocation-site-pretenuring'])).toEqual(['--heap-growing-percent=100']);
    expect(flagsToSet(['--no-allocation_site_pretenuring', '--heap_growing_percent=50'])).toEqual([]);
    expect(flagsToSet(['--no_allocation_site_pretenuring'])).toEqual(['--heap-growing-percent=100']);
  });
});

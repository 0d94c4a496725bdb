import { RANDOM_NUMBER_DIGITS, randomNumber } from './random-number';

describe('the random number helper (spec §9)', () => {
  it('gives 6 digits by default, leading zeros kept', () => {
    expect(RANDOM_NUMBER_DIGITS).toBe(6);
    for (let i = 0; i < 200; i++) expect(randomNumber()).toMatch(/^\d{6}$/);
    expect(randomNumber(6, (n) => new Uint32Array(n).fill(0))).toBe('000000');
  });

  it('gives any other length asked for, and refuses nonsense', () => {
    expect(randomNumber(8)).toMatch(/^\d{8}$/);
    expect(randomNumber(1)).toMatch(/^\d$/);
    for (const digits of [0, -1, 1.5, 65]) expect(() => randomNumber(digits)).toThrow(RangeError);
  });

  it('draws again for words that would bias the digits', () => {
    const queue = [2 ** 32 - 1, 2 ** 32 - 2, 13, 27, 2 ** 32 - 6, 41];
    const words = (n: number) => Uint32Array.from(queue.splice(0, n));
    // 4294967295, 4294967294 and 4294967290 are at or above the last multiple of 10: skipped.
    expect(randomNumber(3, words)).toBe('371');
  });

  it('uses every digit about equally often', () => {
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 2000; i++) for (const d of randomNumber(6)) counts[Number(d)] += 1;
    // 12,000 digits: 1,200 expected each; 5 standard deviations is about ±165.
    for (const count of counts) expect(Math.abs(count - 1200)).toBeLessThan(200);
  });
});

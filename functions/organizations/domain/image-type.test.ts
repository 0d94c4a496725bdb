import { detectImageType } from './image-type';

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(values.flatMap((v) => (typeof v === 'string' ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe('detectImageType', () => {
  it('knows a PNG by its 8-byte signature', () => {
    expect(detectImageType(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 'IHDR'))).toBe('image/png');
  });

  it('knows a JPEG by its start-of-image marker', () => {
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16, 'JFIF', 0))).toBe('image/jpeg');
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe1, 0, 16, 'Exif', 0))).toBe('image/jpeg');
  });

  it('knows a WebP by its RIFF container of form WEBP', () => {
    expect(detectImageType(bytes('RIFF', 0x24, 0, 0, 0, 'WEBP', 'VP8 '))).toBe('image/webp');
  });

  it.each([
    ['an SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['an SVG with an XML declaration', bytes('<?xml version="1.0"?><svg>')],
    ['HTML', bytes('<!doctype html><script>')],
    ['a GIF', bytes('GIF89a', 1, 0, 1, 0)],
    ['a RIFF that is not WebP (WAVE audio)', bytes('RIFF', 0x24, 0, 0, 0, 'WAVE', 'fmt ')],
    ['a PNG signature cut short', bytes(0x89, 'PNG', 0x0d, 0x0a)],
    ['a damaged PNG signature', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0b)],
    ['nothing', bytes()],
  ])('recognises no logo type in %s', (_name, input) => {
    expect(detectImageType(input)).toBeUndefined();
  });
});

import type { LogoContentType } from '../../../shared/contracts/organizations';

/** How many leading bytes decide the type: the longest signature below ends at byte 12 (WebP). */
export const SIGNATURE_BYTES = 16;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type a file's first bytes prove, whatever name or Content-Type it came with (the upload's
 * Content-Type is whatever the uploader said). Only the three logo types are recognised.
 */
export const detectImageType = (bytes: Uint8Array): LogoContentType | undefined => {
  // PNG: the fixed 8-byte signature (RFC 2083 §12.11).
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // JPEG: start-of-image marker followed by the start of the next marker.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // WebP: a RIFF container whose form type is WEBP (bytes 4-7 are the chunk size).
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
};

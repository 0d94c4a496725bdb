import { brotliCompressSync, deflateSync, gzipSync, constants as zlibConstants } from 'node:zlib';

/** A body's encoding as the local servers send it (what CloudFront and API Gateway offer between them). */
export type Encoding = 'br' | 'gzip' | 'deflate' | 'identity';

/**
 * The first of `supported` (the server's order of preference) that the request's Accept-Encoding offers, or `identity`.
 * An encoding offered with `q=0` is refused.
 */
export const acceptedEncoding = (
  header: string | string[] | undefined,
  supported: readonly Exclude<Encoding, 'identity'>[],
): Encoding => {
  const offered = String(header ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => q?.trim() !== 'q=0')
    .map(([name]) => name?.trim().toLowerCase());
  return supported.find((encoding) => offered.includes(encoding)) ?? 'identity';
};

export const encodeBody = (body: Buffer, encoding: Encoding): Buffer =>
  encoding === 'br'
    ? brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
    : encoding === 'gzip'
      ? gzipSync(body)
      : encoding === 'deflate'
        ? deflateSync(body)
        : body;

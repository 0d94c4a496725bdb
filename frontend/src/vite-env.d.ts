/// <reference types="vite/client" />

/** The offline base map's address (frontend/build/base-map.ts): a hashed asset in the build, a dev route otherwise. */
declare module 'virtual:base-map' {
  /** The base map's files by zoom level (frontend/build/base-map.ts). */
  export const baseMapUrls: Record<'world' | 'detail', string>;
}

/** The public API's OpenAPI document with the webhook events, made at build time (frontend/build/api-reference.ts). */
declare module 'virtual:api-reference' {
  export const referenceDocument: unknown;
}

/// <reference types="vite/client" />

/** The offline base map's address (frontend/build/base-map.ts): a hashed asset in the build, a dev route otherwise. */
declare module 'virtual:base-map' {
  export const baseMapUrl: string;
}

// RapiDoc ships no types: importing it defines the <rapi-doc> element (features/sensor-data/rapidoc-element).
declare module 'rapidoc';

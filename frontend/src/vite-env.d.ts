/// <reference types="vite/client" />

// RapiDoc ships no types: importing it defines the <rapi-doc> element (features/sensor-data/rapidoc-element).
declare module 'rapidoc';

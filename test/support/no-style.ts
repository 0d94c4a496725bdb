/** What a component's stylesheet import is in unit tests (jest.config.js): nothing. */
export {};

// The ESM entry: the CommonJS implementation's exports, the same objects as require() gives.
export * from './lib/index.cjs';

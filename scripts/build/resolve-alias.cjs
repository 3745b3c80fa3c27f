// The "@/" of WXT's generated tsconfig (the project's root), for dependency-cruiser, whose resolver does not read
// `paths` without a `baseUrl`: without it the entrypoints' imports of lib/ were left unresolved and unchecked.
const { resolve } = require('node:path');

module.exports = { resolve: { alias: { '@': resolve(__dirname, '../..') } } };

// Moved to lib/fetch/politeness.ts (the net); this path stays until its last importers move.
export * from '../fetch/politeness';

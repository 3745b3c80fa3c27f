// Moved to lib/fetch/robots.ts (the net); this path stays until its last importers move.
export * from '../fetch/robots';

// Moved to lib/fetch/private-host.ts (the net); this path stays until its last importers move.
export * from '../fetch/private-host';

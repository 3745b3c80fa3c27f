// Seeded randomness for benchmarks: the same seed gives the same split, the same synthetic URLs, every run.
// The PRNG lives in lib/ (the evaluation in the dashboard uses it too); scripts import it from here as before.
export { mulberry32, shuffled } from '../../lib/random';

// Long loops that leave the page responsive: the evaluation runs in the dashboard on up to ~70,000 labels.

export const now = (): number => performance.now();

/**
 * Runs loops in slices, giving the event loop a turn (a macrotask) whenever a slice has run for `sliceMs`,
 * so the dashboard page keeps painting and handling input during a long evaluation.
 */
export class TimeSlicer {
  private sliceStart = now();
  constructor(private readonly sliceMs = 40) {}

  async each<T>(items: readonly T[], fn: (item: T, index: number) => void): Promise<void> {
    const CHUNK = 256; // look at the clock every CHUNK items, not every item
    for (let start = 0; start < items.length; start += CHUNK) {
      const end = Math.min(items.length, start + CHUNK);
      for (let i = start; i < end; i++) fn(items[i]!, i);
      await this.maybePause();
    }
  }

  /** Runs one step that cannot be sliced (e.g. assembling a model), then pauses if the slice is used up. */
  async after<T>(step: () => T): Promise<T> {
    const result = step();
    await this.maybePause();
    return result;
  }

  private async maybePause(): Promise<void> {
    if (now() - this.sliceStart < this.sliceMs) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.sliceStart = now();
  }
}

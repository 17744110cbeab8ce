const waiting: Array<() => void> = [];
let scheduled = false;

function releaseOne(): void {
  waiting.shift()?.();
  scheduled = waiting.length > 0;
  if (scheduled) setImmediate(releaseOne);
}

/**
 * Resolves on a later turn of the event loop, one waiter per turn. Work that follows (building an
 * HTTP request) then never piles up into one long blocking stretch, and I/O runs between waiters.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(releaseOne);
    }
  });
}

/**
 * A checkpoint for long CPU work over one input (the rules over a 3 MiB script): it yields a turn
 * once `budgetMs` have passed since the last, so no stretch blocks the event loop for longer.
 */
export function timeSlicer(budgetMs = 8): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await nextTurn();
    since = performance.now();
  };
}

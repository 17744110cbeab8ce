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

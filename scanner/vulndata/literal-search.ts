import { nextTurn } from '../turns.ts';

/** Characters read between turns of the event loop (a few milliseconds). */
const SLICE = 128 * 1024;

/**
 * Aho-Corasick over the anchors of every pattern: one pass over a script finds where each anchor
 * occurs, however many patterns there are (docs/scanner.md says why this is not a library).
 */
export class LiteralSearch {
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  /** The literals ending at each state, by index. */
  private readonly output: number[][] = [[]];

  constructor(readonly literals: readonly string[]) {
    literals.forEach((literal, index) => {
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const code = literal.charCodeAt(i);
        let to = this.next[state]!.get(code);
        if (to === undefined) {
          to = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.output.push([]);
          this.next[state]!.set(code, to);
        }
        state = to;
      }
      this.output[state]!.push(index);
    });
    // Breadth first: a state's failure link is the longest proper suffix that is also a prefix.
    const queue = [...this.next[0]!.values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      for (const [code, to] of this.next[state]!) {
        let f = this.fail[state]!;
        while (f !== 0 && !this.next[f]!.has(code)) f = this.fail[f]!;
        const target = this.next[f]!.get(code);
        this.fail[to] = target !== undefined && target !== to ? target : 0;
        this.output[to]!.push(...this.output[this.fail[to]!]!);
        queue.push(to);
      }
    }
  }

  /**
   * The start of each literal's occurrences, at most `perLiteral` each, skipping occurrences
   * closer than `spacing` to the last one kept (a window around it covers them). The text is read
   * in slices with a turn of the event loop between: a 3 MiB script never blocks it for long.
   */
  async find(text: string, perLiteral: number, spacing: number): Promise<number[][]> {
    const hits: number[][] = this.literals.map(() => []);
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      if (i > 0 && i % SLICE === 0) await nextTurn();
      const code = text.charCodeAt(i);
      let to = this.next[state]!.get(code);
      while (to === undefined && state !== 0) {
        state = this.fail[state]!;
        to = this.next[state]!.get(code);
      }
      state = to ?? 0;
      for (const index of this.output[state]!) {
        const list = hits[index]!;
        const start = i - this.literals[index]!.length + 1;
        if (list.length < perLiteral && (list.length === 0 || start - list[list.length - 1]! >= spacing))
          list.push(start);
      }
    }
    return hits;
  }
}

import type { Compilable, CompiledQuery } from 'kysely';
import type { DB } from './database.ts';

/** Stands in for an argument while the query is built; replaced by its value on every run. */
class Slot {
  constructor(
    readonly name: string,
    readonly index?: number,
  ) {}
}

/** A list argument stands in as a list of slots, so its length is part of the shape. */
const standIn = (name: string, value: unknown) =>
  Array.isArray(value) ? value.map((_, index) => new Slot(name, index)) : new Slot(name);

/**
 * A query that Kysely builds and compiles once per shape (which arguments are present) and that
 * then runs with new values only. Building and compiling cost as much as running the hot list
 * queries themselves. `build` may place an argument in the query (a list as an `in` list) or test
 * whether it is present, never compute with it: what it receives are stand-ins.
 */
export function preparedQuery<A extends object, R>(
  build: (db: DB, args: A) => Compilable<R>,
): (db: DB, args: A) => Promise<R[]> {
  const compiledFor = new WeakMap<DB, Map<string, CompiledQuery<R>>>();
  return async (db, args) => {
    const values = new Map(Object.entries(args).filter(([, value]) => value !== undefined));
    const shape = [...values]
      .map(([name, value]) => (Array.isArray(value) ? `${name}[${value.length}]` : name))
      .join(',');
    let byShape = compiledFor.get(db);
    if (!byShape) {
      byShape = new Map();
      compiledFor.set(db, byShape);
    }
    let compiled = byShape.get(shape);
    if (!compiled) {
      compiled = build(
        db,
        Object.fromEntries([...values].map(([name, value]) => [name, standIn(name, value)])) as A,
      ).compile();
      byShape.set(shape, compiled);
    }
    const valueFor = (slot: Slot) =>
      slot.index === undefined ? values.get(slot.name) : (values.get(slot.name) as unknown[])[slot.index];
    const run: CompiledQuery<R> = {
      ...compiled,
      parameters: compiled.parameters.map((value) => (value instanceof Slot ? valueFor(value) : value)),
    };
    return (await db.executeQuery(run)).rows;
  };
}

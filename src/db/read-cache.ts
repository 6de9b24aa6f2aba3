import type { Db, Queryable } from './client.ts';

/**
 * Rows that every request reads and almost none writes (the shop settings, the feature flags) kept in memory per
 * database, never older than the last change this instance could know of:
 * - the cache is trusted only while a change feed vouches for it (PostgreSQL LISTEN on a connection of its own,
 *   renewed by a heartbeat; PGlite's listen, for good), fed by a trigger on those tables that catches every
 *   writer, psql included. While nothing vouches for it every read goes to the database.
 * - a transaction that writes those rows (it says so with `markConfigWritten`) reads past the cache from then on,
 *   so it sees its own write, and drops the cache when it ends: not before the commit, or another request could
 *   refill it with the old value in between.
 * - a read that started before a drop does not store what it read: it may be the old value.
 */
export class ReadCache {
  #generation = 0;
  #trustedUntil = 0;

  get generation(): number {
    return this.#generation;
  }

  /** Whether the feed vouches for the cache at this moment (`performance.now()` time). */
  get live(): boolean {
    return performance.now() < this.#trustedUntil;
  }

  /** Forgets every value; reads already under way do not store theirs. */
  invalidate(): void {
    this.#generation += 1;
  }

  /**
   * The feed vouches for every change up to now, and for the cache until `deadline` (`performance.now()` time).
   * A cache nobody vouched for a moment ago forgets what it held: a change may have gone unheard meanwhile.
   */
  trustUntil(deadline: number): void {
    if (!this.live) this.invalidate();
    this.#trustedUntil = deadline;
  }

  /** The feed is gone: every read goes to the database until it vouches again. */
  distrust(): void {
    this.#trustedUntil = 0;
    this.invalidate();
  }
}

const cacheOfHandle = new WeakMap<object, ReadCache>();
const writingConfig = new WeakSet<object>();

/** The cache a database handle (or a transaction on it) reads through; none for a transaction that wrote config. */
function cacheOf(db: Queryable): ReadCache | undefined {
  return writingConfig.has(db) ? undefined : cacheOfHandle.get(db);
}

/** Marks a transaction as writing cached rows: it reads them from the database from now on, and drops them at its end. */
export function markConfigWritten(db: Queryable): void {
  writingConfig.add(db);
}

/** `load`, served from the database's cache while it is live. */
export function cachedRead<T>(load: (db: Queryable) => Promise<T>): (db: Queryable) => Promise<T> {
  const held = new WeakMap<ReadCache, { generation: number; value: T }>();
  return async (db) => {
    const cache = cacheOf(db);
    if (!cache?.live) return load(db);
    const generation = cache.generation;
    const hit = held.get(cache);
    if (hit?.generation === generation) return hit.value;
    const value = await load(db);
    if (cache.live && cache.generation === generation) held.set(cache, { generation, value });
    return value;
  };
}

/**
 * Gives a database handle a new cache, and every transaction opened on it: a transaction that wrote cached rows
 * drops the cache once it has committed or rolled back. A nested transaction (a savepoint) reads past the cache.
 */
export function attachReadCache(db: Db): ReadCache {
  const cache = new ReadCache();
  cacheOfHandle.set(db, cache);
  const transaction = db.transaction.bind(db);
  const wrapped: Db['transaction'] = async (work, config) => {
    let opened: object | undefined;
    try {
      return await transaction((tx) => {
        opened = tx;
        cacheOfHandle.set(tx, cache);
        return work(tx);
      }, config);
    } finally {
      if (opened && writingConfig.has(opened)) cache.invalidate();
    }
  };
  db.transaction = wrapped;
  return cache;
}

import { getTableColumns, sql } from 'drizzle-orm';
import type { SQL, WithSubquery } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.ts';

/**
 * Statements of the hot paths (checkout above all), built once and sent as named prepared statements. A profile of
 * the checkout put about a fifth of the server's CPU in Drizzle building the SQL text of every statement, and
 * PostgreSQL parses and plans an unnamed statement on each use. A statement is built once per driver with
 * `sql.placeholder`s and bound to the connection of whichever handle runs it: the pool, PGlite, or the connection a
 * transaction holds (node-postgres prepares a name once per connection; PGlite ignores the name).
 */

type Runnable = { execute(values?: Record<string, unknown>): Promise<unknown> };

/**
 * The driver connection a handle's queries go to. Drizzle keeps it on the session as `client` for both drivers, a
 * field its types do not name: a Drizzle upgrade that moves it fails here, loudly, in every test that places an order.
 */
function connectionOf(db: Queryable): object {
  const client: unknown = Reflect.get(db._.session, 'client');
  if (typeof client !== 'object' || client === null) throw new Error('the Drizzle session holds no driver client: src/db/prepared.ts needs updating');
  return client;
}

/** `query`, running on `client`: the prepared query keeps its SQL text, placeholders and result mapping. */
function boundTo<Q extends object>(query: Q, client: object): Q {
  return Object.create(query, { client: { value: client } }) as Q;
}

/**
 * A statement prepared once per driver and run on the caller's connection. `build` gets a handle of that driver
 * and returns `.prepare(name)` of a query whose per-call values are `sql.placeholder`s.
 */
export function preparedStatement<Q extends Runnable & object>(build: (db: Queryable) => Q): (db: Queryable) => Q {
  const byDriver = new WeakMap<object, Q>();
  const byClient = new WeakMap<object, Q>();
  return (db) => {
    const client = connectionOf(db);
    let bound = byClient.get(client);
    if (bound === undefined) {
      const driver = db._.session.constructor;
      let prepared = byDriver.get(driver);
      if (prepared === undefined) {
        prepared = build(db);
        byDriver.set(driver, prepared);
      }
      bound = boundTo(prepared, client);
      byClient.set(client, bound);
    }
    return bound;
  };
}

/**
 * A placeholder whose values are sent as `column` sends them (a Date as the column stores it, an object as JSON) and
 * null as SQL NULL: Drizzle encodes a placeholder's value without looking at null first, which would store a JSON
 * null or fail on a timestamp. Also for the places Drizzle's types take no bare placeholder: the values an UPDATE sets.
 */
export function placeholderAs(column: PgColumn, name: string): SQL {
  const encoder = { mapToDriverValue: (value: unknown) => (value === null || value === undefined ? null : column.mapToDriverValue(value)) };
  return sql`${sql.param(sql.placeholder(name), encoder)}`;
}

/**
 * INSERT … RETURNING * (or the `returning` columns) of `rows` as a prepared statement, one per shape (the columns given, the number of rows), named
 * `name` and a shape number. Columns left out take their SQL default; a column whose default is computed in
 * JavaScript (the ids) gets a fresh value per row here, since the built statement would otherwise carry the one value
 * Drizzle computed while building it. `alongside`: a data-modifying WITH query sent in the same statement, whose
 * placeholders each call gives as `alongsideValues`: a write that belongs with the insert then costs no round trip
 * of its own.
 */
export function preparedInsert<T extends PgTable, F extends Record<string, PgColumn> | undefined = undefined>(
  table: T,
  name: string,
  returning?: F,
  alongside?: (db: Queryable) => WithSubquery,
) {
  type Returned = F extends Record<string, PgColumn> ? { [K in keyof F]: F[K]['_']['data'] } : T['$inferSelect'];
  /** `slots`: which row's which column each placeholder carries. */
  type Shape = { slots: ReadonlyArray<{ row: number; key: string; name: string }>; statement: (db: Queryable) => Runnable };
  const columns = getTableColumns(table);
  const computed = Object.entries(columns).filter(([, column]) => column.defaultFn !== undefined);
  /** By the number of rows and the sorted columns: one statement name per shape, whatever order a caller lists them in. */
  const shapes = new Map<string, Shape>();
  /**
   * By the columns in the order the rows list them: a hot path inserts the same layout each time, so the per-call
   * work is one string of the keys, not sorting them and naming every placeholder again (about a tenth of the
   * checkout's own CPU when it was done on every call).
   */
  const layouts = new Map<string, Shape>();

  function shapeOf(complete: ReadonlyArray<Record<string, unknown>>): Shape {
    // A column some rows leave out is sent as null in those rows.
    const keys = [...new Set(complete.flatMap((row) => Object.keys(row)))].sort();
    const shapeKey = `${complete.length}:${keys.join(',')}`;
    let shape = shapes.get(shapeKey);
    if (shape === undefined) {
      const statementName = `${name}_${shapes.size + 1}`;
      const slots = complete.flatMap((_, row) => keys.map((key) => ({ row, key, name: `${key}_${row}` })));
      const placeholders = complete.map((_, row) => Object.fromEntries(keys.map((key) => {
        const column = columns[key];
        if (column === undefined) throw new Error(`${name}: no column ${key}`);
        return [key, placeholderAs(column, `${key}_${row}`)];
      })));
      const statement = preparedStatement((handle) => {
        const insert = (alongside ? handle.with(alongside(handle)) : handle).insert(table).values(placeholders as Array<T['$inferInsert']>);
        return (returning ? insert.returning(returning) : insert.returning()).prepare(statementName);
      });
      shape = { slots, statement };
      shapes.set(shapeKey, shape);
    }
    return shape;
  }

  return async (db: Queryable, rows: ReadonlyArray<T['$inferInsert']>, alongsideValues?: Record<string, unknown>): Promise<Returned[]> => {
    const complete = rows.map((row) => {
      const filled: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(row)) if (value !== undefined) filled[key] = value;
      for (const [key, column] of computed) filled[key] ??= column.defaultFn?.();
      return filled;
    });
    const layout = complete.map((row) => Object.keys(row).join(',')).join('|');
    let shape = layouts.get(layout);
    if (shape === undefined) {
      shape = shapeOf(complete);
      layouts.set(layout, shape);
    }
    const values: Record<string, unknown> = { ...alongsideValues };
    for (const { row, key, name: slot } of shape.slots) values[slot] = complete[row]?.[key];
    return await shape.statement(db).execute(values) as Returned[];
  };
}

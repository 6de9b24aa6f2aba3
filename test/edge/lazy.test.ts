import { describe, expect, it } from 'vitest';
import { lazy } from '../../src/edge/lazy.ts';

describe('lazy (src/edge/lazy.ts)', () => {
  it('loads once for concurrent first callers and hands every later one the same value', async () => {
    let loads = 0;
    let finish: (value: { built: number }) => void = () => {};
    const get = lazy(() => {
      loads += 1;
      return new Promise<{ built: number }>((resolve) => { finish = resolve; });
    });
    const first = [get(), get(), get()];
    finish({ built: loads });
    const values = await Promise.all([...first, get()]);
    expect(loads).toBe(1);
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toEqual({ built: 1 });
  });

  it('forgets a failed load: every waiter sees the failure, the next call loads again', async () => {
    let loads = 0;
    const get = lazy(async () => {
      loads += 1;
      if (loads === 1) throw new Error('chunk missing');
      return 'loaded';
    });
    const failed = await Promise.allSettled([get(), get()]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await get()).toBe('loaded');
    expect(await get()).toBe('loaded');
    expect(loads).toBe(2);
  });
});

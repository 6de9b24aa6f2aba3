import { describe, expect, it } from 'vitest';
import { kroner } from '../../src/schema/common.ts';

describe('kroner', () => {
  it('writes øre as Danish kroner, thousands grouped with dots', () => {
    expect(kroner(149900)).toBe('1.499,00');
    expect(kroner(123456789)).toBe('1.234.567,89');
    expect(kroner(100_000_000)).toBe('1.000.000,00');
    expect(kroner(99)).toBe('0,99');
    expect(kroner(0)).toBe('0,00');
  });

  it('keeps the sign of an amount under one krone', () => {
    expect(kroner(-5)).toBe('-0,05');
    expect(kroner(-149900)).toBe('-1.499,00');
  });
});

import { describe, expect, it } from 'vitest';
import { formatMoneyInput, parseMoneyInput } from '../../src/admin/money-input.ts';

const minor = (typed: string, currency = 'DKK') => {
  const parsed = parseMoneyInput(typed, currency);
  return parsed.ok ? parsed.minor : parsed.error;
};

describe('parseMoneyInput', () => {
  it.each([
    ['1249', 124900], ['1249.00', 124900], ['1.249,00', 124900], ['1,249.00', 124900], ['1249,5', 124950], ['1 249,00', 124900],
    ['1\u00a0249,00', 124900], ['1\u202f249.00', 124900], ['  1249  ', 124900], ['0', 0], ['0,01', 1], ['0.5', 50], ['12,49', 1249],
    ['1.249.000', 124900000], ['1,249,000', 124900000], ['1.249.000,95', 124900095], ['1 249 000', 124900000], ['007', 700],
    // Exact where a float is not: 0.29 * 100 is 28.999999999999996.
    ['0,29', 29], ['1249,95', 124995], ['90071992547409,91', 9007199254740991],
  ])('reads %j as %i øre', (typed, expected) => {
    expect(minor(typed)).toBe(expected);
  });

  it.each([
    ['1.249', 'could be read two ways'], ['1,249', 'could be read two ways'], ['', 'Type an amount in DKK'], ['-5', '0 or more'],
    ['12,499', 'could be read two ways'], ['1,2,3', 'is not an amount'], ['1.24.9', 'is not an amount'], ['12 49', 'is not an amount'],
    ['1249,999', 'at most 2'], ['kr 1249', 'is not an amount'], ['1e3', 'is not an amount'], ['0x10', 'is not an amount'],
    ['1.249.00', 'is not an amount'], ['1,249,00', 'is not an amount'], ['12,34.56', 'is not an amount'], [',5', 'is not an amount'], ['5,', 'is not an amount'],
    ['90071992547409,92', 'more than the shop can store'],
  ])('refuses %j in plain words', (typed, words) => {
    expect(minor(typed)).toContain(words);
  });

  it('takes the exponent from Intl: yen have no decimals, dinar have three', () => {
    expect(new Intl.NumberFormat('en', { style: 'currency', currency: 'JPY' }).resolvedOptions().maximumFractionDigits).toBe(0);
    expect(minor('1249', 'JPY')).toBe(1249);
    expect(minor('1,249', 'JPY')).toBe(1249);
    expect(minor('1.249', 'JPY')).toBe(1249);
    expect(minor('1249,5', 'JPY')).toContain('JPY has no decimals');
    expect(minor('1,249.000', 'KWD')).toBe(1249000);
    expect(minor('1,5', 'KWD')).toBe(1500);
    expect(minor('1.249', 'KWD')).toContain('could be read two ways');
    expect(minor('12,34', 'EUR')).toBe(1234);
  });
});

describe('formatMoneyInput', () => {
  it.each([
    [124900, 'DKK', '1249.00'], [124950, 'DKK', '1249.50'], [1, 'DKK', '0.01'], [0, 'DKK', '0.00'], [1249, 'JPY', '1249'], [1249000, 'KWD', '1249.000'],
  ])('shows %i minor units of %s as %j, which reads back the same', (amount, currency, text) => {
    expect(formatMoneyInput(amount, currency)).toBe(text);
    expect(minor(text, currency)).toBe(amount);
  });
});

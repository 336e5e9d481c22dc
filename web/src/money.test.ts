import { describe, expect, it } from 'vitest';
import { baseUnits, formatPrice, formatUsdc, parseUsdc, permille } from './money';

describe('USDC amounts', () => {
  it('formats base units with six decimals', () => {
    expect(formatUsdc(0n)).toBe('0.000000');
    expect(formatUsdc(1n)).toBe('0.000001');
    expect(formatUsdc(1_234_500n)).toBe('1.234500');
    expect(formatUsdc(1_000_000_000_000n)).toBe('1,000,000.000000');
    expect(formatUsdc(-2_500_000n)).toBe('-2.500000');
  });

  it('keeps amounts beyond the range of a double exact', () => {
    const huge = 2n ** 200n + 1n;
    expect(parseUsdc(formatUsdc(huge))).toBe(huge);
    expect(formatUsdc(baseUnits('9007199254740993'))).toBe('9,007,199,254.740993');
  });

  it('parses decimal USDC into base units', () => {
    expect(parseUsdc('0.2')).toBe(200_000n);
    expect(parseUsdc('12.000001')).toBe(12_000_001n);
    expect(parseUsdc('5')).toBe(5_000_000n);
    expect(parseUsdc('1,000.5')).toBe(1_000_500_000n);
  });

  it('refuses more than six decimals and non-numbers', () => {
    expect(() => parseUsdc('0.0000001')).toThrow(/decimals/);
    expect(() => parseUsdc('1e6')).toThrow();
    expect(() => parseUsdc('-1')).toThrow();
    expect(() => parseUsdc('')).toThrow();
  });

  it('reads the API amounts: decimal strings, never unsafe numbers', () => {
    expect(baseUnits('1500000')).toBe(1_500_000n);
    expect(baseUnits(42)).toBe(42n);
    expect(baseUnits(null)).toBe(0n);
    expect(() => baseUnits(0.1)).toThrow();
    expect(() => baseUnits('1.5')).toThrow();
  });

  it('shows prices finer than a base unit as published', () => {
    expect(formatPrice('0.00375')).toBe('0.003750');
    expect(formatPrice('0.0000005')).toBe('0.0000005');
    expect(formatPrice('0.00000050')).toBe('0.0000005');
    expect(formatPrice('2')).toBe('2.000000');
  });

  it('computes bar shares with integers', () => {
    expect(permille(1n, 3n)).toBe(333);
    expect(permille(5n, 0n)).toBe(0);
    expect(permille(7n, 5n)).toBe(1000);
  });
});

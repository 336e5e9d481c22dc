import { describe, expect, it } from 'vitest';
import { priceText } from './prices';

describe('priceText', () => {
  it('shows a price per unit as per unit, with its bounds, not as its highest price per request', () => {
    expect(priceText({ kind: 'per-unit', perUnit: '100', unit: 'minutes', minUnits: 5, maxUnits: 240 }))
      .toBe('0.0001 per unit of minutes (5–240 minutes)');
  });

  it('shows a flat price per request and a token price per 1k tokens, from base units', () => {
    expect(priceText({ kind: 'flat', perRequest: '2000' })).toBe('0.002 per request');
    expect(priceText({ kind: 'tokens', inputPer1kTokens: '150', outputPer1kTokens: '600' }))
      .toBe('0.00015 in / 0.0006 out per 1k tokens');
  });

  it('keeps every base unit of a large amount', () => {
    expect(priceText({ kind: 'flat', perRequest: '123456789012345678901' })).toBe('123456789012345.678901 per request');
  });
});

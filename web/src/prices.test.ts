import { describe, expect, it } from 'vitest';
import { exampleBody, examplesOf, priceText } from './prices';
import type { Model } from './types';

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

describe('the payment example', () => {
  const lease: Model = {
    id: 'relay-lease', name: 'Relay lease',
    pricing: { inputPer1kTokens: '0.024', outputPer1kTokens: '0', currency: 'USDC', decimals: 6 },
    price: { kind: 'per-unit', perUnit: '100', unit: 'minutes', minUnits: 5, maxUnits: 240 },
  };
  const chat: Model = { ...lease, id: 'chat', price: { kind: 'tokens', inputPer1kTokens: '150', outputPer1kTokens: '600' } };
  const leaseExample = { model: 'relay-lease', messages: [{ role: 'user', content: '{"minutes":30,"region":"eu"}' }] };

  it("is the model's own example request, as its provider publishes it", () => {
    const examples = examplesOf({ models: { 'relay-lease': { example: leaseExample } } as never });
    expect(exampleBody(lease, examples)).toBe(JSON.stringify(leaseExample));
  });

  it('never sends a service a chat greeting, which it refuses', () => {
    expect(exampleBody(lease, {})).not.toContain('hello');
    expect(exampleBody(chat, {})).toBe('{"model":"chat","messages":[{"role":"user","content":"hello"}]}');
  });

  it("takes no example that names another model, or that is not an object", () => {
    expect(examplesOf({ models: { 'relay-lease': { example: { ...leaseExample, model: 'other' } },
      chat: { example: 'hello' } } as never })).toEqual({});
    expect(examplesOf(null)).toEqual({});
  });
});

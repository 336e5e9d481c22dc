import { describe, expect, it } from 'vitest';
import { healthFacts, labelOf, valueOf } from './health';

describe('the operator\'s health details', () => {
  it('shows the gas station\'s amounts in POL with the unit, never wei', () => {
    const facts = healthFacts({
      faucet: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720', grantWei: '50000000000000000',
      checkedAt: '2026-11-25T10:00:00.123Z', balanceWei: '9999997375000000000000', requiredWei: '50525000000000000',
    });
    expect(facts.map((f) => [f.label, f.value])).toEqual([
      ['Faucet address', '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'],
      ['Gas money per grant', '0.05 POL'],
      ['Checked', '2026-11-25 10:00:00 UTC'],
      ['Faucet balance', '9999.997375 POL'],
      ['Needed per grant (value and gas)', '0.050525 POL'],
    ]);
  });

  it('shows the listener\'s blocks and lag in words', () => {
    const facts = healthFacts({ state: 'FOLLOWING', checkpointBlock: 120, finalizedBlock: 121, lagBlocks: 1, consecutiveFailures: 0 });
    expect(facts.map((f) => `${f.label}: ${f.value}`)).toEqual([
      'State: FOLLOWING', 'Checkpoint: block 120', 'Final block: block 121', 'Lag: 1 block behind the final block',
      'Failures in a row: 0']);
  });

  it('writes a detail it does not know as words, and a wei amount of it in POL', () => {
    expect(labelOf('pendingGrantCount')).toBe('Pending grant count');
    expect(labelOf('reservedWei')).toBe('Reserved');
    expect(valueOf('reservedWei', '1000000000000000000')).toBe('1 POL');
    expect(valueOf('nested', { a: 1 })).toBe('{"a":1}');
  });
});

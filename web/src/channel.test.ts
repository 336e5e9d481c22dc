import { describe, expect, it } from 'vitest';
import { eventFigures, eventNonce } from './channel';
import type { ChannelEvent } from './types';

const channelId = `0x${'ab'.repeat(32)}`;
const chainRef = { blockNumber: 7, blockHash: `0x${'01'.repeat(32)}`, txHash: `0x${'02'.repeat(32)}`, logIndex: 1 };

describe('channel event figures, from each event type\'s own fields', () => {
  it('shows a claim\'s gross payout, fee, what the provider received (payout − fee) and total claimed', () => {
    const claimed: ChannelEvent = {
      type: 'ChannelClaimed', timestamp: '2025-01-01T00:00:00Z', chainRef,
      payload: { channelId, provider: '0x1', payout: '300000', fee: '6000', totalClaimed: '1300000', chainRef },
    };
    expect(eventFigures(claimed)).toEqual([
      { label: 'payout (gross)', units: 300_000n }, { label: 'fee', units: 6_000n },
      { label: 'provider received', units: 294_000n }, { label: 'total claimed', units: 1_300_000n }]);
  });

  it('shows a settled request\'s cost, charge and charged total, and its voucher nonce', () => {
    const settled: ChannelEvent = {
      type: 'RequestSettled', timestamp: '2025-01-01T00:00:00Z', sequence: 4,
      payload: { channelId, nonce: '3', cost: '1200', charged: '1000', chargedTotal: '51000', settledAt: 1 },
    };
    expect(eventFigures(settled).map((f) => [f.label, f.units])).toEqual([
      ['cost', 1200n], ['charged', 1000n], ['charged total', 51_000n]]);
    expect(eventNonce(settled)).toBe('3');
  });

  it('shows the excess returned to the consumer', () => {
    const returned: ChannelEvent = {
      type: 'ExcessReturned', timestamp: '2025-01-01T00:00:00Z', chainRef,
      payload: { channelId, consumer: '0x2', amount: '4000', chainRef },
    };
    expect(eventFigures(returned)).toEqual([{ label: 'returned', units: 4_000n }]);
  });

  it('leaves out members an older event lacks, and a voucher without a hold shows none', () => {
    const voucher: ChannelEvent = {
      type: 'VoucherAccepted', timestamp: '2025-01-01T00:00:00Z',
      payload: { channelId, amount: '50000', nonce: '1', signature: '0x', increment: '50000', acceptedAt: 1 },
    };
    expect(eventFigures(voucher).map((f) => f.label)).toEqual(['voucher', 'increment']);
    const opened: ChannelEvent = {
      type: 'ChannelOpened', timestamp: '2025-01-01T00:00:00Z', chainRef,
      payload: { channelId, deposit: '2000000', expiry: 1, provisional: false, claimedAtOpen: '0' },
    };
    expect(eventFigures(opened)).toEqual([{ label: 'deposit', units: 2_000_000n }]);
  });
});

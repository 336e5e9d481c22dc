import { describe, expect, it } from 'vitest';
import { chainTime, listenerAlert, listenerSummary, type Listener } from './listener';

const following: Listener = {
  status: 'UP', state: 'RUNNING', headBlock: 120, finalizedBlock: 120, checkpointBlock: 120, lagBlocks: 0,
  blocksBehind: 0, secondsBehind: 0, consecutiveFailures: 0,
};

describe('listener state', () => {
  it('says a listener at the head follows the chain, without alert', () => {
    expect(listenerSummary(following)).toBe('Following the chain: recorded up to block 120, 0 blocks below the head (block 120).');
    expect(listenerAlert(following)).toBe(false);
  });

  it('says how far and in chain time a listener is behind the head, as an alert even while UP', () => {
    const behind: Listener = { ...following, checkpointBlock: 0, finalizedBlock: 0, blocksBehind: 120,
      secondsBehind: 4_200, behindSince: '2026-01-02T03:04:05Z' };
    expect(listenerSummary(behind)).toBe('Behind the chain: recorded up to block 0, 120 blocks (1 h 10 min of chain '
      + 'time) behind the head (block 120). These figures miss the latest blocks, and the watchtower claims nothing '
      + 'until the ledger has caught up.');
    expect(listenerAlert(behind)).toBe(true);
    expect(listenerAlert({ ...behind, status: 'DOWN', reason: 'BEHIND_HEAD' })).toBe(true);
  });

  it('names why a listener is DOWN, and a starting one', () => {
    expect(listenerSummary({ ...following, status: 'DOWN', reason: 'RPC_FAILURES' }))
      .toBe('Not following the chain (RPC_FAILURES): recorded up to block 120.');
    expect(listenerSummary({ ...following, status: 'UNKNOWN', state: 'STARTING', checkpointBlock: -1 }))
      .toBe('Starting: the listener has not read the chain yet.');
  });

  it('writes chain time in seconds under a minute', () => {
    expect(chainTime(45)).toBe('45 s');
    expect(chainTime(90)).toBe('1 min');
  });
});

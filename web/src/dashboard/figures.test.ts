import { describe, expect, it } from 'vitest';
import { dayPoints, received, riskReason, timeLeft } from './figures';

describe('time left', () => {
  it('names the two largest units', () => {
    expect(timeLeft(0)).toBe('expired');
    expect(timeLeft(-5)).toBe('expired');
    expect(timeLeft(30)).toBe('1 min');
    expect(timeLeft(90)).toBe('1 min');
    expect(timeLeft(3_599)).toBe('59 min');
    expect(timeLeft(3_600)).toBe('1 h');
    expect(timeLeft(3_900)).toBe('1 h 5 min');
    expect(timeLeft(86_400)).toBe('1 d');
    expect(timeLeft(183_600)).toBe('2 d 3 h');
  });
});

describe('risk reason', () => {
  it('puts a closing channel before its expiry', () => {
    expect(riskReason({ closing: true, secondsLeft: 7_200 })).toBe('closing: a close authorization is out');
    expect(riskReason({ closing: false, secondsLeft: 0 })).toBe('expired: the consumer may close it now');
    expect(riskReason({ closing: false, secondsLeft: 600 })).toBe('expires in 10 min');
  });
});

describe('chart points', () => {
  it('are the days of the table and no other, with their exact base units', () => {
    const points = dayPoints([
      { day: '2026-11-25', charged: '7769', requests: 1, claimed: '1000000', fees: '20000' },
      { day: '2026-11-23', charged: '5000', requests: 3, claimed: '0', fees: '0' },
    ]);
    expect(points).toEqual({
      starts: [1_795_392_000, 1_795_564_800],
      labels: ['2026-11-23', '2026-11-25'],
      charged: [5_000n, 7_769n],
      claimed: [0n, 1_000_000n],
    });
  });

  it('draws a single day as that day alone', () => {
    const points = dayPoints([{ day: '2026-11-25', charged: '5000', requests: 1, claimed: '0', fees: '0' }]);
    expect(points.labels).toEqual(['2026-11-25']);
    expect(points.charged).toEqual([5_000n]);
  });

  it('has no point without a day', () => {
    expect(dayPoints([])).toEqual({ starts: [], labels: [], charged: [], claimed: [] });
  });
});

describe('a claim', () => {
  it('put its payout less the fee in the wallet', () => {
    expect(received({ payout: '1250000', fee: '25000' })).toBe(1_225_000n);
    expect(received({ payout: '7769', fee: '0' })).toBe(7_769n);
  });
});

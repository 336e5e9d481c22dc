import { describe, expect, it } from 'vitest';
import { cents, dayColumns, riskReason, timeLeft } from './figures';

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

describe('chart columns', () => {
  it('draws whole cents from base units without floating-point sums', () => {
    expect(cents('0')).toBe(0);
    expect(cents('19999')).toBe(0.01);
    expect(cents('123456789')).toBe(123.45);
    expect(cents('123456789012')).toBe(123456.78);
  });

  it('puts each day at its UTC midnight, a day without activity at zero', () => {
    const columns = dayColumns([
      { day: '2026-11-23', charged: '1500000', requests: 3, claimed: '0', fees: '0' },
      { day: '2026-11-25', charged: '20000', requests: 1, claimed: '1000000', fees: '20000' },
    ]);
    expect(columns).toEqual([[1_795_392_000, 1_795_478_400, 1_795_564_800], [1.5, 0, 0.02], [0, 0, 1]]);
  });

  it('starts a single day from the day before', () => {
    const columns = dayColumns([{ day: '2026-11-25', charged: '20000', requests: 1, claimed: '0', fees: '0' }]);
    expect(columns).toEqual([[1_795_478_400, 1_795_564_800], [0, 0.02], [0, 0]]);
  });

  it('has no point without a day', () => {
    expect(dayColumns([])).toEqual([[], [], []]);
  });
});

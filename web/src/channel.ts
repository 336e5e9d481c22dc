// What the pages show of a channel's recorded events, from each event type's own fields (the
// generated ChannelEvent type: docs/api.md, Channel read models).
import { baseUnits } from './money';
import type { ChannelEvent } from './types';

/** One amount of an event, in base units, with what it is. */
export interface EventFigure {
  label: string;
  units: bigint;
}

/**
 * A claim's amounts: its payout (what it added to the claimed total, gross), the contract's fee on
 * it, what the provider's wallet received (payout − fee), and the claimed total after it.
 */
export function claimFigures(payout: string | undefined, fee: string | undefined, totalClaimed: string | undefined): [string, string | undefined][] {
  const received = payout != null && fee != null ? (baseUnits(payout) - baseUnits(fee)).toString() : undefined;
  return [['payout (gross)', payout], ['fee', fee], ['provider received', received], ['total claimed', totalClaimed]];
}

/** Figures of base-unit amounts, those absent left out. */
export function figuresOf(amounts: [string, string | null | undefined][]): EventFigure[] {
  return amounts.filter((f): f is [string, string] => f[1] != null).map(([label, units]) => ({ label, units: baseUnits(units) }));
}

/** The amounts an event carries, in the order a reader wants them; none for an event without. */
export function eventFigures(event: ChannelEvent): EventFigure[] {
  const figures: [string, string | undefined][] = (() => {
    switch (event.type) {
      case 'ChannelOpened':
        return [['deposit', event.payload.deposit], ['claimed before the ledger saw it', nonZero(event.payload.claimedAtOpen)]];
      case 'ChannelOpenConfirmed':
        return [['deposit', event.payload.deposit]];
      case 'VoucherAccepted':
        return [['voucher', event.payload.amount], ['increment', event.payload.increment], ['hold', event.payload.hold],
          ['charged total', event.payload.chargedTotal]];
      case 'HoldRaised':
        return [['hold', event.payload.hold]];
      case 'RequestSettled':
        return [['cost', event.payload.cost], ['charged', event.payload.charged], ['charged total', event.payload.chargedTotal]];
      case 'ChannelClaimed':
        return claimFigures(event.payload.payout, event.payload.fee, event.payload.totalClaimed);
      case 'ChannelExpired':
        return [];
      case 'ChannelClosed':
        return [['refund', event.payload.refund]];
      case 'CloseAuthorized':
        return [['final amount', event.payload.finalAmount]];
      case 'ExcessReturned':
        return [['returned', event.payload.amount]];
      default:
        return unknownEvent(event);
    }
  })();
  return figuresOf(figures);
}

/** The voucher nonce an event is about, for the events of a voucher or its request. */
export function eventNonce(event: ChannelEvent): string | undefined {
  switch (event.type) {
    case 'VoucherAccepted':
    case 'HoldRaised':
    case 'RequestSettled':
      return event.payload.nonce;
    default:
      return undefined;
  }
}

export function explorerLink(template: string, txHash: string): string {
  return template.includes('{txHash}') ? template.replace('{txHash}', txHash) : `${template}${txHash}`;
}

function nonZero(units: string | undefined): string | undefined {
  return units == null || baseUnits(units) === 0n ? undefined : units;
}

/** Every event type is handled above: an event type added to the API fails the build until it is. */
function unknownEvent(event: never): [string, string | undefined][] {
  void event;
  return [];
}

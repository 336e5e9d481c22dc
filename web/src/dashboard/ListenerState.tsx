import { formatTime } from '../shared';
import { listenerAlert, listenerSummary, type Listener } from './listener';

/** The chain listener's state, first on the dashboard: whether its figures see the chain's present. */
export function ListenerState({ listener }: { listener?: Listener }) {
  if (!listener) return null;
  const alert = listenerAlert(listener);
  return (
    <div class="card" data-testid="listener-state" data-status={listener.status}>
      <h2>Chain</h2>
      <p class={alert ? 'error' : 'muted'} role={alert ? 'alert' : undefined} data-testid="listener-summary">
        {listenerSummary(listener)}
      </p>
      {listener.behindSince !== undefined && (
        <p>Behind since <span data-testid="listener-behind-since">{formatTime(listener.behindSince)}</span></p>
      )}
      {listener.detail && <p class="muted" data-testid="listener-detail">{listener.detail}</p>}
    </div>
  );
}

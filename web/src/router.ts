// A small history router: pages are addresses the service answers with index.html (PageRoutes),
// links push history entries, and the browser's back and forward re-render.
import { useEffect, useState } from 'preact/hooks';

const CHANGE = 'chan:navigate';

export function navigate(to: string, replace = false): void {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGE));
}

export function useLocation(): { path: string; search: string } {
  const read = () => ({ path: location.pathname, search: location.search });
  const [current, setCurrent] = useState(read);
  useEffect(() => {
    const update = () => setCurrent(read());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, []);
  return current;
}

/** Left clicks without modifiers stay in the page; the others open new tabs as usual. */
export function onLinkClick(event: MouseEvent): void {
  const anchor = (event.target as HTMLElement).closest('a');
  if (!anchor || anchor.target || anchor.origin !== location.origin || event.button !== 0
    || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (!isPagePath(anchor.pathname)) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
  window.scrollTo(0, 0);
}

function isPagePath(path: string): boolean {
  return path === '/' || /^\/(providers|skills|become-a-provider|console|channels|my-channels)(\/|$)/.test(path);
}

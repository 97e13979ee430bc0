// History-API routing for the single-page client.

type Render = (root: HTMLElement, params: Record<string, string>, query: URLSearchParams) => (() => void) | void;

interface Route {
  pattern: RegExp;
  names: string[];
  render: Render;
}

const routes: Route[] = [];
let cleanup: (() => void) | void;
let root: HTMLElement;
let afterRender: (() => void) | undefined;
let notFound: Render | undefined;

/** The page shown for an unknown path. */
export function fallback(render: Render): void {
  notFound = render;
}

export function route(path: string, render: Render): void {
  const names: string[] = [];
  const pattern = new RegExp(
    '^' + path.replace(/:([a-z]+)/g, (_, n: string) => {
      names.push(n);
      return '([^/]+)';
    }) + '/?$',
  );
  routes.push({ pattern, names, render });
}

export function startRouter(el: HTMLElement, after?: () => void): void {
  root = el;
  afterRender = after;
  window.addEventListener('popstate', () => renderCurrent());
  document.addEventListener('click', e => {
    const a = (e.target as HTMLElement).closest?.('a[data-link]') as HTMLAnchorElement | null;
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(a.getAttribute('href') ?? '/');
  });
  renderCurrent();
}

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  renderCurrent();
}

export function renderCurrent(): void {
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  const path = location.pathname;
  const query = new URLSearchParams(location.search);
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    r.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1])));
    root.innerHTML = '';
    cleanup = r.render(root, params, query);
    afterRender?.();
    window.scrollTo(0, 0);
    return;
  }
  root.innerHTML = '';
  cleanup = notFound?.(root, {}, query);
  afterRender?.();
}
